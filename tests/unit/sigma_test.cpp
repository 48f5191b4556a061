// Sigma-SPL equality and hashing: structural, as for SPL (equal nodes hash equal; a different
// index function, loop extent, diagonal or kernel makes a different node).
#include <gtest/gtest.h>

#include <unordered_set>

#include "generator/ir/sigma.h"

namespace splgen {
namespace {

// Sum(i < m, S(h(i*n, 1)) * Kernel(DFT(n)) * G(h(i, m))): the loop of I(m) (x) DFT(n) after L.
Sigma loop(int64_t m, int64_t n, int var_id = 7) {
  LoopVar v{var_id, m};
  IndexFn gather = fn_h(n, m * n, Affine::var(v), m);
  IndexFn scatter = fn_h(n, m * n, Affine::var(v, n), 1);
  return sigma_sum(v, sigma_compose({sigma_scatter(scatter), sigma_kernel(make_dft(n)), sigma_gather(gather)}));
}

TEST(Sigma, EqualStructuresAreEqual) {
  Sigma x = loop(4, 8), y = loop(4, 8);
  EXPECT_NE(x.get(), y.get());
  EXPECT_TRUE(equal(x, y));
  EXPECT_EQ(x->hash, y->hash);
  EXPECT_EQ(SigmaHash{}(x), SigmaHash{}(y));
  std::unordered_set<Sigma, SigmaHash, SigmaEqual> set = {x};
  EXPECT_TRUE(set.contains(y));
}

TEST(Sigma, DifferentLoopsDiffer) {
  EXPECT_FALSE(equal(loop(4, 8), loop(8, 4)));        // extents and kernel
  EXPECT_FALSE(equal(loop(4, 8, 7), loop(4, 8, 9)));  // loop variable
  Sigma plain = loop(4, 8);
  Sigma parallel = sigma_sum(plain->var, plain->children.front(), SumMode::Parallel);
  EXPECT_FALSE(equal(plain, parallel));
}

TEST(Sigma, DifferentIndexFunctionsDiffer) {
  EXPECT_TRUE(equal(sigma_gather(fn_h(4, 16, Affine::constant(0), 4)), sigma_gather(fn_h(4, 16, Affine::constant(0), 4))));
  EXPECT_FALSE(equal(sigma_gather(fn_h(4, 16, Affine::constant(0), 4)), sigma_gather(fn_h(4, 16, Affine::constant(1), 4))));
  EXPECT_FALSE(equal(sigma_gather(fn_h(4, 16, Affine::constant(0), 4)), sigma_gather(fn_h(4, 16, Affine::constant(0), 2))));
  EXPECT_FALSE(equal(sigma_gather(fn_stride(16, 4)), sigma_scatter(fn_stride(16, 4))));
  EXPECT_FALSE(equal(sigma_gather(fn_stride(16, 4)), sigma_gather(fn_stride(16, 4), true)));
  EXPECT_FALSE(equal(sigma_gather(fn_table({1, 0, 2})), sigma_gather(fn_table({0, 2, 1}))));
  EXPECT_EQ(sigma_gather(fn_table({1, 0, 2}))->hash, sigma_gather(fn_table({1, 0, 2}))->hash);
}

TEST(Sigma, DifferentDiagonalsDiffer) {
  IndexFn all = fn_identity(16);
  EXPECT_TRUE(equal(sigma_diag(make_twiddle(16, 4), all), sigma_diag(make_twiddle(16, 4), all)));
  EXPECT_EQ(sigma_diag(make_twiddle(16, 4), all)->hash, sigma_diag(make_twiddle(16, 4), all)->hash);
  EXPECT_FALSE(equal(sigma_diag(make_twiddle(16, 4), all), sigma_diag(make_twiddle(16, 2), all)));
  IndexFn three = fn_identity(3);
  EXPECT_FALSE(equal(sigma_diag(make_diag({1.0, 2.0, 3.0}), three), sigma_diag(make_diag({1.0, 2.0, 4.0}), three)));
}

TEST(Sigma, KernelsAndSumsCompareTheirChildren) {
  EXPECT_TRUE(equal(sigma_kernel(make_dft(8)), sigma_kernel(make_dft(8))));
  EXPECT_FALSE(equal(sigma_kernel(make_dft(8)), sigma_kernel(make_dft(8, 3))));
  Sigma a = sigma_gather(fn_h(2, 4, Affine::constant(0), 1)), b = sigma_gather(fn_h(2, 4, Affine::constant(2), 1));
  EXPECT_TRUE(equal(sigma_sum_list({a, b}), sigma_sum_list({a, b})));
  EXPECT_FALSE(equal(sigma_sum_list({a, b}), sigma_sum_list({b, a})));
}

}  // namespace
}  // namespace splgen
