#include "generator/kernel/spot_check.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>

#include "generator/kernel/selftest.h"

namespace splgen::kernel {

namespace {

using lcplx = std::complex<long double>;

// w_N^e = exp(sign 2 pi i e / N) for any 0 <= e < N, as the product of two tables of about
// sqrt(N) entries each (exact cosl/sinl entries: the product is within a few long double eps).
class Roots {
 public:
  Roots(int64_t N, int sign) : block_(int64_t(std::ceil(std::sqrt(double(N))))) {
    const long double two_pi = 6.283185307179586476925286766559L;
    auto root = [&](int64_t e) {
      long double t = two_pi * (long double)(e) / (long double)(N);
      return lcplx(std::cos(t), sign * std::sin(t));
    };
    for (int64_t e = 0; e < block_; ++e) low_.push_back(root(e));
    for (int64_t e = 0; e * block_ < N; ++e) high_.push_back(root(e * block_));
  }
  lcplx operator()(int64_t e) const { return low_[std::size_t(e % block_)] * high_[std::size_t(e / block_)]; }

 private:
  int64_t block_;
  std::vector<lcplx> low_, high_;
};

// The bins to check: 0, N-1 and count-2 others from a fixed linear congruential sequence.
std::vector<int64_t> pick_bins(int64_t N, int count) {
  std::vector<int64_t> bins = {0};
  if (N > 1) bins.push_back(N - 1);
  uint64_t h = 0x9E3779B97F4A7C15ull;
  while (int(bins.size()) < count && int64_t(bins.size()) < N) {
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    int64_t b = int64_t((h >> 11) % uint64_t(N));
    if (std::find(bins.begin(), bins.end(), b) == bins.end()) bins.push_back(b);
  }
  return bins;
}

// Reads `count` complex values of type T from position `at` of a store.
template <class T>
std::vector<lcplx> read_as(runtime::external_store &s, int64_t at, int64_t count) {
  std::vector<std::complex<T>> raw(static_cast<std::size_t>(count));
  s.read(raw.data(), uint64_t(at) * sizeof(raw[0]), uint64_t(count) * sizeof(raw[0]));
  std::vector<lcplx> out;
  out.reserve(raw.size());
  for (const std::complex<T> &v : raw) out.emplace_back(v.real(), v.imag());
  return out;
}

std::vector<lcplx> read_values(runtime::external_store &s, int64_t at, int64_t count, Precision precision) {
  return precision == Precision::Float ? read_as<float>(s, at, count) : read_as<double>(s, at, count);
}

}  // namespace

SpotCheck spot_check(runtime::external_store &x, runtime::external_store &y, const std::vector<int64_t> &dims,
                     int sign, Precision precision, int count) {
  const int64_t N = std::accumulate(dims.begin(), dims.end(), int64_t(1), std::multiplies<>());
  SpotCheck r;
  r.bins = pick_bins(N, count);
  r.tolerance = default_tolerance(N, precision);
  const Roots roots(N, sign);
  // Bin b's exponent step per dimension: w_N^(sum_d j_d k_d N / n_d) is the row-major DFT.
  std::vector<std::vector<int64_t>> steps;
  for (int64_t b : r.bins) {
    std::vector<int64_t> s(dims.size());
    for (std::size_t d = dims.size(); d-- > 0;) {
      s[d] = (b % dims[d]) * (N / dims[d]) % N;
      b /= dims[d];
    }
    steps.push_back(s);
  }
  std::vector<lcplx> sums(r.bins.size(), 0);
  std::vector<int64_t> index(dims.size(), 0);  // the multi-index of element j
  std::vector<int64_t> exponent(r.bins.size(), 0);
  long double norm2 = 0;
  constexpr int64_t kBlock = int64_t(1) << 18;
  for (int64_t at = 0; at < N; at += kBlock) {
    const std::vector<lcplx> v = read_values(x, at, std::min(kBlock, N - at), precision);
    for (const lcplx &value : v) {
      norm2 += std::norm(value);
      for (std::size_t b = 0; b < r.bins.size(); ++b) sums[b] += value * roots(exponent[b]);
      // The next multi-index, the exponents along: a dimension that wraps has added
      // n_d s_d = k_d N = 0 (mod N), so its exponent needs no correction.
      for (std::size_t d = dims.size(); d-- > 0;) {
        for (std::size_t b = 0; b < r.bins.size(); ++b) exponent[b] = (exponent[b] + steps[b][d]) % N;
        if (++index[d] < dims[d]) break;
        index[d] = 0;
      }
    }
  }
  const long double norm = std::sqrt(norm2) > 0 ? std::sqrt(norm2) : 1;
  for (std::size_t b = 0; b < r.bins.size(); ++b) {
    const lcplx got = read_values(y, r.bins[b], 1, precision).front();
    r.max_error = std::max(r.max_error, double(std::abs(got - sums[b]) / norm));
  }
  r.ok = r.max_error <= r.tolerance;
  return r;
}

}  // namespace splgen::kernel
