// DCT-IV (FFTW's REDFT11) of n = 2m reals by one complex DFT of m points with a pre- and a
// post-twiddle (Wang, "Fast algorithms for the discrete W transform and for the discrete
// Fourier transform", IEEE TASSP 1984; Britanak, Yip & Rao, "Discrete Cosine and Sine
// Transforms", 2007, sec. 4.4; the algorithm of FFTW's reodft11e-r2hc-odd's even case):
//   u_j = (x_2j + i x_n-1-2j) w_8n^(4j+1),  U = DFT(m) u,  V_k = w_2n^k U_k,
//   Y_2k = 2 Re V_k,  Y_n-1-2k = -2 Im V_k            (j, k = 0..m-1)
// Odd n by one complex DFT of n points between permutations (the CRT split of the 8n-th
// root, as Good-Thomas splits a DFT; the idea of FFTW's reodft11e-r2hc-odd): with a = 2j+1,
// b = 2k+1, n n' = 1 mod 8 and 8 e = 1 mod n,  ab/8n = ab n'/8 + ab e/n  (mod 1), and on
// odd t the signs of cos(2 pi t/8) and sin(2 pi t/8) are characters cc(t), cs(t) of (Z/8)^*.
// So with w_(a mod n) = (cc(a) + i cs(a)) x_j and W = DFT(n) w, every output is one real part:
//   Y_k = sqrt2 cc(b n') Re W_(b e mod n)    where cc(b n') = -cs(b n'),
//   Y_k = sqrt2 cc(b n') Re W_(-b e mod n)   where cc(b n') = cs(b n').
#include "generator/rewrite/trig_functions.h"

#include <fmt/format.h>

#include <cmath>

#include "generator/ir/dense.h"

namespace splgen::rewrite {

namespace {

const cplx I1(0.0, 1.0);

void check_half(const char *fn, int64_t m) {
  if (m < 1) throw FormulaError(fmt::format("@{}: the size must be positive, got {}", fn, m));
  if (m > (int64_t(1) << 25)) throw FormulaError(fmt::format("@{}: {} is too large", fn, m));
}

// Perm(p): p[2j] = 2j, p[2j+1] = n-1-2j, the pairs (x_2j, x_n-1-2j) side by side.
Spl pair_ends(int64_t m) {
  std::vector<int64_t> p(static_cast<std::size_t>(2 * m));
  for (int64_t j = 0; j < m; ++j) p[std::size_t(2 * j)] = 2 * j, p[std::size_t(2 * j + 1)] = 2 * m - 1 - 2 * j;
  return make_perm(std::move(p));
}

// x (2m reals) -> u (m): u_j = (Re x_2j + i Re x_n-1-2j) w_8n^(4j+1).
Spl re1() { return make_wide_dense(1, 1, {0.5}, {0.5}); }  // Re(z)

Spl dct4_pre(int64_t m) {
  check_half("dct4_pre", m);
  std::vector<cplx> d(static_cast<std::size_t>(m));
  for (int64_t j = 0; j < m; ++j) d[std::size_t(j)] = root_of_unity(16 * m, 4 * j + 1);
  Spl pack = make_tensor({make_identity(m), make_wide_dense(1, 2, {0.5, 0.5 * I1}, {0.5, 0.5 * I1})});
  return make_compose({make_diag(std::move(d)), pack, pair_ends(m)});
}

// U (m) -> Y (2m reals): Y_2k = 2 Re(w_2n^k U_k), Y_n-1-2k = -2 Im(w_2n^k U_k).
Spl dct4_post(int64_t m) {
  check_half("dct4_post", m);
  std::vector<cplx> d(static_cast<std::size_t>(m));
  for (int64_t k = 0; k < m; ++k) d[std::size_t(k)] = root_of_unity(4 * m, k);
  Spl parts = make_tensor({make_identity(m), make_wide_dense(2, 1, {1.0, I1}, {1.0, -I1})});  // [2 Re v; -2 Im v]
  return make_compose({make_transpose(pair_ends(m)), parts, make_diag(std::move(d))});
}

// The signs of cos(2 pi t/8) and sin(2 pi t/8), t odd: multiplicative in t.
int cos_sign8(int64_t t) { return (t % 8 == 1 || t % 8 == 7) ? 1 : -1; }
int sin_sign8(int64_t t) { return t % 8 < 4 ? 1 : -1; }

void check_odd(const char *fn, int64_t n) {
  check_half(fn, n);
  if (n % 2 == 0) throw FormulaError(fmt::format("@{}: the size must be odd, got {}", fn, n));
}

int64_t inverse_mod(int64_t a, int64_t m) {  // a^-1 mod m, gcd(a, m) = 1, m small enough
  for (int64_t x = 1; x < m; ++x)
    if (a % m * x % m == 1) return x;
  return 0;  // m = 1
}

// x (n reals) -> w (n): w_(2j+1 mod n) = (cc(2j+1) + i cs(2j+1)) Re x_j.
Spl dct4_odd_pre(int64_t n) {
  check_odd("dct4_odd_pre", n);
  std::vector<cplx> d(static_cast<std::size_t>(n));
  std::vector<int64_t> from(static_cast<std::size_t>(n));  // w_p reads x_from[p]
  for (int64_t j = 0; j < n; ++j) {
    d[std::size_t(j)] = cplx(cos_sign8(2 * j + 1), sin_sign8(2 * j + 1));
    from[std::size_t((2 * j + 1) % n)] = j;
  }
  return make_compose({make_perm(std::move(from)), make_diag(std::move(d)), make_tensor({make_identity(n), re1()})});
}

// W (n) -> Y (n reals): Y_k = sqrt2 cc(b n') Re W_r(k), r(k) = +-b e mod n (see the top).
Spl dct4_odd_post(int64_t n) {
  check_odd("dct4_odd_post", n);
  const int64_t n_inv = inverse_mod(n % 8, 8), e = inverse_mod(8 % n, n);
  std::vector<cplx> scale(static_cast<std::size_t>(n));
  std::vector<int64_t> from(static_cast<std::size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t b = 2 * k + 1, q = b % n * e % n;
    const int c = cos_sign8(b * n_inv), s = sin_sign8(b * n_inv);
    scale[std::size_t(k)] = std::sqrt(2.0) * c;
    from[std::size_t(k)] = c == s ? (n - q) % n : q;
  }
  return make_compose({make_diag(std::move(scale)), make_tensor({make_identity(n), re1()}), make_perm(std::move(from))});
}

using Args = const std::vector<int64_t> &;

}  // namespace

std::vector<RuleFunction> trig_rule_functions() {
  return {
      {"dct4_pre", 1, "u_j = (x_2j + i x_n-1-2j) w_8n^(4j+1), n = 2m (m x 2m): DCT4(2m) = dct4_post(m) DFT(m) dct4_pre(m)",
       [](Args a) { return dct4_pre(a[0]); }},
      {"dct4_post", 1, "Y_2k = 2 Re(w_2n^k U_k), Y_n-1-2k = -2 Im(w_2n^k U_k), n = 2m (2m x m)",
       [](Args a) { return dct4_post(a[0]); }},
      {"dct4_odd_pre", 1, "w_(2j+1 mod n) = (cc(2j+1) + i cs(2j+1)) x_j, n odd (n x n): DCT4(n) = dct4_odd_post(n) DFT(n) dct4_odd_pre(n)",
       [](Args a) { return dct4_odd_pre(a[0]); }},
      {"dct4_odd_post", 1, "Y_k = sqrt2 cc(b n') Re W_(+-b e mod n), b = 2k+1, n n' = 1 mod 8, 8 e = 1 mod n (n x n)",
       [](Args a) { return dct4_odd_post(a[0]); }},
  };
}

}  // namespace splgen::rewrite
