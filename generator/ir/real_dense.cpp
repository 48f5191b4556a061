// The dense meaning of the real transforms (docs/transforms.md), with FFTW's definitions
// (FFTW 3 manual, "What FFTW Really Computes"), entries from exactly reduced roots of unity.
#include <fmt/format.h>

#include "generator/ir/dense.h"

namespace splgen {

namespace {

double cos_2pi(int64_t e, int64_t N) { return root_of_unity(N, mod64(e, N)).real(); }   // cos(2 pi e/N)
double sin_2pi(int64_t e, int64_t N) { return -root_of_unity(N, mod64(e, N)).imag(); }  // sin(2 pi e/N)

int popcount64(int64_t v) { return __builtin_popcountll(uint64_t(v)); }

// The complex (RDFT, IRDFT) or real (the others) matrix K of the transform: RDFT and the
// real-to-real kinds compute y = K Re(x), IRDFT computes y = Re(K x).

cplx entry_1d(RealKind kind, int64_t n, int64_t k, int64_t j) {  // row k, column j
  switch (kind) {
    case RealKind::RDFT: return root_of_unity(n, mod64(j * k, n));  // sum_j x_j w_n^(jk), k <= n/2
    case RealKind::IRDFT: {  // y_k = Re(X_0 + 2 sum_{0<j<n/2} X_j w_n^(-jk) + X_{n/2} (-1)^k)
      double weight = (j == 0 || 2 * j == n) ? 1.0 : 2.0;
      return weight * root_of_unity(n, mod64(-j * k, n));
    }
    case RealKind::WHT: return popcount64(j & k) % 2 ? -1.0 : 1.0;
    case RealKind::DCT2: return 2 * cos_2pi((2 * j + 1) * k, 4 * n);               // REDFT10
    case RealKind::DCT3: return j == 0 ? 1.0 : 2 * cos_2pi(j * (2 * k + 1), 4 * n);  // REDFT01
    case RealKind::DCT4: return 2 * cos_2pi((2 * j + 1) * (2 * k + 1), 8 * n);      // REDFT11
    case RealKind::DST2: return 2 * sin_2pi((2 * j + 1) * (k + 1), 4 * n);         // RODFT10
    case RealKind::DST3:                                                             // RODFT01
      return j == n - 1 ? (k % 2 ? -1.0 : 1.0) : 2 * sin_2pi((j + 1) * (2 * k + 1), 4 * n);
    case RealKind::DST4: return 2 * sin_2pi((2 * j + 1) * (2 * k + 1), 8 * n);      // RODFT11
  }
  throw FormulaError("unknown real transform");
}

}  // namespace

// Rank >= 2 (FFTW's multi-dimensional r2c, c2r and r2r): K is the Kronecker product of the
// dimensions' kernels, row-major. In r2c/c2r every dimension but the last is a complex DFT
// (of sign - / +) and only the last is halved: y = K Re(x) is r2c, and Re(K x) is what c2r's
// row-column algorithm computes for any input (the complex inverse DFTs are linear, the last
// dimension's c2r takes the real part), which for Hermitian input is FFTW's c2r.
cplx real_transform_entry(const Spl &f, int64_t row, int64_t col) {
  const RealKind kind = real_kind(f);
  const std::vector<int64_t> dims = real_transform_dims(f);
  const int64_t last = dims.back();
  cplx k = entry_1d(kind, last, row % real_kind_rows(kind, last), col % real_kind_cols(kind, last));
  row /= real_kind_rows(kind, last), col /= real_kind_cols(kind, last);
  for (std::size_t i = dims.size() - 1; i-- > 0;) {
    const int64_t n = dims[i], r = row % n, c = col % n;
    if (kind == RealKind::RDFT) k *= root_of_unity(n, mod64(r * c, n));
    else if (kind == RealKind::IRDFT) k *= root_of_unity(n, mod64(-r * c, n));
    else k *= entry_1d(kind, n, r, c);
    row /= n, col /= n;
  }
  return k;
}

// K Re(x) = (K/2) x + (K/2) x*;  Re(K x) = (K/2) x + (K*/2) x*.
Matrix real_transform_dense(const Spl &f) {
  const RealKind kind = real_kind(f);
  int64_t rows = f->rows, cols = f->cols;
  check_dense_size(rows, cols);
  Matrix m(rows, cols);
  m.conj.assign(m.data.size(), cplx{});
  bool real_out = kind == RealKind::IRDFT;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      cplx k = real_transform_entry(f, r, c);
      m.at(r, c) = 0.5 * k;
      m.conj_ref(r, c) = 0.5 * (real_out ? std::conj(k) : k);
    }
  return m;
}

}  // namespace splgen
