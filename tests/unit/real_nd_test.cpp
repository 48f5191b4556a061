// Multi-dimensional real transforms (docs/transforms.md): the nodes' shapes and names, their
// dense meaning (Kronecker products of the dimensions' kernels) against the row-column
// evaluation of apply_spl, the inverse, the rules of rules/real_nd.rules, the kernel's
// signature and header comment, and the one-line errors.
#include <gtest/gtest.h>

#include "generator/driver/pipeline.h"
#include "generator/expand/expand.h"
#include "generator/ir/apply.h"
#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/real_reference.h"

namespace splgen {
namespace {

constexpr double kTol = 1e-9;

std::string error_of(const std::string &text) {
  try {
    parse::parse_formula(text);
  } catch (const parse::ParseError &e) {
    return e.what();
  }
  return "no error";
}

TEST(RealNd, ShapesAndNames) {
  Spl r = parse::parse_formula("RDFT(4 x 6)");
  EXPECT_EQ(r->rows, 4 * 4);
  EXPECT_EQ(r->cols, 24);
  EXPECT_EQ(print(r), "RDFT(4 x 6)");
  Spl ir = parse::parse_formula("IRDFT(3 x 5 x 7)");
  EXPECT_EQ(ir->rows, 105);
  EXPECT_EQ(ir->cols, 15 * 4);
  EXPECT_EQ(print(ir), "IRDFT(3 x 5 x 7)");
  Spl c = parse::parse_formula("DCT2(8 x 3)");
  EXPECT_EQ(c->rows, 24);
  EXPECT_EQ(c->cols, 24);
  // A unit dimension but the last is the identity of RDFT, IRDFT and WHT, not of the DCTs
  // (REDFT10(1) = 2): RDFT(1 x 8) is RDFT(8); DCT2(1 x 8) stays two-dimensional.
  EXPECT_TRUE(equal(parse::parse_formula("RDFT(1 x 8)"), make_real_transform(RealKind::RDFT, 8)));
  EXPECT_TRUE(equal(parse::parse_formula("WHT(1 x 1 x 4)"), make_real_transform(RealKind::WHT, 4)));
  EXPECT_EQ(print(parse::parse_formula("DCT2(1 x 8)")), "DCT2(1 x 8)");
  EXPECT_EQ(print(parse::parse_formula("RDFT(8 x 1)")), "RDFT(8 x 1)");
  EXPECT_FALSE(equal(parse::parse_formula("RDFT(4 x 8)"), parse::parse_formula("RDFT(8 x 4)")));
}

TEST(RealNd, DenseMeaningMatchesRowColumnEvaluation) {
  const std::vector<std::vector<int64_t>> shapes = {{2, 3}, {3, 2}, {4, 5}, {5, 4}, {3, 2, 4}, {2, 3, 3}, {4, 1}, {1, 3, 2}};
  for (const RealKind kind : test::all_real_kinds())
    for (const std::vector<int64_t> &dims : shapes) {
      bool pow2 = true;
      for (int64_t d : dims) pow2 = pow2 && (d & (d - 1)) == 0;
      if (kind == RealKind::WHT && !pow2) continue;
      Spl f = make_real_transform_nd(kind, dims);
      EXPECT_LT(max_abs_difference(to_dense(f), apply_dense(f)), kTol) << print(f);
    }
}

// IRDFT(m x n) RDFT(m x n) = mn Re: unnormalised, as FFTW.
TEST(RealNd, InverseUpToPoints) {
  for (const std::vector<int64_t> &dims : std::vector<std::vector<int64_t>>{{2, 3}, {3, 4}, {4, 4}, {2, 3, 5}}) {
    Spl r = make_real_transform_nd(RealKind::RDFT, dims), ir = make_real_transform_nd(RealKind::IRDFT, dims);
    const double n = double(r->cols);
    Matrix m = to_dense(compose(ir, r));
    Matrix want = to_dense(make_tensor({make_identity(r->cols), make_wide_dense(1, 1, {0.5 * n}, {0.5 * n})}));
    EXPECT_LT(max_abs_difference(m, want), kTol) << print(r);
  }
}

// Expanded by the rules of rules/real_nd.rules: the result has the spec's matrix.
TEST(RealNd, ExpansionKeepsTheMatrix) {
  for (const char *text : {"RDFT(4 x 6)", "IRDFT(6 x 5)", "RDFT(2 x 3 x 4)", "IRDFT(3 x 2 x 5)", "DCT2(4 x 3)",
                           "DST3(2 x 3 x 2)", "WHT(8 x 4 x 2)", "DCT4(6 x 4)"}) {
    Spl spec = parse::parse_formula(text);
    expand::Expansion r = expand::expand(spec);
    ASSERT_FALSE(r.trees.empty());
    const std::string &rule = r.trees.front()->rule;
    EXPECT_TRUE(rule.ends_with("_2d") || rule.ends_with("_3d")) << text << ": " << rule;
    EXPECT_LT(max_abs_difference(to_dense(r.formula), to_dense(spec)), kTol) << text << " -> " << print(r.formula);
  }
}

TEST(RealNd, KernelSignatureAndHeader) {
  driver::GenOptions options;
  std::string source = driver::run_pipeline("RDFT(8 x 6)", options).source;
  EXPECT_NE(source.find("y: 32 interleaved complex, x: 48 reals"), std::string::npos);
  EXPECT_NE(source.find("void splgen_rdft8x6(double *__restrict y, const double *__restrict x)"), std::string::npos);
  std::string inverse = driver::run_pipeline("IRDFT(4 x 4 x 4)", options).source;
  EXPECT_NE(inverse.find("splgen_irdft4x4x4("), std::string::npos);
  EXPECT_EQ(source, driver::run_pipeline("RDFT(8 x 6)", options).source);  // deterministic
}

TEST(RealNd, ErrorsNameThePosition) {
  EXPECT_EQ(error_of("RDFT(4 x 0)"), "1:1: RDFT(n): n must be a positive size, got 0");
  EXPECT_EQ(error_of("I(2) (x) WHT(4 x 6)"), "1:10: WHT(n): n must be a power of two, got 6");
  EXPECT_EQ(error_of("DCT2(2 x 2 x 2 x 2)"), "1:1: DCT2(n1 x n2 ...): at most 3 dimensions, got 4");
}

}  // namespace
}  // namespace splgen
