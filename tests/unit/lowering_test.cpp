// Every stage means the same matrix: SPL, Sigma-SPL, merged Sigma-SPL and the loop IR
// (run by the interpreter), for hand-written formulas and for expanded DFTs.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <unordered_set>

#include "generator/expand/expand.h"
#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/lower/codelet.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/driver/pipeline.h"
#include "generator/parse/formula_parser.h"

namespace splgen {
namespace {

using namespace lower;  // the lowering under test

void expect_all_stages_agree(const Spl &f, const Matrix &expected, int64_t block_points = lower::LoweringKnobs::kBlockPoints) {
  SCOPED_TRACE(print(f));
  Sigma sigma = lower::lower_to_sigma(f, {}, 0, lower::Blocking{block_points});
  Sigma merged = lower::merge_loops(sigma);
  Function loops = lower::sigma_to_loops(merged, "k");
  EXPECT_LT(max_abs_difference(to_dense(f), expected), 1e-9);
  EXPECT_LT(max_abs_difference(to_dense(sigma), expected), 1e-9) << print(sigma);
  EXPECT_LT(max_abs_difference(to_dense(merged), expected), 1e-9) << print(merged);
  EXPECT_LT(max_abs_difference(to_dense(loops), expected), 1e-9) << print(merged) << to_string(loops);
}

Spl ct(int64_t m, int64_t n, int64_t k = 1) {
  return make_compose({tensor(make_dft(m, k), make_identity(n)), make_twiddle(m * n, n, k),
                       tensor(make_identity(m), make_dft(n, k)), make_stride(m * n, m)});
}

TEST(Lowering, CooleyTukeyAsMatrices) {
  for (int64_t m : {2, 3, 4, 5})
    for (int64_t n : {2, 3, 4, 6})
      for (int64_t k : {1, -1}) expect_all_stages_agree(ct(m, n, k), to_dense(make_dft(m * n, k)));
}

TEST(Lowering, SigmaIdentitiesOfDesign) {
  Spl a = make_dft(3);
  // I(n) (x) A, A (x) I(n), (I(n) (x) A) L(mn, n)
  for (int64_t n : {1, 2, 4}) {
    expect_all_stages_agree(tensor(make_identity(n), a), kron(Matrix::identity(n), to_dense(a)));
    expect_all_stages_agree(tensor(a, make_identity(n)), kron(to_dense(a), Matrix::identity(n)));
    Spl f = compose(tensor(make_identity(n), a), make_stride(3 * n, n));
    expect_all_stages_agree(f, to_dense(f));
  }
}

// A composite A (x) I(n) runs its stages with the loop over I(n) innermost (vector loops read
// adjacent elements): same matrix, and no loop over I(n) around a stage with inner loops.
TEST(Lowering, CompositeTensorIdentityLoopsInnermost) {
  for (int64_t n : {2, 3, 8}) {
    Spl dif = make_compose({make_stride(12, 4), tensor(make_identity(3), make_dft(4)), make_twiddle(12, 4),
                            tensor(make_dft(3), make_identity(4))});
    // DFT(32) as 4 x 8 with the 8 as 2 x 4: a composite inside a composite
    Spl nested = make_compose({tensor(make_dft(4), make_identity(8)), make_twiddle(32, 8),
                               tensor(make_identity(4), ct(2, 4)), make_stride(32, 4)});
    for (const Spl &a : {ct(4, 4), ct(3, 2, -1), dif, make_direct_sum({make_dft(2), ct(2, 2)}), nested}) {
      Spl f = tensor(a, make_identity(n));
      expect_all_stages_agree(f, kron(to_dense(a), Matrix::identity(n)));
    }
    Sigma merged = lower::merge_loops(lower::lower_to_sigma(tensor(ct(4, 4), make_identity(n))));
    ASSERT_EQ(merged->kind, SigmaKind::Compose) << print(merged);
    for (const Sigma &stage : merged->children) {  // Sum(i < 4, Sum(j < n, block))
      ASSERT_EQ(stage->kind, SigmaKind::Sum) << print(merged);
      EXPECT_EQ(stage->var.extent, 4) << print(merged);
      ASSERT_EQ(stage->children.front()->kind, SigmaKind::Sum) << print(merged);
      EXPECT_EQ(stage->children.front()->var.extent, n) << print(merged);
    }
  }
}

// The default plan shape of large sizes: a composite in I (x) _ inside a composite (x) I,
// the whole reading its input through a stride permutation.
TEST(Lowering, NestedCompositesUnderTensorIdentity) {
  Spl f = parse::parse_formula(
      "(((DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) ((DFT(2) (x) I(2)) * T(4,2) * (I(2) (x) DFT(2)) * L(4,2))) * L(16,4))"
      " (x) I(4)) * T(64,4) * (I(16) (x) DFT(4)) * L(64,16)");
  expect_all_stages_agree(f, to_dense(make_dft(64)));
}

// Out of cache (here: a budget of a few points, so the matrices stay small), X (x) I(n) runs
// in blocks of columns and (I(m) (x) A) L(mn, m) transposes first; nested blocks count the
// columns of the blocks around them.
TEST(Lowering, BlockedFormsOutOfCache) {
  Spl dft16 = ct(4, 4), idft16 = ct(4, 4, -1);
  Spl nested = make_compose({tensor(ct(2, 2), make_identity(4)), make_twiddle(16, 4), tensor(make_identity(4), make_dft(4)),
                             make_stride(16, 4)});
  std::vector<std::pair<Spl, Matrix>> cases = {
      {tensor(dft16, make_identity(16)), kron(to_dense(dft16), Matrix::identity(16))},
      {make_compose({tensor(make_dft(4), make_identity(16)), make_twiddle(64, 16), tensor(make_identity(4), dft16),
                     make_stride(64, 4)}),
       to_dense(make_dft(64))},
      {make_compose({tensor(idft16, make_identity(16)), make_twiddle(256, 16, -1), tensor(make_identity(16), idft16),
                     make_stride(256, 16)}),
       to_dense(make_dft(256, -1))},
      {make_compose({tensor(ct(4, 8), make_identity(4)), make_twiddle(128, 4), tensor(make_identity(32), make_dft(4)),
                     make_stride(128, 32)}),
       to_dense(make_dft(128))},
      {tensor(nested, make_identity(8)), kron(to_dense(make_dft(16)), Matrix::identity(8))},
  };
  for (int64_t budget : {16, 64})
    for (const auto &[f, expected] : cases) {
      SCOPED_TRACE("block budget " + std::to_string(budget));
      expect_all_stages_agree(f, expected, budget);
    }
  // the transposition is its own stage: a loop nest of pure data movement
  Sigma s = lower::lower_to_sigma(make_compose({tensor(make_identity(4), dft16), make_stride(64, 4)}), {}, 0, lower::Blocking{16});
  ASSERT_EQ(s->kind, SigmaKind::Compose) << print(s);
  ASSERT_EQ(s->children.size(), 2u) << print(s);
  EXPECT_EQ(print(s->children.back()).find("DFT"), std::string::npos) << print(s);
}

TEST(Lowering, BlockColumns) {
  EXPECT_EQ(lower::LoweringKnobs::block_columns(64, 32, 1, 4096), 32);  // fits whole
  EXPECT_EQ(lower::LoweringKnobs::block_columns(1024, 32, 1, 16384), 16);  // the widest block that fits
  EXPECT_EQ(lower::LoweringKnobs::block_columns(32768, 32, 1, 16384), 8);  // none fits: kMinBlockColumns
  EXPECT_EQ(lower::LoweringKnobs::block_columns(256, 32, 8, 16384), 8);  // under 8 outer columns
  EXPECT_EQ(lower::LoweringKnobs::block_columns(1024, 6, 1, 16), 6);  // fewer columns than the minimum
  EXPECT_EQ(lower::LoweringKnobs::block_columns(16, 24, 1, 16 * 12), 12);  // divisors of n only
}

TEST(Lowering, EveryNodeKind) {
  std::vector<Spl> formulas = {
      make_identity(5),
      make_stride(12, 3),
      make_twiddle(12, 4),
      make_diag({1.0, cplx(0, 2), -3.0}),
      make_perm({2, 0, 3, 1}),
      make_direct_sum({make_dft(2), make_dft(3, -1), make_identity(1)}),
      tensor(make_dft(2), make_dft(3)),
      make_tensor({make_identity(2), make_dft(3), make_identity(2)}),
      compose(make_perm({1, 2, 0}), make_dft(3)),
      compose(make_dft(4), make_perm({1, 2, 3, 0})),
      compose(make_stride(8, 2), make_stride(8, 2)),
      make_compose({make_stride(12, 4), tensor(make_identity(4), make_dft(3)), make_diag({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})}),
      make_compose({make_diag({1, 2, 3, 4, 5, 6}), tensor(make_dft(2), make_identity(3)), make_stride(6, 2)}),
      make_tagged(Tag{TagKind::Vec, {2}}, tensor(make_dft(2), make_identity(2))),
      make_dft(37),
      compose(make_dft(37, -1), make_diag(std::vector<cplx>(37, cplx(0.5, 0.5)))),
      tensor(make_identity(2), compose(make_dft(41), make_stride(41, 1))),
      make_dft_nd({3, 4}),
      make_dft_nd({2, 3, 2}, -1),
      make_dense(2, 3, {1, 2, cplx(0, 3), 4, -5, 6}),
      compose(make_dense(3, 2, {1, 2, 3, 4, 5, 6}), make_dense(2, 3, {1, 2, 3, 4, 5, 6})),
      tensor(make_identity(2), make_dense(2, 3, {1, 2, cplx(0, 3), 4, -5, 6})),
      make_tile_tensor(make_identity(2), tensor(make_identity(2), make_dft(3))),
      make_fence({tensor(make_dft(2), make_identity(3)), tensor(make_identity(2), make_dft(3))}),
      make_transpose(compose(make_stride(12, 3), tensor(make_dft(3), make_identity(4)))),
      // one nonzero entry (Bluestein's padding and truncation): zeros and one product
      make_dense(5, 1, {0, 0, cplx(2, -1), 0, 0}),
      make_dense(1, 6, {0, 0, 0, 0, 0, cplx(0, 3)}),
      make_dense(3, 4, std::vector<cplx>(12, 0.0)),
      compose(make_dense(1, 4, {1, 0, 0, 0}), tensor(make_identity(2), make_dft(2))),
      make_direct_sum({make_identity(3), make_dense(4, 1, {1, 0, 0, 0})}),
  };
  for (const Spl &f : formulas) expect_all_stages_agree(f, to_dense(f));
}

TEST(Lowering, ExpandedDfts) {
  for (int64_t n : {1, 2, 3, 7, 16, 31, 33, 48, 64, 66, 74, 96, 100, 128, 210, 256})
    for (int64_t k : {1, -1}) {
      expand::Expansion e = expand::expand(make_dft(n, k));
      expect_all_stages_agree(e.formula, to_dense(make_dft(n, k)));
    }
}

// Codelets of n = m r with gcd(m, r) = 1 use Good-Thomas: no twiddle multiplications.
TEST(Lowering, CoprimeCodeletsAreGoodThomas) {
  for (int64_t n : {6, 10, 12, 15, 20, 24, 28, 30})
    for (int64_t k : {1, -1, 5}) {
      if (gcd64(k, n) != 1) continue;
      expect_all_stages_agree(make_dft(n, k), to_dense(make_dft(n, k)));
    }
  std::vector<CExpr> x;
  for (int64_t i = 0; i < 12; ++i) x.push_back({e_load(0, idx_const(i), 0), e_load(0, idx_const(i), 1)});
  std::unordered_set<Expr, ExprHash, ExprSame> seen;  // distinct subexpressions, as the scheduler keeps them
  std::size_t multiplications = 0;
  std::function<void(const Expr &)> count = [&](const Expr &e) {
    if (!e || !seen.insert(e).second) return;
    multiplications += e->kind == ExprKind::Mul;
    count(e->a), count(e->b);
  };
  for (const CExpr &v : symbolic_dft(x, 1)) count(v.re), count(v.im);
  EXPECT_EQ(multiplications, 16u);  // 4 DFT(3) of 4 each, as FFTW's n1_12; 32 with twiddles
}

TEST(Lowering, LargeTwiddleTablesCarryTheirRecipe) {
  // T(8192, n) is one table in diagonal order whose recipe lets the backend compute it at run
  // time; check the loop nest numerically on a few outputs rather than the whole dense matrix.
  expand::Expansion e = expand::expand(make_dft(8192));
  Function f = lower::sigma_to_loops(lower::merge_loops(lower::lower_to_sigma(e.formula)), "k");
  bool recipe = false;
  for (const Buffer &b : f.buffers)
    if (b.role == BufferRole::Table && b.size == 8192) {
      EXPECT_EQ(b.recipe.N, 8192) << b.name;
      EXPECT_GT(b.recipe.n, 1) << b.name;
      recipe = true;
    }
  EXPECT_TRUE(recipe) << to_string(f);
  std::mt19937 rng(1);
  std::vector<cplx> x(8192);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto &v : x) v = {u(rng), u(rng)};
  std::vector<cplx> y = interpret(f, x);
  for (int64_t k : {0, 1, 77, 4095, 8191}) {
    std::complex<long double> s = 0;
    for (int64_t l = 0; l < 8192; ++l) {
      cplx w = root_of_unity(8192, k * l % 8192);
      s += std::complex<long double>(x[std::size_t(l)]) * std::complex<long double>(w);
    }
    EXPECT_LT(std::abs(std::complex<long double>(y[std::size_t(k)]) - s), 1e-9L) << k;
  }
}

TEST(Spl, TransposeIsTheMatrixTranspose) {
  std::vector<Spl> formulas = {
      make_stride(12, 3), make_perm({2, 0, 3, 1}), make_dense(2, 3, {1, 2, 3, 4, 5, 6}),
      compose(make_stride(12, 3), tensor(make_dft(3), make_diag({1, 2, 3, cplx(0, 1)}))),
      make_fence({make_perm({1, 2, 0}), make_dense(3, 2, {1, 2, 3, 4, 5, 6})}),
      make_tile_tensor(make_identity(2), make_stride(6, 2))};
  for (const Spl &f : formulas) {
    Matrix m = to_dense(f), t = to_dense(make_transpose(f));
    ASSERT_EQ(t.rows, m.cols);
    for (int64_t r = 0; r < m.rows; ++r)
      for (int64_t c = 0; c < m.cols; ++c) EXPECT_EQ(t.at(c, r), m.at(r, c)) << print(f);
  }
}

}  // namespace
}  // namespace splgen

namespace splgen {
namespace {

// Code generated through a user's rule file (decimation in frequency) is still the DFT.
TEST(Lowering, UserRuleFileGeneratesCorrectCode) {
  driver::GenOptions options;
  options.rule_files = {std::string(SPLGEN_TEST_DIR) + "/rules/decimation_in_frequency.rules"};
  for (int64_t n : {64, 100, 1024}) {
    driver::PipelineResult r = driver::run_pipeline("DFT(" + std::to_string(n) + ")", options);
    EXPECT_EQ(r.expansion.trees.front()->rule, "my_dif");
    std::vector<cplx> x(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[std::size_t(i)] = cplx(std::sin(0.3 * double(i)), std::cos(1.7 * double(i)));
    std::vector<cplx> y = interpret(r.program, x);
    for (int64_t k : {int64_t(0), int64_t(1), n / 2 + 1, n - 1}) {
      cplx s = 0;
      for (int64_t l = 0; l < n; ++l) s += x[std::size_t(l)] * root_of_unity(n, k * l % n);
      EXPECT_LT(std::abs(y[std::size_t(k)] - s), 1e-9) << n << " " << k;
    }
  }
}

}  // namespace
}  // namespace splgen
