// The long-double DFT behind Rader's and Bluestein's tables (generator/rewrite/long_dft.h):
// O(N log N) for every N (issue 18, item 6: the O(N^2) sum made DFT(10007) take 20-50 s to
// generate) and as accurate as the O(N^2) sum with exactly reduced twiddles.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "generator/ir/dense.h"
#include "generator/rewrite/functions.h"
#include "generator/rewrite/long_dft.h"

namespace splgen::rewrite {
namespace {

std::vector<lcplx> random_vector(int64_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<long double> u(-1, 1);
  std::vector<lcplx> x(static_cast<std::size_t>(n));
  for (lcplx &v : x) v = lcplx(u(rng), u(rng));
  return x;
}

// Max abs difference relative to the largest output.
long double difference(const std::vector<lcplx> &a, const std::vector<lcplx> &b) {
  long double err = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) err = std::max(err, std::abs(a[i] - b[i])), scale = std::max(scale, std::abs(b[i]));
  return err / scale;
}

// Every path: direct (<= 16), radix 2, mixed radix (small factors, nested), Bluestein (primes
// above the largest radix, and products of them), against the O(N^2) definition.
TEST(LongDft, MatchesTheDirectSum) {
  for (int64_t n : {1, 2, 3, 7, 12, 16, 17, 30, 64, 97, 100, 127, 210, 256, 331, 360, 509, 1009}) {
    std::vector<lcplx> x = random_vector(n, unsigned(n));
    // long double eps is 1.1e-19; the sums grow the error by about log n.
    EXPECT_LT(difference(long_dft(x), long_dft_direct(x)), 1e-17L) << "n=" << n;
  }
}

// Larger sizes, spot-checked at 40 outputs each: 67 * 71 (Bluestein over a composite whose
// factors are all above the largest radix), 10007 (prime), 2 * 3 * 1667.
TEST(LongDft, SpotChecksOfLargerSizes) {
  for (int64_t n : {4757, 10007, 10002}) {
    std::vector<lcplx> x = random_vector(n, unsigned(n)), y = long_dft(x);
    long double err = 0, scale = 0;
    for (int64_t r = 0; r < n; r += n / 40) {
      lcplx s = 0;
      for (int64_t j = 0; j < n; ++j) s += x[std::size_t(j)] * long_root(n, int64_t((__int128)r * j % n));
      err = std::max(err, std::abs(y[std::size_t(r)] - s)), scale = std::max(scale, std::abs(s));
    }
    EXPECT_LT(err / scale, 1e-17L) << "n=" << n;
  }
}

// Rader's diagonal for moderate primes (p-1 through mixed radix and Bluestein) against the
// table computed by the O(p^2) sum: the same doubles up to the last bit.
TEST(LongDft, RaderTableMatchesTheQuadraticTable) {
  const RuleFunction *diag = find_rule_function("rader_diag");
  ASSERT_NE(diag, nullptr);
  for (int64_t p : {211, 1009, 2029}) {  // 210 = 2*3*5*7, 1008 = 16*63, 2028 = 4*3*13^2
    const int64_t g = p == 211 ? 2 : p == 1009 ? 11 : 2;  // the least primitive roots
    std::vector<lcplx> c(static_cast<std::size_t>(p - 1));
    int64_t v = 1;
    for (int64_t j = 0; j < p - 1; ++j) c[std::size_t(j)] = long_root(p, v), v = v * g % p;
    std::vector<lcplx> expected = long_dft_direct(c);
    Spl d = diag->make({p, 1});
    ASSERT_EQ(d->kind, SplKind::DirectSum);
    const std::vector<cplx> &entries = d->children[1]->diag;
    ASSERT_EQ(entries.size(), std::size_t(p - 2));
    double worst = 0;
    for (int64_t j = 1; j < p - 1; ++j) {
      std::complex<double> e(double(expected[std::size_t(j)].real() / (p - 1)), double(expected[std::size_t(j)].imag() / (p - 1)));
      worst = std::max(worst, std::abs(entries[std::size_t(j - 1)] - e) / std::abs(e));
    }
    EXPECT_LT(worst, 2.3e-16) << "p=" << p;  // one ulp of double
  }
}

// Large tables are cached per (p, k mod p): a second call gives the same table, another root
// its own (for k = -1 the conjugate, index reversed: d_-1[j] = conj(d_1[-j mod (p-1)])).
TEST(LongDft, RaderTableCacheKeepsRootsApart) {
  const RuleFunction *diag = find_rule_function("rader_diag");
  ASSERT_NE(diag, nullptr);
  const int64_t p = 1009, N = p - 1;
  Spl forward = diag->make({p, 1}), inverse = diag->make({p, -1});
  EXPECT_EQ(diag->make({p, 1}), forward);
  EXPECT_EQ(diag->make({p, 1 + p}), forward);
  const std::vector<cplx> &f = forward->children[1]->diag, &b = inverse->children[1]->diag;
  for (int64_t j = 1; j < N; ++j)
    EXPECT_LT(std::abs(b[std::size_t(j - 1)] - std::conj(f[std::size_t(N - j - 1)])), 1e-16) << j;
}

// The Rader table of a prime whose p-1 is not a power of two and has a large prime factor
// (10007 - 1 = 2 * 5003): was the O(p^2) sum, 20-50 s; now well under a second.
TEST(LongDft, RaderTableOfALargePrimeIsFast) {
  const RuleFunction *diag = find_rule_function("rader_diag");
  ASSERT_NE(diag, nullptr);
  auto start = std::chrono::steady_clock::now();
  Spl d = diag->make({10007, 1});
  // above 4096 entries the table is lazy (generator/ir/diag_recipe.h): ask for its values
  EXPECT_EQ(diag_values(*d->children[1]).size(), std::size_t(10007 - 2));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(d->rows, 10007 - 1 + 1);
  EXPECT_LT(seconds, 5.0);
}

}  // namespace
}  // namespace splgen::rewrite
