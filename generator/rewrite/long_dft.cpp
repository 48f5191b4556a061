#include "generator/rewrite/long_dft.h"

#include <cstddef>

namespace splgen::rewrite {

namespace {

// Up to this size the O(N^2) sum is as fast as any split, and a radix up to kMaxRadix costs
// O(radix N) per level: both keep the mixed-radix path within a small factor of N log N.
constexpr int64_t kDirectMax = 16;
constexpr int64_t kMaxRadix = 64;

int64_t mod(int64_t x, int64_t m) {
  int64_t r = x % m;
  return r < 0 ? r + m : r;
}

int64_t mulmod(int64_t a, int64_t b, int64_t m) { return int64_t((__int128)mod(a, m) * mod(b, m) % m); }

bool power_of_two(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// a b without the NaN and infinity recovery of std::complex's operator* (C99 Annex G,
// __mulxc3): the inputs are finite, and that call took a third of the FFT's time.
inline lcplx mul(const lcplx &a, const lcplx &b) {
  return lcplx(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// The smallest prime factor of n up to kMaxRadix, else 0.
int64_t small_factor(int64_t n) {
  for (int64_t d = 2; d <= kMaxRadix && d < n; ++d)
    if (n % d == 0) return d;
  return 0;
}

// w_M^j for j < M/2 (M a power of two): the twiddles of every stage of radix2(), as
// w_len^j = w_M^(j M/len), bit for bit the same values as long_root(len, j).
std::vector<lcplx> half_roots(int64_t M) {
  std::vector<lcplx> w(static_cast<std::size_t>(M / 2));
  for (int64_t j = 0; j < M / 2; ++j) w[std::size_t(j)] = long_root(M, j);
  return w;
}

// In place, iterative radix 2 (N a power of two, roots = half_roots(N)).
void radix2(std::vector<lcplx> &a, const std::vector<lcplx> &roots) {
  const int64_t N = int64_t(a.size());
  for (int64_t i = 1, j = 0; i < N; ++i) {  // bit reversal
    int64_t bit = N >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[std::size_t(i)], a[std::size_t(j)]);
  }
  for (int64_t len = 2; len <= N; len *= 2) {
    const int64_t stride = N / len;
    for (int64_t i = 0; i < N; i += len)
      for (int64_t j = 0; j < len / 2; ++j) {
        lcplx u = a[std::size_t(i + j)], v = mul(a[std::size_t(i + j + len / 2)], roots[std::size_t(j * stride)]);
        a[std::size_t(i + j)] = u + v;
        a[std::size_t(i + j + len / 2)] = u - v;
      }
  }
}

// Bluestein: w_N^(rj) = c_r c_j conj(c_(r-j)), c_m = w_2N^(m^2), so y = c . (conj(c) * (c . x)),
// a cyclic convolution of length M >= 2N-1 (M a power of two) done by radix-2 FFTs.
std::vector<lcplx> bluestein(const std::vector<lcplx> &x) {
  const int64_t N = int64_t(x.size());
  int64_t M = 1;
  while (M < 2 * N - 1) M *= 2;
  std::vector<lcplx> c(static_cast<std::size_t>(N)), a(static_cast<std::size_t>(M)), b(static_cast<std::size_t>(M));
  for (int64_t j = 0; j < N; ++j) {
    c[std::size_t(j)] = long_root(2 * N, mulmod(j, j, 2 * N));
    a[std::size_t(j)] = mul(x[std::size_t(j)], c[std::size_t(j)]);
    b[std::size_t(j)] = std::conj(c[std::size_t(j)]);
    if (j > 0) b[std::size_t(M - j)] = b[std::size_t(j)];
  }
  const std::vector<lcplx> roots = half_roots(M);
  radix2(a, roots);
  radix2(b, roots);
  for (int64_t i = 0; i < M; ++i) a[std::size_t(i)] = std::conj(mul(a[std::size_t(i)], b[std::size_t(i)]));
  radix2(a, roots);  // conj(DFT(conj(v))) = M * inverse DFT(v)
  std::vector<lcplx> y(static_cast<std::size_t>(N));
  for (int64_t r = 0; r < N; ++r) y[std::size_t(r)] = mul(c[std::size_t(r)], std::conj(a[std::size_t(r)])) / (long double)M;
  return y;
}

// Cooley-Tukey, decimation in time, N = r m: Y_s = DFT(m) of x[l r + s], then
// y[k + m q] = sum_s w_r^(s q) (w_N^(s k) Y_s[k]).
std::vector<lcplx> mixed_radix(const std::vector<lcplx> &x, int64_t r) {
  const int64_t N = int64_t(x.size()), m = N / r;
  std::vector<std::vector<lcplx>> Y(static_cast<std::size_t>(r));
  std::vector<lcplx> sub(static_cast<std::size_t>(m));
  for (int64_t s = 0; s < r; ++s) {
    for (int64_t l = 0; l < m; ++l) sub[std::size_t(l)] = x[std::size_t(l * r + s)];
    Y[std::size_t(s)] = long_dft(sub);
  }
  std::vector<lcplx> wr(static_cast<std::size_t>(r)), z(static_cast<std::size_t>(r)), y(static_cast<std::size_t>(N));
  for (int64_t t = 0; t < r; ++t) wr[std::size_t(t)] = long_root(r, t);
  for (int64_t k = 0; k < m; ++k) {
    for (int64_t s = 0; s < r; ++s) z[std::size_t(s)] = mul(long_root(N, s * k), Y[std::size_t(s)][std::size_t(k)]);
    for (int64_t q = 0; q < r; ++q) {
      lcplx sum = 0;
      for (int64_t s = 0; s < r; ++s) sum += mul(z[std::size_t(s)], wr[std::size_t(s * q % r)]);
      y[std::size_t(k + m * q)] = sum;
    }
  }
  return y;
}

}  // namespace

lcplx long_root(int64_t n, int64_t e) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  long double t = two_pi * (long double)mod(e, n) / (long double)n;
  return lcplx(std::cos(t), -std::sin(t));
}

std::vector<lcplx> long_dft_direct(const std::vector<lcplx> &x) {
  const int64_t N = int64_t(x.size());
  std::vector<lcplx> y(static_cast<std::size_t>(N));
  for (int64_t r = 0; r < N; ++r) {
    lcplx s = 0;
    for (int64_t j = 0; j < N; ++j) s += mul(x[std::size_t(j)], long_root(N, mulmod(r, j, N)));
    y[std::size_t(r)] = s;
  }
  return y;
}

std::vector<lcplx> long_dft(const std::vector<lcplx> &x) {
  const int64_t N = int64_t(x.size());
  if (power_of_two(N)) {
    std::vector<lcplx> a(x);
    radix2(a, half_roots(N));
    return a;
  }
  if (N <= kDirectMax) return long_dft_direct(x);
  if (int64_t r = small_factor(N)) return mixed_radix(x, r);
  return bluestein(x);
}

}  // namespace splgen::rewrite
