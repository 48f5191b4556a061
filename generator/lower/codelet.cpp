#include "generator/lower/codelet.h"

#include <cmath>
#include <unordered_map>

#include "generator/ir/dense.h"
#include "generator/lower/dft_algorithms.h"

namespace splgen::lower {

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

// The loop IR's complex expressions as the algebra of dft_algorithms.h.
struct ScalarOps {
  using Value = CExpr;
  CExpr add(const CExpr &x, const CExpr &y) { return c_add(x, y); }
  CExpr sub(const CExpr &x, const CExpr &y) { return c_sub(x, y); }
  CExpr scale(const CExpr &x, double c) { return {e_mul(e_const(c), x.re), e_mul(e_const(c), x.im)}; }
  CExpr add_i(const CExpr &a, const CExpr &b) { return {e_sub(a.re, b.im), e_add(a.im, b.re)}; }
  CExpr sub_i(const CExpr &a, const CExpr &b) { return {e_add(a.re, b.im), e_sub(a.im, b.re)}; }
  CExpr mul_root(const CExpr &x, int64_t n, int64_t e) { return c_mul_root(x, n, e); }
};

}  // namespace

std::vector<CExpr> symbolic_dft(const std::vector<CExpr> &x, int64_t k) {
  ScalarOps ops;
  return dft_algorithms::dft(x, k, ops);
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

}  // namespace splgen::lower
