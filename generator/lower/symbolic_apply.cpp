#include "generator/lower/symbolic_apply.h"

#include "generator/lower/real_codelet.h"

namespace splgen::lower {

namespace {

// (A0 (x) A1 (x) ...) x: the rest on each of A0's column blocks, then A0 down each column.
std::vector<CExpr> symbolic_tensor(const std::vector<Spl> &factors, std::size_t first, const std::vector<CExpr> &x) {
  if (first + 1 == factors.size()) return symbolic_apply(factors[first], x);
  const Spl &a = factors[first];
  int64_t rb = 1, cb = 1;
  for (std::size_t i = first + 1; i < factors.size(); ++i) rb *= factors[i]->rows, cb *= factors[i]->cols;
  std::vector<CExpr> t;
  for (int64_t i = 0; i < a->cols; ++i) {
    std::vector<CExpr> block(x.begin() + std::ptrdiff_t(i * cb), x.begin() + std::ptrdiff_t((i + 1) * cb));
    for (CExpr &v : symbolic_tensor(factors, first + 1, block)) t.push_back(v);
  }
  std::vector<CExpr> y(std::size_t(a->rows * rb)), column(std::size_t(a->cols));
  for (int64_t q = 0; q < rb; ++q) {
    for (int64_t i = 0; i < a->cols; ++i) column[std::size_t(i)] = t[std::size_t(i * rb + q)];
    std::vector<CExpr> out = symbolic_apply(a, column);
    for (int64_t p = 0; p < a->rows; ++p) y[std::size_t(p * rb + q)] = out[std::size_t(p)];
  }
  return y;
}

}  // namespace

std::vector<CExpr> symbolic_apply(const Spl &f, const std::vector<CExpr> &x) {
  switch (f->kind) {
    case SplKind::Identity: return x;
    case SplKind::Compose: {
      std::vector<CExpr> v = x;
      for (std::size_t i = f->children.size(); i-- > 0;) v = symbolic_apply(f->children[i], v);
      return v;
    }
    case SplKind::Tensor: return symbolic_tensor(f->children, 0, x);
    case SplKind::DirectSum: {
      std::vector<CExpr> y;
      std::size_t at = 0;
      for (const Spl &c : f->children) {
        std::vector<CExpr> part(x.begin() + std::ptrdiff_t(at), x.begin() + std::ptrdiff_t(at + std::size_t(c->cols)));
        for (CExpr &v : symbolic_apply(c, part)) y.push_back(v);
        at += std::size_t(c->cols);
      }
      return y;
    }
    case SplKind::Perm: {
      std::vector<CExpr> y;
      for (int64_t from : f->perm) y.push_back(x[std::size_t(from)]);
      return y;
    }
    case SplKind::Stride: {  // y[i n + j] = x[j m + i], m = s, n = N/s
      const int64_t m = f->b, n = f->a / f->b;
      std::vector<CExpr> y(x.size());
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) y[std::size_t(i * n + j)] = x[std::size_t(j * m + i)];
      return y;
    }
    case SplKind::Twiddle: {  // w_N^(k i j) at i n + j
      const int64_t N = f->a, n = f->b, k = f->c;
      std::vector<CExpr> y(x.size());
      for (int64_t i = 0; i < N / n; ++i)
        for (int64_t j = 0; j < n; ++j)
          y[std::size_t(i * n + j)] = c_mul_root(x[std::size_t(i * n + j)], N, mod64(i * j % N * k, N));
      return y;
    }
    case SplKind::Diag: {
      std::vector<CExpr> y;
      const std::vector<cplx> &d = diag_values(*f);
      for (std::size_t i = 0; i < x.size(); ++i) y.push_back(c_mul(x[i], c_const(d[i])));
      return y;
    }
    case SplKind::Dense: {
      std::vector<CExpr> y;
      for (int64_t r = 0; r < f->rows; ++r) {
        CExpr sum = c_const(0);
        for (int64_t c = 0; c < f->cols; ++c) {
          const cplx v = f->diag[std::size_t(r * f->cols + c)];
          if (v != cplx(0)) sum = c_add(sum, c_mul(x[std::size_t(c)], c_const(v)));
        }
        y.push_back(sum);
      }
      return y;
    }
    case SplKind::Tagged: return symbolic_apply(f->children.front(), x);
    case SplKind::DFT: case SplKind::WideDense: case SplKind::RealTransform: return symbolic_kernel(f, x);
    default: break;
  }
  throw FormulaError("symbolic_apply: a formula node no codelet is made of");
}

}  // namespace splgen::lower
