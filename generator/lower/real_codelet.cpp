#include "generator/lower/real_codelet.h"

#include "generator/ir/dense.h"

namespace splgen::lower {

CExpr matrix_term(const Spl &matrix, const CExpr &x, const CExpr &entry) {
  if (matrix->kind != SplKind::RealTransform) return c_mul(x, entry);
  if (real_kind_info(real_kind(matrix)).real_in) return {e_mul(entry.re, x.re), e_mul(entry.im, x.re)};
  return {e_sub(e_mul(entry.re, x.re), e_mul(entry.im, x.im)), e_const(0)};  // Re(K x)
}

namespace {

// y = M x + C conj(x), entries folded: re = (Mr + Cr) xr + (Ci - Mi) xi, im = (Mi + Ci) xr + (Mr - Cr) xi.
std::vector<CExpr> symbolic_wide(const Spl &leaf, const std::vector<CExpr> &x) {
  std::vector<CExpr> y;
  const std::size_t n = std::size_t(leaf->rows * leaf->cols);
  for (int64_t r = 0; r < leaf->rows; ++r) {
    CExpr sum = c_const(0);
    for (int64_t c = 0; c < leaf->cols; ++c) {
      cplx m = leaf->diag[std::size_t(r * leaf->cols + c)], k = leaf->diag[n + std::size_t(r * leaf->cols + c)];
      const CExpr &v = x[std::size_t(c)];
      auto term = [](double coefficient, const Expr &e) { return coefficient == 0 ? e_const(0) : e_mul(e_const(coefficient), e); };
      Expr re = e_add(term(m.real() + k.real(), v.re), term(k.imag() - m.imag(), v.im));
      Expr im = e_add(term(m.imag() + k.imag(), v.re), term(m.real() - k.real(), v.im));
      sum = {e_add(sum.re, re), e_add(sum.im, im)};
    }
    y.push_back(sum);
  }
  return y;
}

}  // namespace

std::vector<CExpr> symbolic_kernel(const Spl &leaf, const std::vector<CExpr> &x) {
  if (leaf->kind == SplKind::DFT) return symbolic_dft(x, leaf->b);
  if (leaf->kind == SplKind::WideDense) return symbolic_wide(leaf, x);
  std::vector<CExpr> y;
  for (int64_t r = 0; r < leaf->rows; ++r) {
    CExpr sum = c_const(0);
    for (int64_t c = 0; c < leaf->cols; ++c) {
      cplx k = real_transform_entry(leaf, r, c);
      if (k == cplx(0)) continue;
      CExpr t = matrix_term(leaf, x[std::size_t(c)], c_const(k));
      sum = {e_add(sum.re, t.re), e_add(sum.im, t.im)};
    }
    y.push_back(sum);
  }
  return y;
}

}  // namespace splgen::lower
