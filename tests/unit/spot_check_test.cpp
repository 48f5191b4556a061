// kernel::spot_check (run-file's check of its output): exact transforms pass at every bin it
// picks, 1D and 2D, forward and inverse, double and float; one wrong bin fails.
#include "generator/kernel/spot_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

namespace splgen {
namespace {

using lcplx = std::complex<long double>;

// y = DFT(dims, sign) x, row-major, by the definition in long double (small sizes only).
template <class T>
std::vector<std::complex<T>> dft(const std::vector<std::complex<T>> &x, const std::vector<int64_t> &dims, int sign) {
  const int64_t N = int64_t(x.size());
  std::vector<std::complex<T>> y(x.size());
  const long double two_pi = 6.283185307179586476925286766559L;
  for (int64_t k = 0; k < N; ++k) {
    lcplx s = 0;
    for (int64_t j = 0; j < N; ++j) {
      long double phase = 0;
      for (int64_t d = int64_t(dims.size()) - 1, kk = k, jj = j; d >= 0; --d) {
        phase += (long double)((kk % dims[d]) * (jj % dims[d])) / (long double)dims[d];
        kk /= dims[d], jj /= dims[d];
      }
      s += lcplx(x[j].real(), x[j].imag()) * std::polar(1.0L, sign * two_pi * phase);
    }
    y[k] = std::complex<T>(T(s.real()), T(s.imag()));
  }
  return y;
}

template <class T>
kernel::SpotCheck check(std::vector<std::complex<T>> x, std::vector<std::complex<T>> y, const std::vector<int64_t> &dims,
                        int sign, int bins = 4) {
  runtime::memory_store xs(x.data(), x.size() * sizeof(x[0])), ys(y.data(), y.size() * sizeof(y[0]));
  return kernel::spot_check(xs, ys, dims, sign, sizeof(T) == 4 ? Precision::Float : Precision::Double, bins);
}

template <class T>
std::vector<std::complex<T>> random_input(std::size_t n) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<T>> x(n);
  for (auto &v : x) v = {T(u(rng)), T(u(rng))};
  return x;
}

TEST(SpotCheck, ExactTransformsPassAndAWrongBinFails) {
  for (const std::vector<int64_t> &dims : std::vector<std::vector<int64_t>>{{1}, {2}, {97}, {256}, {12, 10}, {4, 6, 5}})
    for (int sign : {-1, 1}) {
      int64_t N = 1;
      for (int64_t d : dims) N *= d;
      const auto x = random_input<double>(std::size_t(N));
      const auto y = dft(x, dims, sign);
      kernel::SpotCheck ok = check(x, y, dims, sign, 6);
      EXPECT_TRUE(ok.ok) << N << " " << sign << ": " << ok.max_error;
      EXPECT_LT(ok.max_error, 1e-15) << N;
      EXPECT_EQ(ok.bins.size(), std::size_t(std::min<int64_t>(N, 6)));
      for (int64_t b : ok.bins) {  // each checked bin, off by a little, fails the check
        auto bad = y;
        bad[std::size_t(b)] += std::complex<double>(1e-9, 0);
        EXPECT_FALSE(check(x, bad, dims, sign, 6).ok) << N << " bin " << b;
      }
      if (N > 2) EXPECT_FALSE(check(x, dft(x, dims, -sign), dims, sign, 6).ok) << N << ": the other direction";
    }
  const auto xf = random_input<float>(1000);
  EXPECT_TRUE(check(xf, dft(xf, {1000}, -1), {1000}, -1).ok);
  EXPECT_FALSE(check(xf, dft(xf, {10, 100}, -1), {1000}, -1).ok);  // a 2D transform is not the 1D one
}

TEST(SpotCheck, BinsAreTheSameEveryRun) {
  const auto x = random_input<double>(4096);
  const auto y = dft(x, {64, 64}, -1);
  EXPECT_EQ(check(x, y, {64, 64}, -1).bins, check(x, y, {64, 64}, -1).bins);
  EXPECT_EQ(check(x, y, {64, 64}, -1).bins.front(), 0);
  EXPECT_EQ(check(x, y, {64, 64}, -1).bins.at(1), 4095);
}

}  // namespace
}  // namespace splgen
