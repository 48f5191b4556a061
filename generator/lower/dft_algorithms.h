// The DFT algorithms of codelets, genfft style, over any algebra of complex values: the loop
// IR's scalar expressions (codelet.cpp) or one 128-bit vector per complex value
// (backends/cpp/complex_codelet.cpp). Ops provides
//   Value add(Value, Value), sub(Value, Value), scale(Value, double c)   (c x)
//   Value add_i(Value a, Value b), sub_i(Value a, Value b)               (a + i b, a - i b)
//   Value mul_root(Value x, int64_t n, int64_t e)                        (x w_n^e)
#pragma once
#include <cstdint>
#include <vector>

#include "generator/ir/dense.h"
#include "generator/ir/spl.h"

namespace splgen::lower::dft_algorithms {

// Prime p (or any p) by the symmetric direct formula: with s_l = x_l + x_{p-l},
// d_l = x_l - x_{p-l} and w^(j l) = c + i sigma (w = w_p^k),
//   y_j = x_0 + sum_l c_jl s_l + i sum_l sigma_jl d_l,  y_{p-j} = ... - i ...
template <class Ops>
std::vector<typename Ops::Value> direct(const std::vector<typename Ops::Value> &x, int64_t k, Ops &ops) {
  using V = typename Ops::Value;
  int64_t p = int64_t(x.size());
  if (p == 1) return x;
  if (p == 2) return {ops.add(x[0], x[1]), ops.sub(x[0], x[1])};
  int64_t half = (p - 1) / 2;
  std::vector<V> s, d;
  V y0 = x[0];
  for (int64_t l = 1; l <= half; ++l) {
    s.push_back(ops.add(x[std::size_t(l)], x[std::size_t(p - l)]));
    d.push_back(ops.sub(x[std::size_t(l)], x[std::size_t(p - l)]));
    y0 = ops.add(y0, s.back());
  }
  std::vector<V> y(static_cast<std::size_t>(p));
  y[0] = y0;
  for (int64_t j = 1; j <= half; ++j) {
    V a = x[0], b{};
    for (int64_t l = 1; l <= half; ++l) {
      cplx w = root_of_unity(p, mod64(j * l, p) * k);
      a = ops.add(a, ops.scale(s[std::size_t(l - 1)], w.real()));
      V t = ops.scale(d[std::size_t(l - 1)], w.imag());
      b = l == 1 ? t : ops.add(b, t);
    }
    y[std::size_t(j)] = ops.add_i(a, b);
    y[std::size_t(p - j)] = ops.sub_i(a, b);
  }
  return y;
}

template <class Ops>
std::vector<typename Ops::Value> dft(const std::vector<typename Ops::Value> &x, int64_t k, Ops &ops);

// Good-Thomas (prime factor) for n = m r, gcd(m, r) = 1: no twiddle factors. Input index
// (a r + b m) mod n, output index the CRT of (c mod m, d mod r):
//   y[(c r (r^-1 mod m) + d m (m^-1 mod r)) mod n] = sum_a sum_b x[(a r + b m) mod n] w_m^(a c) w_r^(b d)
template <class Ops>
std::vector<typename Ops::Value> good_thomas(const std::vector<typename Ops::Value> &x, int64_t m, int64_t k, Ops &ops) {
  using V = typename Ops::Value;
  int64_t n = int64_t(x.size()), r = n / m;
  auto inverse_mod = [](int64_t a, int64_t q) {
    for (int64_t i = 1; i < q; ++i)
      if (a * i % q == 1) return i;
    return int64_t(1);  // q == 1
  };
  int64_t out_m = r * inverse_mod(r % m, m) % n, out_r = m * inverse_mod(m % r, r) % n;
  std::vector<std::vector<V>> u(static_cast<std::size_t>(r));  // u[b][c]
  for (int64_t b = 0; b < r; ++b) {
    std::vector<V> t(static_cast<std::size_t>(m));
    for (int64_t a = 0; a < m; ++a) t[std::size_t(a)] = x[std::size_t((a * r + b * m) % n)];
    u[std::size_t(b)] = dft(t, k, ops);
  }
  std::vector<V> y(static_cast<std::size_t>(n));
  for (int64_t c = 0; c < m; ++c) {
    std::vector<V> t(static_cast<std::size_t>(r));
    for (int64_t b = 0; b < r; ++b) t[std::size_t(b)] = u[std::size_t(b)][std::size_t(c)];
    std::vector<V> v = dft(t, k, ops);
    for (int64_t d = 0; d < r; ++d) y[std::size_t((c * out_m + d * out_r) % n)] = v[std::size_t(d)];
  }
  return y;
}

// Cooley-Tukey: DFT(n) = (DFT(m) (x) I(r)) T(n, r) (I(m) (x) DFT(r)) L(n, m).
template <class Ops>
std::vector<typename Ops::Value> cooley_tukey(const std::vector<typename Ops::Value> &x, int64_t m, int64_t k, Ops &ops) {
  using V = typename Ops::Value;
  int64_t n = int64_t(x.size()), r = n / m;
  std::vector<V> u(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::vector<V> t(static_cast<std::size_t>(r));
    for (int64_t j = 0; j < r; ++j) t[std::size_t(j)] = x[std::size_t(j * m + i)];
    std::vector<V> v = dft(t, k, ops);
    for (int64_t j = 0; j < r; ++j) u[std::size_t(i * r + j)] = ops.mul_root(v[std::size_t(j)], n, mod64(i * j * k, n));
  }
  std::vector<V> y(static_cast<std::size_t>(n));
  for (int64_t j = 0; j < r; ++j) {
    std::vector<V> t(static_cast<std::size_t>(m));
    for (int64_t i = 0; i < m; ++i) t[std::size_t(i)] = u[std::size_t(i * r + j)];
    std::vector<V> v = dft(t, k, ops);
    for (int64_t i = 0; i < m; ++i) y[std::size_t(i * r + j)] = v[std::size_t(i)];
  }
  return y;
}

// DFT(n, k): Good-Thomas where n has a coprime split, else Cooley-Tukey with the most
// balanced split, primes by the direct formula.
template <class Ops>
std::vector<typename Ops::Value> dft(const std::vector<typename Ops::Value> &x, int64_t k, Ops &ops) {
  int64_t n = int64_t(x.size());
  if (int64_t g = balanced_split(n, true); g > 1) return good_thomas(x, g, k, ops);
  if (int64_t m = balanced_split(n, false); m > 1) return cooley_tukey(x, m, k, ops);
  return direct(x, k, ops);
}

}  // namespace splgen::lower::dft_algorithms
