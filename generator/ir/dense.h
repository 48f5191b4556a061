// Dense complex matrices: the reference meaning of every SPL and Sigma-SPL node. A matrix is
// widely linear, y = M x + C conj(x): complex-linear nodes have no C (empty `conj`); the real
// transforms (real_kind.h) read Re(x) or write Re(y) and have one (docs/transforms.md).
#pragma once
#include <cstdint>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen {

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<cplx> data;  // row-major
  std::vector<cplx> conj;  // row-major, or empty: the matrix is complex-linear
  Matrix() = default;
  Matrix(int64_t r, int64_t c) : rows(r), cols(c), data(std::size_t(r * c)) {}
  static Matrix identity(int64_t n);
  cplx &at(int64_t r, int64_t c) { return data[std::size_t(r * cols + c)]; }
  const cplx &at(int64_t r, int64_t c) const { return data[std::size_t(r * cols + c)]; }
  bool linear() const { return conj.empty(); }
  cplx conj_at(int64_t r, int64_t c) const { return conj.empty() ? cplx{} : conj[std::size_t(r * cols + c)]; }
  cplx &conj_ref(int64_t r, int64_t c);  // allocates the conj part on first use
};

// The widely linear matrix of a map given on vectors of `cols` entries, from its values on
// e_j and i e_j (complex-linear when they agree: conj stays empty).
template <class Apply>
Matrix probe_matrix(int64_t rows, int64_t cols, Apply apply);
// y = M x + C conj(x).
std::vector<cplx> apply_matrix(const Matrix &m, const std::vector<cplx> &x);

Matrix operator*(const Matrix &x, const Matrix &y);
Matrix kron(const Matrix &x, const Matrix &y);
Matrix direct_sum(const Matrix &x, const Matrix &y);
double max_abs_difference(const Matrix &x, const Matrix &y);  // infinity if shapes differ

// Largest rows*cols to_dense() accepts; beyond it FormulaError (a dense check is meant for small sizes).
constexpr int64_t kMaxDenseEntries = int64_t(1) << 22;
void check_dense_size(int64_t rows, int64_t cols);

// w_n^e = exp(-2 pi i e / n), computed in long double with exact argument reduction.
cplx root_of_unity(int64_t n, int64_t e);

// w_n^e for many e of one n, equal bit for bit to root_of_unity(n, e): each first-octant
// angle's cos and sin is computed once (a table of N twiddles needs about N/8 of them, where
// one call each took a quarter of the generation time of DFT(2^20)).
class RootsOfUnity {
 public:
  explicit RootsOfUnity(int64_t n);
  cplx operator()(int64_t e);

 private:
  int64_t n_, step_;  // angles 2 pi r/(8n) for r in [0, n], all multiples of step_
  std::vector<cplx> cache_;  // (cos, sin) of angle r, rounded to double; NaN until computed
};

Matrix to_dense(const Spl &f);
// The dense meaning of a RealTransform node: RDFT, IRDFT, WHT, DCTk, DSTk of any rank
// (generator/ir/real_dense.cpp).
Matrix real_transform_dense(const Spl &f);
// Entry (row, col) of the transform's kernel K: RDFT and the real-to-real kinds compute
// y = K Re(x), IRDFT computes y = Re(K x).
cplx real_transform_entry(const Spl &f, int64_t row, int64_t col);

template <class Apply>
Matrix probe_matrix(int64_t rows, int64_t cols, Apply apply) {
  check_dense_size(rows, cols);
  Matrix m(rows, cols);
  std::vector<cplx> e(static_cast<std::size_t>(cols), 0.0);
  for (int64_t c = 0; c < cols; ++c) {
    e[std::size_t(c)] = 1.0;
    std::vector<cplx> y1 = apply(e);
    e[std::size_t(c)] = cplx(0.0, 1.0);
    std::vector<cplx> y2 = apply(e);
    e[std::size_t(c)] = 0.0;
    for (int64_t r = 0; r < rows; ++r) {
      cplx a = y1[std::size_t(r)], b = y2[std::size_t(r)] * cplx(0.0, -1.0);  // b = -i f(i e)
      m.at(r, c) = (a + b) * 0.5;
      if (a != b) m.conj_ref(r, c) = (a - b) * 0.5;
    }
  }
  return m;
}

}  // namespace splgen
