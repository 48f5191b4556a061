#include "generator/ir/dense.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <utility>
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

cplx &Matrix::conj_ref(int64_t r, int64_t c) {
  if (conj.empty()) conj.assign(data.size(), cplx{});
  return conj[std::size_t(r * cols + c)];
}

namespace {

// x y for complex-linear parts only.
std::vector<cplx> product(const std::vector<cplx> &x, const std::vector<cplx> &y, int64_t rows, int64_t inner,
                          int64_t cols, bool conj_y) {
  std::vector<cplx> z(std::size_t(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k < inner; ++k) {
      cplx a = x[std::size_t(i * inner + k)];
      if (a == cplx(0.0)) continue;
      for (int64_t j = 0; j < cols; ++j) {
        cplx b = y[std::size_t(k * cols + j)];
        z[std::size_t(i * cols + j)] += a * (conj_y ? std::conj(b) : b);
      }
    }
  return z;
}

void add_to(std::vector<cplx> &z, const std::vector<cplx> &t) {
  for (std::size_t i = 0; i < z.size(); ++i) z[i] += t[i];
}

bool all_zero(const std::vector<cplx> &v) {
  for (const cplx &c : v)
    if (c != cplx(0.0)) return false;
  return true;
}

bool real_linear_entries(const Matrix &m) {
  if (!m.linear()) return false;
  for (const cplx &c : m.data)
    if (c.imag() != 0) return false;
  return true;
}

Matrix part(const Matrix &m, bool conj) {
  Matrix p(m.rows, m.cols);
  if (conj) p.data = m.conj;
  else p.data = m.data;
  return p;
}

}  // namespace

// (M1, C1)(M2, C2): y = M1 (M2 x + C2 x*) + C1 (M2 x + C2 x*)* = (M1 M2 + C1 C2*) x + (M1 C2 + C1 M2*) x*.
Matrix operator*(const Matrix &x, const Matrix &y) {
  Matrix z(x.rows, y.cols);
  z.data = product(x.data, y.data, x.rows, x.cols, y.cols, false);
  if (x.linear() && y.linear()) return z;
  if (!x.linear() && !y.linear()) add_to(z.data, product(x.conj, y.conj, x.rows, x.cols, y.cols, true));
  std::vector<cplx> c(z.data.size());
  if (!y.linear()) add_to(c, product(x.data, y.conj, x.rows, x.cols, y.cols, false));
  if (!x.linear()) add_to(c, product(x.conj, y.data, x.rows, x.cols, y.cols, true));
  if (!all_zero(c)) z.conj = std::move(c);
  return z;
}

// For widely linear factors, A (x) B is (A (x) I)(I (x) B), defined only where that equals
// (I (x) B)(A (x) I) (a real-linear A and B need not commute on the real and imaginary parts).
Matrix kron(const Matrix &x, const Matrix &y) {
  check_dense_size(x.rows * y.rows, x.cols * y.cols);
  if (!x.linear() || !y.linear()) {
    if (real_linear_entries(x) || real_linear_entries(y)) {  // a real matrix commutes with Re and conj
      Matrix z = kron(part(x, false), part(y, false));
      if (!x.linear()) z.conj = kron(part(x, true), part(y, false)).data;
      if (!y.linear()) z.conj = kron(part(x, false), part(y, true)).data;
      return z;
    }
    Matrix a = kron(x, Matrix::identity(y.rows)) * kron(Matrix::identity(x.cols), y);
    Matrix b = kron(Matrix::identity(x.rows), y) * kron(x, Matrix::identity(y.cols));
    if (max_abs_difference(a, b) > 1e-9)
      throw FormulaError("the tensor product of these real-linear matrices depends on the order of its factors");
    return a;
  }
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
    for (int64_t j = 0; j < x.cols; ++j) {
      z.at(i, j) = x.at(i, j);
      if (!x.linear()) z.conj_ref(i, j) = x.conj_at(i, j);
    }
  for (int64_t i = 0; i < y.rows; ++i)
    for (int64_t j = 0; j < y.cols; ++j) {
      z.at(x.rows + i, x.cols + j) = y.at(i, j);
      if (!y.linear()) z.conj_ref(x.rows + i, x.cols + j) = y.conj_at(i, j);
    }
  return z;
}

double max_abs_difference(const Matrix &x, const Matrix &y) {
  if (x.rows != y.rows || x.cols != y.cols) return std::numeric_limits<double>::infinity();
  double m = 0;
  for (std::size_t i = 0; i < x.data.size(); ++i) m = std::max(m, std::abs(x.data[i] - y.data[i]));
  if (x.linear() && y.linear()) return m;
  for (int64_t r = 0; r < x.rows; ++r)
    for (int64_t c = 0; c < x.cols; ++c) m = std::max(m, std::abs(x.conj_at(r, c) - y.conj_at(r, c)));
  return m;
}

std::vector<cplx> apply_matrix(const Matrix &m, const std::vector<cplx> &x) {
  std::vector<cplx> y(std::size_t(m.rows));
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c) {
      y[std::size_t(r)] += m.at(r, c) * x[std::size_t(c)];
      if (!m.linear()) y[std::size_t(r)] += m.conj_at(r, c) * std::conj(x[std::size_t(c)]);
    }
  return y;
}

namespace {

// cos and sin of 2 pi r/(8n), 0 <= r <= n (the first octant), in long double.
std::pair<long double, long double> octant_cos_sin(int64_t n, int64_t r) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  long double t = two_pi * (long double)r / (8.0L * (long double)n);
  return {std::cos(t), std::sin(t)};
}

// exp(-2 pi i e/n) from the cos and sin of its first-octant angle: e/n in eighths of a turn is
// reduced to r in [0, n] (reflected about the octant's end), then rotated by quarter turns,
// all exact. cs(r) gives the octant values.
template <class CosSin>
cplx root_from_octant(int64_t n, int64_t e, CosSin cs) {
  e = mod64(e, n);
  int64_t quarter = 8 * e / n / 2;          // 0..3
  int64_t rem = 8 * e - quarter * 2 * n;    // in [0, 2n): angle within the quarter, in units of 2pi/(8n)
  auto [c, s] = rem <= n ? cs(rem) : cs(2 * n - rem);
  if (rem > n) std::swap(c, s);
  for (int64_t r = 0; r < quarter; ++r) {
    auto nc = -s, ns = c;
    c = nc, s = ns;
  }
  return cplx(double(c), double(-s));
}

}  // namespace

cplx root_of_unity(int64_t n, int64_t e) {
  return root_from_octant(n, e, [n](int64_t r) { return octant_cos_sin(n, r); });
}

RootsOfUnity::RootsOfUnity(int64_t n) : n_(n), step_(std::gcd(int64_t(8), 2 * n)) {
  cache_.assign(std::size_t(n / step_ + 1), cplx(std::nan(""), 0.0));
}

cplx RootsOfUnity::operator()(int64_t e) {
  // Rounding to double commutes with the exact reflections and rotations, so the cached
  // double values give the same result as the long double ones.
  return root_from_octant(n_, e, [this](int64_t r) {
    cplx &v = cache_[std::size_t(r / step_)];
    if (std::isnan(v.real())) {
      auto [c, s] = octant_cos_sin(n_, r);
      v = cplx(double(c), double(s));
    }
    return std::pair<double, double>(v.real(), v.imag());
  });
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
      for (int64_t i = 0; i < f->rows; ++i) d.at(i, i) = diag_values(*f)[std::size_t(i)];
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
    case SplKind::RealTransform: return real_transform_dense(f);
    case SplKind::WideDense: {
      Matrix m(f->rows, f->cols);
      std::size_t n = std::size_t(f->rows * f->cols);
      m.data.assign(f->diag.begin(), f->diag.begin() + std::ptrdiff_t(n));
      m.conj.assign(f->diag.begin() + std::ptrdiff_t(n), f->diag.end());
      return m;
    }
    case SplKind::TileTensor: case SplKind::Fence: case SplKind::Transpose: case SplKind::FormulaVar:
    case SplKind::Call: case SplKind::Sum: case SplKind::Gather: case SplKind::Scatter:
      break;  // rule-only kinds are no SplNode (listed, so a new kind warns here: -Wswitch)
  }
  throw FormulaError("unknown formula node");
}

}  // namespace splgen
