#include "generator/lower/codelet.h"

#include <cmath>
#include <unordered_map>

#include "generator/ir/dense.h"

namespace splgen {

CExpr c_add(const CExpr &x, const CExpr &y) { return {e_add(x.re, y.re), e_add(x.im, y.im)}; }
CExpr c_sub(const CExpr &x, const CExpr &y) { return {e_sub(x.re, y.re), e_sub(x.im, y.im)}; }
CExpr c_mul(const CExpr &x, const CExpr &y) {
  return {e_sub(e_mul(x.re, y.re), e_mul(x.im, y.im)), e_add(e_mul(x.re, y.im), e_mul(x.im, y.re))};
}
CExpr c_const(cplx v) { return {e_const(v.real()), e_const(v.imag())}; }

CExpr c_mul_root(const CExpr &x, int64_t n, int64_t e) {
  e = mod64(e, n);
  int64_t g = gcd64(e, n);
  int64_t num = e / g, den = n / g;  // w_n^e = exp(-2 pi i num/den)
  if (den == 1) return x;
  if (den == 2) return {e_neg(x.re), e_neg(x.im)};
  if (den == 4) {  // -i or +i
    if (num == 1) return {x.im, e_neg(x.re)};
    return {e_neg(x.im), x.re};
  }
  if (den == 8) {  // (+-c +- i c), c = sqrt(1/2): two multiplications
    Expr c = e_const(0.70710678118654752440);
    cplx w = root_of_unity(8, num);
    Expr sr = w.real() > 0 ? x.re : e_neg(x.re), si = w.real() > 0 ? x.im : e_neg(x.im);
    // (a + ib)(cr + i ci) with |cr| = |ci| = c: re = cr a - ci b, im = cr b + ci a
    if ((w.real() > 0) == (w.imag() > 0))
      return {e_mul(c, e_sub(sr, si)), e_mul(c, e_add(si, sr))};
    return {e_mul(c, e_add(sr, si)), e_mul(c, e_sub(si, sr))};
  }
  return c_mul(x, c_const(root_of_unity(n, e)));
}

namespace {

// y_j = x_0 + sum_l c_jl s_l + i sum_l sigma_jl d_l, y_{p-j} = ... - i ...,
// s_l = x_l + x_{p-l}, d_l = x_l - x_{p-l}, w^(j l) = c + i sigma (w = w_p^k).
std::vector<CExpr> direct_dft(const std::vector<CExpr> &x, int64_t k) {
  int64_t p = int64_t(x.size());
  if (p == 1) return x;
  if (p == 2) return {c_add(x[0], x[1]), c_sub(x[0], x[1])};
  int64_t half = (p - 1) / 2;
  std::vector<CExpr> s(static_cast<std::size_t>(half + 1)), d(static_cast<std::size_t>(half + 1));
  CExpr y0 = x[0];
  for (int64_t l = 1; l <= half; ++l) {
    s[std::size_t(l)] = c_add(x[std::size_t(l)], x[std::size_t(p - l)]);
    d[std::size_t(l)] = c_sub(x[std::size_t(l)], x[std::size_t(p - l)]);
    y0 = c_add(y0, s[std::size_t(l)]);
  }
  std::vector<CExpr> y(static_cast<std::size_t>(p));
  y[0] = y0;
  for (int64_t j = 1; j <= half; ++j) {
    CExpr a = x[0], b = c_const(0.0);
    for (int64_t l = 1; l <= half; ++l) {
      cplx w = root_of_unity(p, mod64(j * l, p) * k);
      Expr c = e_const(w.real()), sg = e_const(w.imag());
      a = {e_add(a.re, e_mul(c, s[std::size_t(l)].re)), e_add(a.im, e_mul(c, s[std::size_t(l)].im))};
      b = {e_add(b.re, e_mul(sg, d[std::size_t(l)].re)), e_add(b.im, e_mul(sg, d[std::size_t(l)].im))};
    }
    y[std::size_t(j)] = {e_sub(a.re, b.im), e_add(a.im, b.re)};   // a + i b
    y[std::size_t(p - j)] = {e_add(a.re, b.im), e_sub(a.im, b.re)};  // a - i b
  }
  return y;
}

int64_t balanced_factor(int64_t n) {
  int64_t best = 1;
  for (int64_t m = 2; m * m <= n; ++m)
    if (n % m == 0) best = m;
  return best;
}

// The most balanced split n = m r with gcd(m, r) = 1, m < r; 1 when there is none.
int64_t coprime_factor(int64_t n) {
  int64_t best = 1;
  for (int64_t m = 2; m * m <= n; ++m)
    if (n % m == 0 && gcd64(m, n / m) == 1) best = m;
  return best;
}

// Good-Thomas (prime factor) for n = m r, gcd(m, r) = 1: no twiddle factors. Input index
// (a r + b m) mod n, output index the CRT of (c mod m, d mod r):
//   y[(c r (r^-1 mod m) + d m (m^-1 mod r)) mod n] = sum_a sum_b x[(a r + b m) mod n] w_m^(a c) w_r^(b d)
std::vector<CExpr> good_thomas_dft(const std::vector<CExpr> &x, int64_t m, int64_t k) {
  int64_t n = int64_t(x.size()), r = n / m;
  auto inverse_mod = [](int64_t a, int64_t q) {
    for (int64_t i = 1; i < q; ++i)
      if (a * i % q == 1) return i;
    return int64_t(1);  // q == 1
  };
  int64_t out_m = r * inverse_mod(r % m, m) % n, out_r = m * inverse_mod(m % r, r) % n;
  std::vector<std::vector<CExpr>> u(static_cast<std::size_t>(r));  // u[b][c]
  for (int64_t b = 0; b < r; ++b) {
    std::vector<CExpr> t(static_cast<std::size_t>(m));
    for (int64_t a = 0; a < m; ++a) t[std::size_t(a)] = x[std::size_t((a * r + b * m) % n)];
    u[std::size_t(b)] = symbolic_dft(t, k);
  }
  std::vector<CExpr> y(static_cast<std::size_t>(n));
  for (int64_t c = 0; c < m; ++c) {
    std::vector<CExpr> t(static_cast<std::size_t>(r));
    for (int64_t b = 0; b < r; ++b) t[std::size_t(b)] = u[std::size_t(b)][std::size_t(c)];
    std::vector<CExpr> v = symbolic_dft(t, k);
    for (int64_t d = 0; d < r; ++d) y[std::size_t((c * out_m + d * out_r) % n)] = v[std::size_t(d)];
  }
  return y;
}

}  // namespace

std::vector<CExpr> symbolic_dft(const std::vector<CExpr> &x, int64_t k) {
  int64_t n = int64_t(x.size());
  if (int64_t g = coprime_factor(n); g > 1) return good_thomas_dft(x, g, k);
  int64_t m = balanced_factor(n);
  if (m == 1) return direct_dft(x, k);  // prime (or 1)
  int64_t r = n / m;                     // DFT(n) = (DFT(m) (x) I(r)) T(n, r) (I(m) (x) DFT(r)) L(n, m)
  std::vector<CExpr> u(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::vector<CExpr> t(static_cast<std::size_t>(r));
    for (int64_t j = 0; j < r; ++j) t[std::size_t(j)] = x[std::size_t(j * m + i)];
    std::vector<CExpr> v = symbolic_dft(t, k);
    for (int64_t j = 0; j < r; ++j) u[std::size_t(i * r + j)] = c_mul_root(v[std::size_t(j)], n, mod64(i * j * k, n));
  }
  std::vector<CExpr> y(static_cast<std::size_t>(n));
  for (int64_t j = 0; j < r; ++j) {
    std::vector<CExpr> t(static_cast<std::size_t>(m));
    for (int64_t i = 0; i < m; ++i) t[std::size_t(i)] = u[std::size_t(i * r + j)];
    std::vector<CExpr> v = symbolic_dft(t, k);
    for (int64_t i = 0; i < m; ++i) y[std::size_t(i * r + j)] = v[std::size_t(i)];
  }
  return y;
}

namespace {

class Scheduler {
 public:
  explicit Scheduler(int &next_scalar) : next_(next_scalar) {}

  Expr visit(const Expr &e) {
    if (e->kind == ExprKind::Const || e->kind == ExprKind::Scalar) return e;
    if (auto it = done_.find(e); it != done_.end()) return it->second;
    Expr value;
    switch (e->kind) {
      case ExprKind::Load: value = e; break;
      case ExprKind::Neg: value = e_neg(visit(e->a)); break;
      case ExprKind::Add: value = e_add(visit(e->a), visit(e->b)); break;
      case ExprKind::Sub: value = e_sub(visit(e->a), visit(e->b)); break;
      case ExprKind::Mul: value = e_mul(visit(e->a), visit(e->b)); break;
      default: value = e;
    }
    int id = next_++;
    out_.push_back(make_assign(id, value));
    Expr ref = e_scalar(id);
    done_.emplace(e, ref);
    return ref;
  }

  std::vector<Stmt> out_;

 private:
  int &next_;
  std::unordered_map<Expr, Expr, ExprHash, ExprSame> done_;
};

}  // namespace

Stmt schedule(const std::vector<PendingStore> &stores, int &next_scalar) {
  Scheduler s(next_scalar);
  std::vector<Expr> values;
  for (const PendingStore &st : stores) values.push_back(s.visit(st.value));
  for (std::size_t i = 0; i < stores.size(); ++i)
    s.out_.push_back(make_store(stores[i].buffer, stores[i].index, stores[i].part, values[i]));
  return make_block(std::move(s.out_));
}

}  // namespace splgen
