#include "generator/ir/dense.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace splgen {

Matrix Matrix::identity(int64_t n) {
  Matrix m(n, n);
  for (int64_t i = 0; i < n; ++i) m.at(i, i) = 1.0;
  return m;
}

void check_dense_size(int64_t rows, int64_t cols) {
  if (rows > kMaxDenseEntries / std::max<int64_t>(cols, 1))
    throw FormulaError(fmt::format("a {}x{} matrix is too large for a dense check", rows, cols));
}

Matrix operator*(const Matrix &x, const Matrix &y) {
  Matrix z(x.rows, y.cols);
  for (int64_t i = 0; i < x.rows; ++i)
    for (int64_t k = 0; k < x.cols; ++k) {
      cplx a = x.at(i, k);
      if (a == cplx(0.0)) continue;
      for (int64_t j = 0; j < y.cols; ++j) z.at(i, j) += a * y.at(k, j);
    }
  return z;
}

Matrix kron(const Matrix &x, const Matrix &y) {
  check_dense_size(x.rows * y.rows, x.cols * y.cols);
  Matrix z(x.rows * y.rows, x.cols * y.cols);
  for (int64_t i = 0; i < x.rows; ++i)
    for (int64_t j = 0; j < x.cols; ++j) {
      cplx a = x.at(i, j);
      if (a == cplx(0.0)) continue;
      for (int64_t k = 0; k < y.rows; ++k)
        for (int64_t l = 0; l < y.cols; ++l) z.at(i * y.rows + k, j * y.cols + l) = a * y.at(k, l);
    }
  return z;
}

Matrix direct_sum(const Matrix &x, const Matrix &y) {
  Matrix z(x.rows + y.rows, x.cols + y.cols);
  for (int64_t i = 0; i < x.rows; ++i)
    for (int64_t j = 0; j < x.cols; ++j) z.at(i, j) = x.at(i, j);
  for (int64_t i = 0; i < y.rows; ++i)
    for (int64_t j = 0; j < y.cols; ++j) z.at(x.rows + i, x.cols + j) = y.at(i, j);
  return z;
}

double max_abs_difference(const Matrix &x, const Matrix &y) {
  if (x.rows != y.rows || x.cols != y.cols) return std::numeric_limits<double>::infinity();
  double m = 0;
  for (std::size_t i = 0; i < x.data.size(); ++i) m = std::max(m, std::abs(x.data[i] - y.data[i]));
  return m;
}

cplx root_of_unity(int64_t n, int64_t e) {
  // Reduce e/n to the first octant so the long double sin/cos see small, exact arguments.
  e = mod64(e, n);
  const long double two_pi = 6.283185307179586476925286766559005768L;
  // exp(-2 pi i e/n) = cos(2 pi e/n) - i sin(2 pi e/n)
  int64_t octant_num = 8 * e;  // angle in eighths of a turn: 8e/n
  int64_t q = octant_num / n;  // 0..7
  auto cs = [&](long double num) {  // angle = 2 pi num / (8 n)
    long double t = two_pi * num / (8.0L * (long double)n);
    return std::pair<long double, long double>(std::cos(t), std::sin(t));
  };
  long double c, s;
  // Use symmetry around multiples of a quarter turn.
  int64_t quarter = q / 2;            // 0..3
  int64_t rem = 8 * e - quarter * 2 * n;  // in [0, 2n): angle within the quarter, in units of 2pi/(8n)
  if (rem <= n) {
    auto [cc, ss] = cs((long double)rem);
    c = cc, s = ss;
  } else {
    auto [cc, ss] = cs((long double)(2 * n - rem));
    c = ss, s = cc;
  }
  // rotate by quarter turns
  for (int64_t r = 0; r < quarter; ++r) {
    long double nc = -s, ns = c;
    c = nc, s = ns;
  }
  return cplx(double(c), double(-s));
}

Matrix to_dense(const Spl &f) {
  check_dense_size(f->rows, f->cols);
  switch (f->kind) {
    case SplKind::DFT: {
      Matrix m(f->a, f->a);
      for (int64_t k = 0; k < f->a; ++k)
        for (int64_t l = 0; l < f->a; ++l) m.at(k, l) = root_of_unity(f->a, mod64(k * l, f->a) * f->b);
      return m;
    }
    case SplKind::DFTnd: {
      Matrix m = to_dense(make_dft(f->perm.front(), f->b));
      for (std::size_t i = 1; i < f->perm.size(); ++i) m = kron(m, to_dense(make_dft(f->perm[i], f->b)));
      return m;
    }
    case SplKind::Dense: {
      Matrix m(f->rows, f->cols);
      m.data = f->diag;
      return m;
    }
    case SplKind::Identity: return Matrix::identity(f->a);
    case SplKind::Stride: {  // y[i*n + j] = x[j*m + i], m = s, n = N/s
      int64_t m = f->b, n = f->a / f->b;
      Matrix p(f->a, f->a);
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) p.at(i * n + j, j * m + i) = 1.0;
      return p;
    }
    case SplKind::Twiddle: {  // diag(w_N^(k*i*j)) at position i*n + j
      int64_t N = f->a, n = f->b;
      Matrix d(N, N);
      for (int64_t i = 0; i < N / n; ++i)
        for (int64_t j = 0; j < n; ++j) d.at(i * n + j, i * n + j) = root_of_unity(N, mod64(i * j, N) * f->c);
      return d;
    }
    case SplKind::Diag: {
      Matrix d(f->rows, f->rows);
      for (int64_t i = 0; i < f->rows; ++i) d.at(i, i) = f->diag[std::size_t(i)];
      return d;
    }
    case SplKind::Perm: {
      Matrix p(f->rows, f->rows);
      for (int64_t i = 0; i < f->rows; ++i) p.at(i, f->perm[std::size_t(i)]) = 1.0;
      return p;
    }
    case SplKind::Tensor: {
      Matrix m = to_dense(f->children.front());
      for (std::size_t i = 1; i < f->children.size(); ++i) m = kron(m, to_dense(f->children[i]));
      return m;
    }
    case SplKind::Compose: {
      Matrix m = to_dense(f->children.back());
      for (std::size_t i = f->children.size() - 1; i-- > 0;) m = to_dense(f->children[i]) * m;
      return m;
    }
    case SplKind::DirectSum: {
      Matrix m = to_dense(f->children.front());
      for (std::size_t i = 1; i < f->children.size(); ++i) m = direct_sum(m, to_dense(f->children[i]));
      return m;
    }
    case SplKind::Tagged: return to_dense(f->children.front());
    case SplKind::TileTensor: case SplKind::Fence: case SplKind::Transpose: case SplKind::FormulaVar:
    case SplKind::Call: case SplKind::Sum: case SplKind::Gather: case SplKind::Scatter:
      break;  // rule-only kinds are no SplNode (listed, so a new kind warns here: -Wswitch)
  }
  throw FormulaError("unknown formula node");
}

}  // namespace splgen
