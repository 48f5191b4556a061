#include "generator/lower/real_radix2.h"

namespace splgen::lower {

namespace {

CExpr conj(const CExpr &v) { return {v.re, e_neg(v.im)}; }
CExpr real_part(const CExpr &v) { return {v.re, e_const(0)}; }

// X_0..X_n/2 of real x: X_k = E_k + w_n^k O_k from the half-size transforms of the even and odd
// samples; X_n/2-k = conj(E_k - w_n^k O_k) shares the product (k = 0..n/4).
std::vector<CExpr> forward(const std::vector<CExpr> &x) {
  const std::size_t n = x.size();
  if (n % 2 != 0) {  // odd (1 included): the complex DFT of the real input, its first half
    std::vector<CExpr> re;
    for (const CExpr &v : x) re.push_back(real_part(v));
    std::vector<CExpr> y = symbolic_dft(re, 1);
    y.resize(n / 2 + 1);
    return y;
  }
  std::vector<CExpr> even, odd;
  for (std::size_t j = 0; j < n; j += 2) even.push_back(x[j]), odd.push_back(x[j + 1]);
  const std::vector<CExpr> e = forward(even), o = forward(odd);
  const std::size_t h = n / 2;  // e, o: h/2 + 1 values each
  std::vector<CExpr> y(h + 1);
  for (std::size_t k = 0; 2 * k <= h; ++k) {
    const CExpr t = c_mul_root(o[k], int64_t(n), int64_t(k));
    y[k] = c_add(e[k], t);
    y[h - k] = conj(c_sub(e[k], t));
  }
  return y;
}

// n reals from X_0..X_n/2 (imaginary parts of X_0, X_n/2 ignored): the even samples are the
// inverse of E_k = X_k + conj X_n/2-k, the odd ones of O_k = (X_k - conj X_n/2-k) w_n^-k.
std::vector<CExpr> inverse(const std::vector<CExpr> &x, std::size_t n) {
  if (n % 2 != 0) {  // odd: the inverse complex DFT of the Hermitian extension, its real part
    std::vector<CExpr> z(n);
    for (std::size_t k = 0; k < n; ++k) z[k] = k < x.size() ? x[k] : conj(x[n - k]);
    z[0] = real_part(z[0]);
    std::vector<CExpr> y;
    for (const CExpr &v : symbolic_dft(z, -1)) y.push_back(real_part(v));
    return y;
  }
  const std::size_t h = n / 2;
  if (h == 1) return {{e_add(x[0].re, x[1].re), e_const(0)}, {e_sub(x[0].re, x[1].re), e_const(0)}};
  std::vector<CExpr> e(h / 2 + 1), o(h / 2 + 1);
  for (std::size_t k = 1; 2 * k < h; ++k) {
    const CExpr b = conj(x[h - k]);
    e[k] = c_add(x[k], b);
    o[k] = c_mul_root(c_sub(x[k], b), int64_t(n), -int64_t(k));
  }
  // The ends are real: E_0, O_0 from the real parts; at k = h/2, 2 Re X_k and -2 Im X_k.
  e[0] = {e_add(x[0].re, x[h].re), e_const(0)};
  o[0] = {e_sub(x[0].re, x[h].re), e_const(0)};
  if (h % 2 == 0) {
    e[h / 2] = {e_add(x[h / 2].re, x[h / 2].re), e_const(0)};
    o[h / 2] = {e_neg(e_add(x[h / 2].im, x[h / 2].im)), e_const(0)};
  }
  const std::vector<CExpr> ye = inverse(e, h), yo = inverse(o, h);
  std::vector<CExpr> y;
  for (std::size_t j = 0; j < h; ++j) y.push_back(ye[j]), y.push_back(yo[j]);
  return y;
}

}  // namespace

std::vector<CExpr> symbolic_real_radix2(const std::vector<CExpr> &x, int64_t n, bool inverse_dft) {
  if (!inverse_dft) return forward(x);
  std::vector<CExpr> in(x.begin(), x.begin() + (n / 2 + 1));
  return inverse(in, std::size_t(n));
}

}  // namespace splgen::lower
