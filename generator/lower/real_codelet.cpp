#include "generator/lower/real_codelet.h"

#include "generator/ir/dense.h"

namespace splgen::lower {

CExpr matrix_term(const Spl &matrix, const CExpr &x, const CExpr &entry) {
  if (matrix->kind != SplKind::RealTransform) return c_mul(x, entry);
  if (real_kind_info(real_kind(matrix)).real_in) return {e_mul(entry.re, x.re), e_mul(entry.im, x.re)};
  return {e_sub(e_mul(entry.re, x.re), e_mul(entry.im, x.im)), e_const(0)};  // Re(K x)
}

std::vector<CExpr> symbolic_kernel(const Spl &leaf, const std::vector<CExpr> &x) {
  if (leaf->kind == SplKind::DFT) return symbolic_dft(x, leaf->b);
  std::vector<CExpr> y;
  const RealKind kind = real_kind(leaf);
  for (int64_t r = 0; r < leaf->rows; ++r) {
    CExpr sum = c_const(0);
    for (int64_t c = 0; c < leaf->cols; ++c) {
      cplx k = real_transform_entry(kind, leaf->a, r, c);
      if (k == cplx(0)) continue;
      CExpr t = matrix_term(leaf, x[std::size_t(c)], c_const(k));
      sum = {e_add(sum.re, t.re), e_add(sum.im, t.im)};
    }
    y.push_back(sum);
  }
  return y;
}

}  // namespace splgen::lower
