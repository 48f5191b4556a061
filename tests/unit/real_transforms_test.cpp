// The real transforms (docs/transforms.md): their widely linear dense meaning against the
// definitions computed another way (apply_spl: one complex DFT of an embedding), the algebra
// of widely linear matrices, the real rules' @functions for many sizes, the loop code with
// real buffers, and the parser's one-line errors.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>

#include "generator/driver/pipeline.h"
#include "generator/ir/apply.h"
#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/lower/count_operations.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/real_reference.h"
#include "generator/rewrite/functions.h"

namespace splgen {
namespace {

constexpr double kTol = 1e-9;

Spl call(const std::string &name, std::vector<int64_t> args) { return rewrite::find_rule_function(name)->make(args); }

TEST(RealTransforms, DenseMeaningMatchesTheDefinitionViaTheDft) {
  for (const RealKind kind : test::all_real_kinds())
    for (int64_t n = 1; n <= 17; ++n) {
      if (kind == RealKind::WHT && (n & (n - 1)) != 0) continue;
      Spl f = make_real_transform(kind, n);
      Matrix m = to_dense(f);
      EXPECT_FALSE(m.linear()) << print(f);  // reads Re(x) or writes Re(y)
      EXPECT_LT(max_abs_difference(m, apply_dense(f)), kTol) << print(f);
    }
}

TEST(RealTransforms, ShapesAndRealParts) {
  Spl r = make_real_transform(RealKind::RDFT, 9);
  EXPECT_EQ(r->rows, 5);
  EXPECT_EQ(r->cols, 9);
  Spl ir = make_real_transform(RealKind::IRDFT, 8);
  EXPECT_EQ(ir->rows, 8);
  EXPECT_EQ(ir->cols, 5);
  // RDFT ignores the imaginary parts of its input; IRDFT's output is real.
  std::vector<cplx> x(9, cplx(0.5, 0.25)), xr(9, cplx(0.5, 0));
  std::vector<cplx> a = apply_matrix(to_dense(r), x), b = apply_matrix(to_dense(r), xr);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_LT(std::abs(a[i] - b[i]), kTol);
  std::vector<cplx> y = apply_matrix(to_dense(ir), std::vector<cplx>(5, cplx(0.3, -0.7)));
  for (const cplx &v : y) EXPECT_EQ(v.imag(), 0.0);
}

// IRDFT(n) RDFT(n) = n Re: unnormalised, as FFTW.
TEST(RealTransforms, InverseUpToN) {
  for (int64_t n = 1; n <= 12; ++n) {
    Matrix m = to_dense(compose(make_real_transform(RealKind::IRDFT, n), make_real_transform(RealKind::RDFT, n)));
    Matrix want = to_dense(make_tensor({make_identity(n), make_wide_dense(1, 1, {0.5 * double(n)}, {0.5 * double(n)})}));
    EXPECT_LT(max_abs_difference(m, want), kTol) << n;
  }
}

TEST(WidelyLinear, ProductKronAndOrder) {
  Spl conj = make_wide_dense(1, 1, {0.0}, {1.0});
  Spl times_i = make_diag({cplx(0, 1)});
  // conj(i x) = -i conj(x) != i conj(x): the composition keeps the order.
  Matrix a = to_dense(compose(conj, times_i)), b = to_dense(compose(times_i, conj));
  EXPECT_NEAR(std::abs(a.conj_at(0, 0) - cplx(0, -1)), 0.0, kTol);
  EXPECT_NEAR(std::abs(b.conj_at(0, 0) - cplx(0, 1)), 0.0, kTol);
  // I(n) (x) A is blockwise for a real-linear A; DFT(2) (x) conj depends on the order: refused.
  Matrix blocks = to_dense(make_tensor({make_identity(3), conj}));
  EXPECT_EQ(blocks.conj_at(2, 2), cplx(1.0));
  EXPECT_EQ(blocks.conj_at(1, 2), cplx(0.0));
  EXPECT_THROW(to_dense(make_tensor({make_diag({cplx(0, 1), 1.0}), make_wide_dense(1, 2, {1.0, 0.0}, {0.0, 1.0})})),
               FormulaError);
  EXPECT_THROW(make_transpose(conj), FormulaError);
  EXPECT_EQ(make_wide_dense(1, 1, {2.0}, {0.0})->kind, SplKind::Dense);  // C = 0: a Mat
}

TEST(RealRuleFunctions, HalfSizeRealDft) {
  for (int64_t m = 1; m <= 24; ++m) {
    Spl r = make_compose({call("rdft_post", {m}), make_dft(m), call("rdft_pack", {m})});
    EXPECT_LT(max_abs_difference(to_dense(r), to_dense(make_real_transform(RealKind::RDFT, 2 * m))), kTol) << m;
    Spl ir = make_compose({call("irdft_unpack", {m}), make_dft(m, -1), call("irdft_pre", {m})});
    EXPECT_LT(max_abs_difference(to_dense(ir), to_dense(make_real_transform(RealKind::IRDFT, 2 * m))), kTol) << m;
  }
}

TEST(RealRuleFunctions, ThroughTheComplexDft) {
  for (int64_t n = 1; n <= 25; ++n) {
    Spl r = make_compose({call("trunc", {n / 2 + 1, n}), make_dft(n), call("re", {n})});
    EXPECT_LT(max_abs_difference(to_dense(r), to_dense(make_real_transform(RealKind::RDFT, n))), kTol) << n;
    Spl ir = make_compose({call("re", {n}), make_dft(n, -1), call("hermitian", {n})});
    EXPECT_LT(max_abs_difference(to_dense(ir), to_dense(make_real_transform(RealKind::IRDFT, n))), kTol) << n;
  }
  for (int64_t n = 2; n <= 25; ++n) {
    Spl c = make_compose({call("dct2_post", {n}), make_real_transform(RealKind::RDFT, n), call("dct2_perm", {n})});
    EXPECT_LT(max_abs_difference(to_dense(c), to_dense(make_real_transform(RealKind::DCT2, n))), kTol) << n;
    Spl c3 = make_compose({call("dct3_out", {n}), make_real_transform(RealKind::IRDFT, n), call("dct3_pre", {n})});
    EXPECT_LT(max_abs_difference(to_dense(c3), to_dense(make_real_transform(RealKind::DCT3, n))), kTol) << n;
  }
  for (int64_t n = 1; n <= 20; ++n) {  // rules/trig.rules
    auto real = [&](RealKind k) { return make_real_transform(k, n); };
    Spl s2 = make_compose({call("flip", {n}), real(RealKind::DCT2), call("alternate", {n})});
    Spl s3 = make_compose({call("alternate", {n}), real(RealKind::DCT3), call("flip", {n})});
    Spl s4 = make_compose({call("flip", {n}), real(RealKind::DCT4), call("alternate", {n})});
    EXPECT_LT(max_abs_difference(to_dense(s2), to_dense(real(RealKind::DST2))), kTol) << n;
    EXPECT_LT(max_abs_difference(to_dense(s3), to_dense(real(RealKind::DST3))), kTol) << n;
    EXPECT_LT(max_abs_difference(to_dense(s4), to_dense(real(RealKind::DST4))), kTol) << n;
  }
  EXPECT_THROW(call("rdft_post", {0}), FormulaError);
}

TEST(RealRuleFunctions, HalfSizeDct4) {  // rules/trig.rules, dct4_half
  for (int64_t m = 1; m <= 20; ++m) {
    Spl d = make_compose({call("dct4_post", {m}), make_dft(m), call("dct4_pre", {m})});
    EXPECT_LT(max_abs_difference(to_dense(d), to_dense(make_real_transform(RealKind::DCT4, 2 * m))), kTol) << m;
  }
  EXPECT_THROW(call("dct4_pre", {0}), FormulaError);
}

// The half-size real DFT lowers to: the first stage of DFT(m) reading the reals in pairs (no
// packing pass), and one loop over the pairs (k, m-k) (fused, merge_loops.cpp); the inverse
// writes its reals in pairs. The loop code still means the transform.
// rules/trig.rules, dct4_odd: DCT4(n) = @dct4_odd_post(n) DFT(n) @dct4_odd_pre(n), n odd.
TEST(RealRuleFunctions, OddDct4ThroughOneDft) {
  for (int64_t n : {3, 5, 7, 9, 11, 15, 21, 33, 63}) {
    Spl f = make_compose({call("dct4_odd_post", {n}), make_dft(n), call("dct4_odd_pre", {n})});
    EXPECT_LT(max_abs_difference(to_dense(f), to_dense(make_real_transform(RealKind::DCT4, n))), kTol) << n;
  }
  EXPECT_THROW(call("dct4_odd_pre", {8}), FormulaError);
}

TEST(RealTransforms, PackedBuffersAndOnePairLoop) {
  for (const char *spec : {"RDFT(64)", "IRDFT(64)", "RDFT(70)", "IRDFT(70)"}) {
    driver::Compilation c = driver::start(spec, driver::GenOptions{});
    driver::run_until(c, driver::Stage::Loops);
    const Function &f = c.program.loops;
    const bool forward = std::string(spec).rfind("IRDFT", 0) != 0;
    const Buffer &packed = f.buffers[forward ? kInputBuffer : kOutputBuffer];
    EXPECT_TRUE(packed.packed && !packed.real) << spec;
    EXPECT_EQ(packed.size * 2, forward ? f.cols : f.rows) << spec;
    EXPECT_LT(max_abs_difference(to_dense(f), to_dense(c.spec)), kTol) << spec;
  }
  // (I(3) (x) F) Diag (I(3) (x) A): one Sum after merging, its body F Diag A.
  Spl f = make_wide_dense(2, 2, {1.0, 1.0, 0.0, 0.0}, {0.0, 0.0, 1.0, -1.0});
  Spl a = make_wide_dense(2, 2, {0.5, 0.0, cplx(0, -0.5), 0.0}, {0.0, 0.5, 0.0, cplx(0, 0.5)});
  Spl core = make_compose({make_tensor({make_identity(3), f}), make_diag({1.0, cplx(0, 1), 1.0, -1.0, 1.0, cplx(0, -1)}),
                           make_tensor({make_identity(3), a})});
  Sigma merged = lower::merge_loops(lower::lower_to_sigma(core));
  ASSERT_EQ(merged->kind, SigmaKind::Sum) << print(merged);
  EXPECT_LT(max_abs_difference(to_dense(merged), to_dense(core)), kTol);
}

// Even RDFT and IRDFT leaves are the real radix-2 split (lower/real_radix2.cpp): the loop code
// means the transform, with genfft's operation counts or near them (r2cf_16: 58 adds, 20 muls).
TEST(RealTransforms, RadixTwoLeaves) {
  for (const char *kind : {"RDFT", "IRDFT"})
    for (int64_t n = 2; n <= 32; n += 2) {
      const std::string spec = fmt::format("{}({})", kind, n);
      driver::Compilation c = driver::start(spec, driver::GenOptions{});
      driver::run_until(c, driver::Stage::Loops);
      EXPECT_LT(max_abs_difference(to_dense(c.program.loops), to_dense(c.spec)), kTol) << spec;
    }
  auto operations = [](const char *spec) {
    driver::Compilation c = driver::start(spec, driver::GenOptions{});
    driver::run_until(c, driver::Stage::Loops);
    lower::OperationCount n = lower::count_operations(c.program.loops);
    return n.adds + n.muls;
  };
  EXPECT_LE(operations("RDFT(16)"), 78);
  EXPECT_LE(operations("IRDFT(16)"), 90);
  EXPECT_LE(operations("RDFT(32)"), 220);
}

// A table read along a loop is index arithmetic when it is affine there, checked everywhere.
TEST(RealTransforms, AffineThroughTable) {
  const std::vector<int64_t> order = {0, 8, 1, 7, 2, 6, 3, 5, 4};  // pairs (k, 8-k)
  LoopVar j{0, 3};
  std::optional<Affine> second = affine_through_table(order, Affine::var(j, 2) + 3);  // order[2j+3] = 7-j
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*second, Affine::var(j, -1) + 7);
  EXPECT_FALSE(affine_through_table(order, Affine::var(LoopVar{0, 4}, 1) + 1).has_value());  // 8, 1, 7, 2
  EXPECT_FALSE(affine_through_table(order, Affine::var(LoopVar{0, 9}, 2)).has_value());      // leaves the table
}

// Real buffers: loads of the imaginary part fold to 0, the imaginary part is never stored,
// and the loop code still means the transform.
TEST(RealTransforms, LoopCodeWithRealBuffers) {
  for (const RealKind kind : test::all_real_kinds())
    for (int64_t n : {1, 2, 3, 8, 40}) {
      if (kind == RealKind::WHT && (n & (n - 1)) != 0) continue;
      Spl f = make_real_transform(kind, n);
      const RealKindInfo &info = real_kind_info(kind);
      Function loops = lower::sigma_to_loops(lower::merge_loops(lower::lower_to_sigma(f)), "k", {},
                                             {info.real_in, info.real_out});
      EXPECT_EQ(loops.buffers[kInputBuffer].real, info.real_in);
      EXPECT_LT(max_abs_difference(to_dense(loops), to_dense(f)), kTol) << print(f);
    }
}

// The same spec and options give the same bytes (docs/design.md, "Invariants"), with the
// layout in the header comment and the default name.
TEST(RealTransforms, GenerationIsDeterministic) {
  for (const char *spec : {"RDFT(96)", "IRDFT(15)", "DCT2(64)", "WHT(256)"}) {
    driver::GenOptions o;
    o.isa = Isa::Avx2;
    std::string a = driver::run_pipeline(spec, o).source, b = driver::run_pipeline(spec, o).source;
    EXPECT_EQ(a, b) << spec;
  }
  std::string r = driver::run_pipeline("RDFT(96)", driver::GenOptions{}).source;
  EXPECT_NE(r.find("y: 49 interleaved complex, x: 96 reals"), std::string::npos);
  EXPECT_NE(r.find("void splgen_rdft96(double *__restrict y, const double *__restrict x)"), std::string::npos);
}

TEST(RealTransforms, ParserErrorsNameThePosition) {
  auto message = [](const std::string &text) {
    try {
      parse::parse_formula(text);
    } catch (const parse::ParseError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("RDFT(0)"), "1:1: RDFT(n): n must be a positive size, got 0");
  EXPECT_EQ(message("I(2) (x) DCT2(-1)"), "1:10: DCT2(n): n must be a positive size, got -1");
  EXPECT_EQ(message("WHT(12)"), "1:1: WHT(n): n must be a power of two, got 12");
  EXPECT_EQ(message("DCT5(4)"), "1:1: unknown name 'DCT5'");
  EXPECT_EQ(print(parse::parse_formula("DST3(7)")), "DST3(7)");
}

}  // namespace
}  // namespace splgen
