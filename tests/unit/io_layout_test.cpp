// FFTW's advanced-interface layouts in the IR (docs/transforms.md, "Layouts"): the index
// function v(n, s, d), its simplifications, and loop programs of batched, strided and
// in-place kernels run by the interpreter against the long-double DFT of every transform.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cfloat>
#include <optional>
#include <random>

#include "generator/driver/io_layout.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "generator/ir/loop_visitor.h"
#include "generator/ir/print.h"
#include "generator/lower/vectorise_batch.h"
#include "generator/parse/formula_parser.h"
#include "generator/ir/index_fn.h"
#include "generator/ir/real_kind.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/real_reference.h"
#include "tests/support/reference.h"
#include "tests/support/spec_reference.h"

namespace splgen {
namespace {

TEST(IoLayout, IndexFunctionMapsBatchAndElement) {
  IndexFn v = fn_layout(3, 5, 2, 11);  // 3 transforms of 5, element j of b at 11b + 2j
  ASSERT_EQ(v->kind, FnKind::Layout);
  EXPECT_EQ(v->domain, 15);
  EXPECT_EQ(v->range, 2 * 11 + 4 * 2 + 1);
  for (int64_t b = 0; b < 3; ++b)
    for (int64_t j = 0; j < 5; ++j) {
      EXPECT_EQ(eval(v, b * 5 + j, {}), 11 * b + 2 * j);
      Idx at = apply_index(v, idx_const(b * 5 + j));
      ASSERT_TRUE(as_affine(at) && as_affine(at)->is_constant()) << to_string(at);
      EXPECT_EQ(as_affine(at)->c0, 11 * b + 2 * j);
    }
}

TEST(IoLayout, SimpleLayoutsAreHOrL) {
  EXPECT_TRUE(is_identity(fn_layout(4, 8, 1, 8)));                   // contiguous batches
  EXPECT_EQ(fn_layout(1, 8, 3, 0)->kind, FnKind::H);                 // one strided transform
  EXPECT_EQ(fn_layout(4, 8, 2, 16)->kind, FnKind::H);                // contiguous at stride 2
  EXPECT_TRUE(same(fn_layout(4, 8, 4, 1), fn_stride(32, 4)));        // batches interleaved
  EXPECT_THROW(fn_layout(2, 8, 0, 8), std::logic_error);
}

TEST(IoLayout, ComposesWithTheBatchLoopIntoAnH) {
  // I(4) (x) DFT(8): block b is h(8b, 1); through v(8, 3, 40) it is h(40b, 3)
  LoopVar b{0, 4};
  IndexFn block = fn_h(8, 32, Affine::var(b, 8), 1);
  IndexFn folded = compose(fn_layout(4, 8, 3, 40), block);
  ASSERT_EQ(folded->kind, FnKind::H) << to_string(folded);
  EXPECT_EQ(folded->s, 3);
  EXPECT_EQ(folded->base, Affine::var(b, 40));
  // a column of the batch (stride 8 over the blocks): h(j + 8i) -> 40i + 3j
  IndexFn column = fn_h(4, 32, Affine::var(LoopVar{1, 8}), 8);
  IndexFn c = compose(fn_layout(4, 8, 3, 40), column);
  ASSERT_EQ(c->kind, FnKind::H) << to_string(c);
  EXPECT_EQ(c->s, 40);
}

// The loop program of SPEC with the layout, interpreted on a memory image, against the
// reference DFT of each transform; untouched output elements stay zero (out of place) or
// keep their input (in place).
void expect_layout_program(const std::string &spec, int64_t n, const driver::IoLayoutOptions &io, int sign = -1) {
  SCOPED_TRACE(spec);
  driver::GenOptions o;
  o.io = io;
  driver::Compilation c = driver::start(spec, o);
  driver::run_until(c, driver::Stage::Loops);
  const Function &f = c.program.loops;
  const int64_t idist = io.idist.value_or(n * io.istride), odist = io.odist.value_or(n * io.ostride);
  std::vector<cplx> x(std::size_t(f.buffers[kInputBuffer].size));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (cplx &v : x) v = {u(rng), u(rng)};
  std::vector<cplx> y = interpret(f, x);
  std::vector<bool> written(y.size(), false);
  for (int64_t b = 0; b < io.batch; ++b) {
    std::vector<std::complex<long double>> one;
    for (int64_t j = 0; j < n; ++j) one.emplace_back(x[std::size_t(b * idist + j * io.istride)]);
    std::vector<std::complex<long double>> want = test::reference_dft(one, sign);
    for (int64_t j = 0; j < n; ++j) {
      std::size_t at = std::size_t(b * odist + j * io.ostride);
      written[at] = true;
      EXPECT_NEAR(y[at].real(), double(want[std::size_t(j)].real()), 1e-12) << "b " << b << " j " << j;
      EXPECT_NEAR(y[at].imag(), double(want[std::size_t(j)].imag()), 1e-12) << "b " << b << " j " << j;
    }
  }
  for (std::size_t i = 0; i < y.size(); ++i)
    if (!written[i]) EXPECT_EQ(y[i], io.in_place ? x[i] : cplx(0.0)) << "element " << i;
}

TEST(IoLayout, BatchedStridedProgramsComputeEveryTransform) {
  driver::IoLayoutOptions io;
  io.batch = 3, io.istride = 2, io.idist = 17, io.ostride = 3, io.odist = 1;  // output: 3 batches interleaved
  for (auto [spec, n] : {std::pair<const char *, int64_t>{"DFT(8)", 8}, {"DFT(12)", 12}, {"DFT(5)", 5}, {"DFT(64)", 64}}) {
    io.idist = 2 * n + 1;
    expect_layout_program(spec, n, io);
  }
}

TEST(IoLayout, InPlaceProgramsReadBeforeTheyWrite) {
  driver::IoLayoutOptions io;
  io.batch = 2, io.in_place = true;
  for (auto [spec, n] : {std::pair<const char *, int64_t>{"DFT(8)", 8}, {"DFT(64)", 64}, {"DFT(97)", 97}, {"DFT(256)", 256}})
    expect_layout_program(spec, n, io);
  io.istride = io.ostride = 3, io.idist = io.odist = 1;  // interleaved batches, in place
  expect_layout_program("DFT(64)", 64, io);
}

// A real DFT's loop program with the layout (in place: the two views of one buffer),
// interpreted on a memory image of reals, against the long-double definition of each
// transform; `packed`: whether its real side must be read (written) as complex pairs.
void expect_real_layout_program(RealKind kind, int64_t n, const driver::IoLayoutOptions &io, std::optional<bool> packed) {
  const std::string spec = fmt::format("{}({})", real_kind_name(kind), n);
  SCOPED_TRACE(fmt::format("{} batch {} istride {} ostride {}{}", spec, io.batch, io.istride, io.ostride, io.in_place ? " in place" : ""));
  driver::GenOptions o;
  o.io = io;
  driver::Compilation c = driver::start(spec, o);
  driver::run_until(c, driver::Stage::Loops);
  const Function &f = c.program.loops;
  const Buffer &xb = f.buffers[kInputBuffer], &yb = f.buffers[kOutputBuffer];
  if (packed) {  // unset: a leaf codelet, no packing stage
    EXPECT_EQ((kind == RealKind::RDFT ? xb : yb).packed, *packed);
  }
  const Spl one = parse::parse_formula(spec);
  const driver::IoSide in = driver::io_input_side(one, io), out = driver::io_output_side(one, io);
  auto reals_of = [](const Buffer &b) { return b.real || b.packed ? (b.packed ? 2 : 1) * b.size : 2 * b.size; };
  std::vector<double> mem(std::size_t(reals_of(xb)));
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double &v : mem) v = u(rng);
  std::vector<cplx> x;
  for (std::size_t i = 0; i < mem.size(); i += xb.real || xb.packed ? 1 : 2)
    x.push_back(xb.real || xb.packed ? cplx(mem[i], 0.0) : cplx(mem[i], mem[i + 1]));
  std::vector<double> y;
  for (const cplx &v : interpret(f, x)) {
    y.push_back(v.real());
    if (!yb.real && !yb.packed) y.push_back(v.imag());  // a packed y comes back as its reals
  }
  std::vector<bool> written(y.size(), false);
  for (int64_t b = 0; b < io.batch; ++b) {
    std::vector<long double> one_in;
    for (int64_t j = 0; j < in.n; ++j)
      for (int64_t p = 0; p < (in.real ? 1 : 2); ++p) one_in.push_back(mem[std::size_t((in.real ? 1 : 2) * (b * in.dist + j * in.stride) + p)]);
    if (!in.real) one_in[1] = 0, one_in[std::size_t(2 * (in.n - 1) + 1)] = n % 2 ? one_in[std::size_t(2 * (in.n - 1) + 1)] : 0;
    const std::vector<long double> want = test::real_reference(kind, n, one_in);
    for (int64_t k = 0; k < out.n; ++k)
      for (int64_t p = 0; p < (out.real ? 1 : 2); ++p) {
        const std::size_t at = std::size_t((out.real ? 1 : 2) * (b * out.dist + k * out.stride) + p);
        written.at(at) = true;
        EXPECT_NEAR(y[at], double(want[std::size_t((out.real ? 1 : 2) * k + p)]), 1e-11) << "b " << b << " k " << k;
      }
  }
  if (io.in_place)  // the reals no output covers keep what was there
    for (std::size_t i = 0; i < y.size(); ++i)
      if (!written[i]) EXPECT_EQ(y[i], mem[i]) << "real " << i;
}

TEST(IoLayout, RealDftsReadTheirRealsPackedInBatches) {
  driver::IoLayoutOptions io;
  io.batch = 3;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT}) {
    expect_real_layout_program(kind, 16, io, std::nullopt);  // a contiguous batch (16: maybe a leaf codelet)
    expect_real_layout_program(kind, 64, io, true);
    expect_real_layout_program(kind, 9, io, false);  // odd: no packing
  }
  io.istride = 2;  // r2c: a strided real side is read real by real
  expect_real_layout_program(RealKind::RDFT, 64, io, false);
  expect_real_layout_program(RealKind::IRDFT, 64, io, true);  // c2r: its real side is y
}

TEST(IoLayout, RealDftsInPlaceInFftwsPaddedLayout) {
  driver::IoLayoutOptions io;
  io.in_place = true;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT})
    for (int64_t batch : {1, 3}) {
      io.batch = batch, io.istride = io.ostride = 1;
      for (int64_t n : {2, 8, 12}) expect_real_layout_program(kind, n, io, std::nullopt);
      expect_real_layout_program(kind, 64, io, true);
      expect_real_layout_program(kind, 7, io, false);
      (kind == RealKind::RDFT ? io.istride : io.ostride) = 2;  // the real side strided: a view of its own
      expect_real_layout_program(kind, 16, io, false);
      expect_real_layout_program(kind, 64, io, false);
    }
}

TEST(IoLayout, HeaderCommentStatesTheLayout) {
  driver::GenOptions o;
  o.io.batch = 1000, o.io.idist = 256, o.io.ostride = 1000, o.io.odist = 1;
  driver::Compilation c = driver::run_pipeline("DFT(256)", o);
  EXPECT_NE(c.source.find("batch 1000: y[b + 1000*j], x[256*b + j] (j < 256), interleaved complex, out-of-place"),
            std::string::npos) << c.source.substr(0, 600);
  EXPECT_NE(c.source.find("void splgen_dft256_b1000_strided(double *__restrict y, const double *__restrict x)"),
            std::string::npos);
  EXPECT_EQ(driver::run_pipeline("DFT(256)", o).source, c.source) << "deterministic";
}

// FFTW's place of element (i_0 .. i_d-1) in an embedding array: sum_k i_k prod_{l>k} e_l.
int64_t embedded_place(const std::vector<int64_t> &dims, const std::vector<int64_t> &embed, int64_t j) {
  int64_t pos = 0, pitch = 1;
  for (std::size_t k = dims.size(); k-- > 0;) {
    pos += j % dims[k] * pitch;
    j /= dims[k], pitch *= embed[k];
  }
  return pos;
}

TEST(IoLayout, EmbeddedIndexFunctionsAddressThePitchedArray) {
  struct C {
    const char *spec;
    std::vector<int64_t> dims, inembed, onembed;
    int64_t batch, istride, ostride;
  };
  for (const C &c : {C{"DFT(4 x 6)", {4, 6}, {5, 9}, {4, 7}, 3, 2, 1}, C{"DFT(2 x 3 x 4)", {2, 3, 4}, {3, 5, 6}, {2, 3, 4}, 2, 1, 3},
                     C{"DFT(4 x 6)", {4, 6}, {4, 8}, {6, 6}, 1, 1, 1}}) {
    SCOPED_TRACE(c.spec);
    driver::IoLayoutOptions io;
    io.batch = c.batch, io.istride = c.istride, io.ostride = c.ostride, io.inembed = c.inembed, io.onembed = c.onembed;
    const Spl batched = driver::batched_spec(parse::parse_formula(c.spec), io);
    const lower::IoLayout l = driver::io_layout_functions(batched, io);
    ASSERT_TRUE(l.x && l.y);
    int64_t n = 1, in_array = 1, out_array = 1;
    for (std::size_t k = 0; k < c.dims.size(); ++k) n *= c.dims[k], in_array *= c.inembed[k], out_array *= c.onembed[k];
    EXPECT_EQ(l.x->domain, c.batch * n);
    for (int64_t b = 0; b < c.batch; ++b)
      for (int64_t j = 0; j < n; ++j) {
        EXPECT_EQ(eval(l.x, b * n + j, {}), c.istride * (b * in_array + embedded_place(c.dims, c.inembed, j)));
        EXPECT_EQ(eval(l.y, b * n + j, {}), c.ostride * (b * out_array + embedded_place(c.dims, c.onembed, j)));
      }
    // a row of the transform (the loops' contiguous access) folds into one h
    LoopVar r{0, c.dims[0]};
    const int64_t row = n / c.dims[0];
    IndexFn folded = compose(l.x, fn_h(row, c.batch * n, Affine::var(r, row), 1));
    if (c.dims.size() == 2) EXPECT_EQ(folded->kind, FnKind::H) << to_string(folded);
  }
}

// The loop program of a multi-dimensional DFT in embedding arrays, interpreted, against the
// reference of every transform; the padding of y stays zero.
TEST(IoLayout, EmbeddedProgramsComputeEveryTransform) {
  driver::GenOptions o;
  o.io.batch = 2, o.io.istride = 2, o.io.inembed = {5, 7}, o.io.onembed = {6, 8};
  const std::vector<int64_t> dims = {4, 6};
  driver::Compilation c = driver::start("DFT(4 x 6)", o);
  driver::run_until(c, driver::Stage::Loops);
  const Function &f = c.program.loops;
  std::vector<cplx> x(std::size_t(f.buffers[kInputBuffer].size));
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (cplx &v : x) v = {u(rng), u(rng)};
  std::vector<cplx> y = interpret(f, x);
  ASSERT_GE(int64_t(y.size()), 48 + 3 * 8 + 5 + 1);  // the last element of transform 1
  std::vector<bool> written(y.size(), false);
  for (int64_t b = 0; b < 2; ++b) {
    std::vector<std::complex<long double>> one;
    for (int64_t j = 0; j < 24; ++j) one.emplace_back(x[std::size_t(2 * (35 * b + embedded_place(dims, {5, 7}, j)))]);
    std::vector<std::complex<long double>> want = test::spec_reference(parse::parse_formula("DFT(4 x 6)"), one, -1);
    for (int64_t j = 0; j < 24; ++j) {
      std::size_t at = std::size_t(48 * b + embedded_place(dims, {6, 8}, j));
      written[at] = true;
      EXPECT_NEAR(y[at].real(), double(want[std::size_t(j)].real()), 1e-12) << "b " << b << " j " << j;
      EXPECT_NEAR(y[at].imag(), double(want[std::size_t(j)].imag()), 1e-12) << "b " << b << " j " << j;
    }
  }
  for (std::size_t i = 0; i < y.size(); ++i)
    if (!written[i]) EXPECT_EQ(y[i], cplx(0.0)) << "padding element " << i;
}

TEST(IoLayout, EmbeddingsParseAndAreCheckedInOneLine) {
  EXPECT_EQ(driver::parse_embed("64 x 50"), (std::vector<int64_t>{64, 50}));
  EXPECT_EQ(driver::parse_embed("64x50x3"), (std::vector<int64_t>{64, 50, 3}));
  EXPECT_EQ(driver::parse_embed("80"), (std::vector<int64_t>{80}));
  for (const char *bad : {"", "64 x", "x 3", "64 y 50", "-4 x 5", "0 x 5", "1048576 x 1048576 x 2"})
    EXPECT_THROW(driver::parse_embed(bad), FormulaError) << bad;
  auto error = [](const char *spec, std::vector<int64_t> in, std::vector<int64_t> on, bool in_place = false) {
    driver::GenOptions o;
    o.io.inembed = std::move(in), o.io.onembed = std::move(on), o.io.in_place = in_place, o.io.batch = 2;
    try {
      driver::check_io_layout(parse::parse_formula(spec), o);
    } catch (const FormulaError &e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("DFT(4 x 6)", {4, 6, 2}, {}), "--inembed 4x6x2: the transform has 2 dimensions (4 x 6), the embedding 3");
  EXPECT_EQ(error("DFT(4 x 6)", {}, {4, 5}), "--onembed 4x5: dimension 2 of the embedding (5) is smaller than the transform's (6)");
  EXPECT_EQ(error("DFT(4 x 6)", {3, 6}, {}), "--inembed 3x6: dimension 1 of the embedding (3) is smaller than the transform's (4)");
  EXPECT_EQ(error("DFT(16)", {8, 2}, {}), "--inembed 8x2: the transform has 1 dimension (16), the embedding 2");
  EXPECT_EQ(error("DFT(16)", {15}, {}), "--inembed 15: dimension 1 of the embedding (15) is smaller than the transform's (16)");
  EXPECT_EQ(error("DFT(16)", {20}, {}), "no error");
  EXPECT_EQ(error("RDFT(4 x 6)", {4, 8}, {4, 4}), "no error") << "the complex side is 4 x 4";
  EXPECT_EQ(error("RDFT(4 x 6)", {}, {4, 3}), "--onembed 4x3: dimension 2 of the embedding (3) is smaller than the transform's (4)");
  EXPECT_EQ(error("IRDFT(4 x 6)", {4, 4}, {4, 5}), "--onembed 4x5: dimension 2 of the embedding (5) is smaller than the transform's (6)");
  EXPECT_EQ(error("RDFT(16)", {16}, {9}, true).find("--inembed/--onembed with a real transform in place (RDFT(16)) are not built yet"), 0u);
  EXPECT_EQ(error("DFT(4 x 6)", {4, 8}, {4, 7}, true).find("--in-place: input and output layouts must be the same"), 0u);
  EXPECT_EQ(error("DFT(4 x 6)", {4, 8}, {4, 8}, true), "no error");
  EXPECT_EQ(error("DFT(4 x 6)", {}, {4, 12}), "no error") << "rows of the two transforms interleaved: disjoint";
  driver::GenOptions o;
  o.io.batch = 2, o.io.onembed = {4, 12}, o.io.odist = 3;
  EXPECT_THROW(
      try { driver::check_io_layout(parse::parse_formula("DFT(4 x 6)"), o); } catch (const FormulaError &e) {
        EXPECT_STREQ(e.what(), "--ostride 1 --odist 3: two outputs of the 2 x 24 elements fall on one element");
        throw;
      },
      FormulaError);
  o.io.odist.reset(), o.target = "cuda";
  EXPECT_THROW(driver::check_io_layout(parse::parse_formula("DFT(4 x 6)"), o), FormulaError);
}

// I(b) (x) A -> (I(b/nu) (x) L (A (x) I(nu)) L) (+) ... (lower/vectorise_batch.h) is the same
// matrix for every b, the rest at the narrower widths and alone.
TEST(IoLayout, AcrossBatchRewriteIsTheSameMatrix) {
  for (const char *a : {"DFT(3)", "DFT(4)", "(DFT(2) (x) I(2)) * T(4,2) * (I(2) (x) DFT(2)) * L(4,2)"})
    for (int64_t b = 1; b <= 9; ++b) {
      Spl batch = tensor(make_identity(b), parse::parse_formula(a));
      Spl across = lower::vectorise_batch(batch, {4, 2});
      SCOPED_TRACE(print(across));
      EXPECT_LE(max_abs_difference(to_dense(across), to_dense(batch)), 1e-12);
      EXPECT_EQ(across != batch, b >= 2) << "across from 2 transforms on";
    }
  Spl one = lower::vectorise_batch(tensor(make_identity(8), make_dft(4)), {4, 2});
  EXPECT_EQ(print(one), "I(2) (x) (L(16,4) * (DFT(4) (x) I(4)) * L(16,4))");
  Spl rest = lower::vectorise_batch(tensor(make_identity(7), make_dft(4)), {4, 2});
  EXPECT_EQ(print(rest), "(L(16,4) * (DFT(4) (x) I(4)) * L(16,4)) (+) (L(8,2) * (DFT(4) (x) I(2)) * L(8,4)) (+) DFT(4)");
  const Spl single = make_dft(16);
  EXPECT_EQ(lower::vectorise_batch(single, {4, 2}), single) << "no batch, no change";
}

// The rule of driver::batch_vector_widths (docs/transforms.md, "Batches vectorised across the batch").
TEST(IoLayout, AcrossBatchRule) {
  auto widths = [](const char *spec, int64_t batch, Isa isa, Precision p, int64_t ostride = 1,
                   std::optional<int64_t> odist = {}, bool split = false) {
    driver::GenOptions o;
    o.isa = isa, o.precision = p;
    o.io.batch = batch, o.io.ostride = ostride, o.io.odist = odist, o.io.split = split;
    return driver::batch_vector_widths(driver::batched_spec(parse::parse_formula(spec), o.io), o);
  };
  const Precision d = Precision::Double, f = Precision::Float;
  EXPECT_EQ(widths("DFT(16)", 1000, Isa::Avx2, d), (std::vector<int>{4, 2}));
  EXPECT_EQ(widths("DFT(32)", 256, Isa::Avx512, f), (std::vector<int>{16, 8, 4}));
  EXPECT_EQ(widths("DFT(4)", 4, Isa::Avx2, d), (std::vector<int>{4, 2})) << "b = nu";
  EXPECT_TRUE(widths("DFT(4)", 3, Isa::Avx2, d).empty()) << "b < nu";
  EXPECT_TRUE(widths("DFT(16)", 1000, Isa::Scalar, d).empty()) << "no vectors";
  EXPECT_TRUE(widths("DFT(64)", 1000, Isa::Avx2, d).empty()) << "contiguous beyond the codelets";
  EXPECT_TRUE(widths("DFT(16)", 100000, Isa::Avx512, d).empty()) << "x and y beyond L2";
  EXPECT_EQ(widths("DFT(32)", 1000, Isa::Avx512, d), (std::vector<int>{8, 4, 2})) << "x and y in L2";
  EXPECT_EQ(widths("DFT(256)", 1000, Isa::Avx2, d, 1000, 1), (std::vector<int>{4, 2})) << "transposed output";
  EXPECT_EQ(widths("DFT(256)", 1000, Isa::Avx512, d, 1000, 1), (std::vector<int>{8, 4, 2})) << "256 x 8 fits";
  EXPECT_TRUE(widths("DFT(256)", 1000, Isa::Avx512, f, 1000, 1).empty()) << "256 x 16 does not";
  EXPECT_TRUE(widths("DFT(16)", 1000, Isa::Avx2, d, 1, {}, true).empty()) << "split format";
  EXPECT_TRUE(widths("RDFT(16)", 1000, Isa::Avx2, d).empty()) << "a real side";
  EXPECT_TRUE(widths("DFT(4 x 4)", 1000, Isa::Avx2, d).empty()) << "not one codelet";
}

// The kernel: the batch loop runs blocks of nu transforms, each one DFT(16) codelet whose
// vector loop over the nu lanes is innermost (not DFT(16) split into vector loops inside).
std::vector<Stmt> flat_statements(const Stmt &s) {
  std::vector<Stmt> out;
  for (const Stmt &t : statements_of(s)) {
    if (t->kind != StmtKind::Block) {
      out.push_back(t);
      continue;
    }
    for (const Stmt &u : flat_statements(t)) out.push_back(u);
  }
  return out;
}

TEST(IoLayout, AcrossBatchKernelRunsLanesOverTransforms) {
  driver::GenOptions o;
  o.isa = Isa::Avx2, o.io.batch = 1000;
  driver::Compilation c = driver::start("DFT(16)", o);
  driver::run_until(c, driver::Stage::Loops);
  EXPECT_EQ(print(c.tagged), "I(250) (x) (L(64,4) * (DFT(16) (x) I(4)) * L(64,16))");
  const std::vector<Stmt> top = flat_statements(c.program.loops.body);
  ASSERT_EQ(top.size(), 1u);
  const Stmt &outer = top.front();
  ASSERT_EQ(outer->kind, StmtKind::For);
  EXPECT_EQ(outer->var.extent, 250);
  const std::vector<Stmt> inner = flat_statements(outer->loop_body);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner.front()->kind, StmtKind::For);
  EXPECT_EQ(inner.front()->vector_width, 4);
  EXPECT_EQ(inner.front()->var.extent, 4);
}

}  // namespace
}  // namespace splgen
