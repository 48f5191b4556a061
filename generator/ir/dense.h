// Dense complex matrices: the reference meaning of every SPL and Sigma-SPL node.
#pragma once
#include <cstdint>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen {

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<cplx> data;  // row-major
  Matrix() = default;
  Matrix(int64_t r, int64_t c) : rows(r), cols(c), data(std::size_t(r * c)) {}
  static Matrix identity(int64_t n);
  cplx &at(int64_t r, int64_t c) { return data[std::size_t(r * cols + c)]; }
  const cplx &at(int64_t r, int64_t c) const { return data[std::size_t(r * cols + c)]; }
};

Matrix operator*(const Matrix &x, const Matrix &y);
Matrix kron(const Matrix &x, const Matrix &y);
Matrix direct_sum(const Matrix &x, const Matrix &y);
double max_abs_difference(const Matrix &x, const Matrix &y);  // infinity if shapes differ

// Largest rows*cols to_dense() accepts; beyond it FormulaError (a dense check is meant for small sizes).
constexpr int64_t kMaxDenseEntries = int64_t(1) << 22;
void check_dense_size(int64_t rows, int64_t cols);

// w_n^e = exp(-2 pi i e / n), computed in long double with exact argument reduction.
cplx root_of_unity(int64_t n, int64_t e);

Matrix to_dense(const Spl &f);

}  // namespace splgen
