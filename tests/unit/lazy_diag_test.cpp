// Rader's and Bluestein's Diags above kMaxPrintedDiag entries are lazy (generator/ir/diag_recipe.h):
// not computed when built, named by their recipe, computed when a dense matrix, apply() or
// interpret() asks (then the same values as the eager ones), and their formulas still mean the DFT.
#include <gtest/gtest.h>

#include <random>

#include "generator/ir/apply.h"
#include "generator/rewrite/diag_recipe_values.h"
#include "generator/rewrite/functions.h"
#include "generator/rewrite/long_dft.h"

namespace splgen::rewrite {
namespace {

Spl call(const std::string &name, std::vector<int64_t> args) { return find_rule_function(name)->make(args); }

TEST(LazyDiag, LargeTablesAreLazySmallOnesAreNot) {
  Spl small = call("chirp", {4096, 1}), large = call("chirp", {4097, 1});
  EXPECT_FALSE(small->lazy);
  EXPECT_EQ(small->diag.size(), 4096u);
  ASSERT_TRUE(large->lazy);
  EXPECT_TRUE(large->diag.empty());
  EXPECT_EQ(large->rows, 4097);
  EXPECT_EQ(call("chirp_fft", {4099, 10240, 1})->rows, 10240);
  Spl rader = call("rader_diag", {4099, 1});
  ASSERT_EQ(rader->kind, SplKind::DirectSum);
  EXPECT_TRUE(rader->children.back()->lazy);
  EXPECT_EQ(rader->children.back()->rows, 4097);
}

// Equal recipes, equal Diags (same hash: one table); another root or size, another Diag.
TEST(LazyDiag, NamedByTheirRecipe) {
  Spl a = call("chirp_fft", {4099, 10240, 1}), b = call("chirp_fft", {4099, 10240, 1}), c = call("chirp_fft", {4099, 10240, -1});
  EXPECT_EQ(a->hash, b->hash);
  EXPECT_TRUE(equal(a, b));
  EXPECT_NE(a->hash, c->hash);
  EXPECT_FALSE(equal(a, c));
}

// The lazy values are the eager ones (recipe_values), and entry by entry what the definitions
// say: the chirp w_2n^(k l^2), and Rader's d = DFT(p-1) c / (p-1) at a few entries.
TEST(LazyDiag, ValuesWhenAskedFor) {
  Spl chirp = call("chirp", {5003, -1});
  const std::vector<cplx> &v = diag_values(*chirp);
  ASSERT_EQ(v.size(), 5003u);
  EXPECT_EQ(v, recipe_values(chirp->recipe));
  for (int64_t l : {0, 1, 77, 5002}) {
    lcplx w = long_root(2 * 5003, -(l * l % (2 * 5003)));
    EXPECT_NEAR(std::abs(cplx(double(w.real()), double(w.imag())) - v[std::size_t(l)]), 0, 1e-15) << l;
  }
  Spl rader = call("rader_diag", {4099, 1})->children.back();
  const std::vector<cplx> &d = diag_values(*rader);
  const int64_t p = 4099, g = rader->recipe.g;
  for (int64_t r : {1, 2, 1000, 4097}) {  // d_r = sum_j w_p^(g^j) w_(p-1)^(r j) / (p-1)
    lcplx s = 0;
    int64_t pw = 1;
    for (int64_t j = 0; j < p - 1; ++j, pw = pw * g % p) s += long_root(p, pw) * long_root(p - 1, r * j % (p - 1));
    s /= (long double)(p - 1);
    EXPECT_NEAR(std::abs(cplx(double(s.real()), double(s.imag())) - d[std::size_t(r - 1)]), 0, 1e-16) << r;
  }
}

// Bluestein's formula with lazy tables, applied: the DFT.
TEST(LazyDiag, BluesteinFormulaIsTheDft) {
  const int64_t n = 4099, M = bluestein_size(n);
  Spl f = make_compose({call("chirp", {n, 1}), call("trunc", {n, M}), make_dft(M, -1), call("chirp_fft", {n, M, 1}),
                        make_dft(M), call("pad", {M, n}), call("chirp", {n, 1})});
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cplx> x(static_cast<std::size_t>(n));
  std::vector<lcplx> xl(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = {u(rng), u(rng)}, xl[i] = {x[i].real(), x[i].imag()};
  std::vector<cplx> y = apply_spl(f, x);
  std::vector<lcplx> want = long_dft(xl);
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < y.size(); ++i)
    err += std::norm(y[i] - cplx(double(want[i].real()), double(want[i].imag()))), norm += double(std::norm(want[i]));
  EXPECT_LT(std::sqrt(err / norm), 1e-14);
}

}  // namespace
}  // namespace splgen::rewrite
