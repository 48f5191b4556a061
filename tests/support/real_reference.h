// The real transforms (docs/transforms.md) two more ways, for the kernel tests: an O(n^2)
// sum of the definitions in long double (angles reduced exactly in integers), and FFTW3's
// matching plan (r2c, c2r, r2r with the REDFT/RODFT kind) in double. Real data are plain
// vectors of reals; complex data are interleaved (re, im) pairs, as the kernels hold them.
#pragma once
#include <fftw3.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "generator/ir/real_kind.h"
#include "generator/measure/real_fftw.h"

namespace splgen::test {

// Every kind, in the order of ir/real_kind.h's table.
inline std::vector<RealKind> all_real_kinds() {
  std::vector<RealKind> kinds;
  for (const RealKindInfo &info : kRealKinds) kinds.push_back(info.kind);
  return kinds;
}

// The relative RMS difference of a kernel's output from a long-double reference (the
// absolute one where the reference is 0).
inline double relative_rms(const std::vector<double> &got, const std::vector<long double> &want) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    long double d = (long double)got[i] - want[i];
    num += d * d, den += want[i] * want[i];
  }
  return double(den == 0 ? std::sqrt(num) : std::sqrt(num / den));
}

// cos and sin of 2 pi e / N in long double, e reduced mod N first.
inline long double cos_turn(int64_t e, int64_t N) {
  e %= N;
  if (e < 0) e += N;
  return std::cos(6.283185307179586476925286766559005768L * (long double)e / (long double)N);
}
inline long double sin_turn(int64_t e, int64_t N) {
  e %= N;
  if (e < 0) e += N;
  return std::sin(6.283185307179586476925286766559005768L * (long double)e / (long double)N);
}

// y = KIND(n) x from FFTW's definitions; x and y as the kernel reads and writes them (RDFT:
// n reals in, n/2+1 complex out; IRDFT: n/2+1 complex in, n reals out; others n reals).
inline std::vector<long double> real_reference(RealKind kind, int64_t n, const std::vector<long double> &x) {
  std::vector<long double> y;
  if (kind == RealKind::WHT) {  // the butterflies of the definition's Kronecker product, exact in long double
    y = x;
    for (int64_t h = 1; h < n; h *= 2)
      for (int64_t i = 0; i < n; i += 2 * h)
        for (int64_t j = i; j < i + h; ++j) {
          long double a = y[std::size_t(j)], b = y[std::size_t(j + h)];
          y[std::size_t(j)] = a + b, y[std::size_t(j + h)] = a - b;
        }
    return y;
  }
  if (kind == RealKind::RDFT) {
    for (int64_t k = 0; k <= n / 2; ++k) {
      long double re = 0, im = 0;
      for (int64_t j = 0; j < n; ++j) re += x[std::size_t(j)] * cos_turn(j * k, n), im -= x[std::size_t(j)] * sin_turn(j * k, n);
      y.push_back(re), y.push_back(im);
    }
    return y;
  }
  for (int64_t k = 0; k < n; ++k) {
    long double s = 0;
    for (int64_t j = 0; j < n; ++j) {
      long double v = x[std::size_t(kind == RealKind::IRDFT ? 0 : j)];
      switch (kind) {
        case RealKind::IRDFT: {  // Hermitian: X_j for j <= n/2, conj(X_{n-j}) above
          int64_t h = j <= n / 2 ? j : n - j;
          long double re = x[std::size_t(2 * h)], im = j <= n / 2 ? x[std::size_t(2 * h + 1)] : -x[std::size_t(2 * h + 1)];
          if (j == 0 || 2 * j == n) im = 0;  // FFTW ignores these imaginary parts
          s += re * cos_turn(j * k, n) - im * sin_turn(j * k, n);
          continue;
        }
        case RealKind::DCT2: s += 2 * v * cos_turn((2 * j + 1) * k, 4 * n); break;
        case RealKind::DCT3: s += (j == 0 ? 1 : 2) * v * cos_turn(j * (2 * k + 1), 4 * n); break;
        case RealKind::DCT4: s += 2 * v * cos_turn((2 * j + 1) * (2 * k + 1), 8 * n); break;
        case RealKind::DST2: s += 2 * v * sin_turn((2 * j + 1) * (k + 1), 4 * n); break;
        case RealKind::DST3: s += (j == n - 1 ? ((k % 2) ? -v : v) : 2 * v * sin_turn((j + 1) * (2 * k + 1), 4 * n)); break;
        case RealKind::DST4: s += 2 * v * sin_turn((2 * j + 1) * (2 * k + 1), 8 * n); break;
        case RealKind::RDFT: case RealKind::WHT: break;  // above
      }
    }
    y.push_back(s);
  }
  return y;
}

// FFTW3's rank-d plan for the transform in double (c2r scribbles on its input: x is a copy;
// the long-double reference where an O(n^2) sum is too slow is measure::fftwl_real). WHT has
// none: the caller does not ask.
inline std::vector<double> fftw_real(RealKind kind, const std::vector<int> &dims, std::vector<double> x) {
  std::vector<double> y(std::size_t(measure::real_kind_out_reals(kind, dims)));
  const int rank = int(dims.size());
  fftw_plan p;
  if (kind == RealKind::RDFT)
    p = fftw_plan_dft_r2c(rank, dims.data(), x.data(), reinterpret_cast<fftw_complex *>(y.data()), FFTW_ESTIMATE);
  else if (kind == RealKind::IRDFT)
    p = fftw_plan_dft_c2r(rank, dims.data(), reinterpret_cast<fftw_complex *>(x.data()), y.data(), FFTW_ESTIMATE);
  else {
    std::vector<fftw_r2r_kind> kinds(dims.size(), static_cast<fftw_r2r_kind>(measure::fftw_r2r_kind_of(kind)));
    p = fftw_plan_r2r(rank, dims.data(), x.data(), y.data(), kinds.data(), FFTW_ESTIMATE);
  }
  fftw_execute(p);
  fftw_destroy_plan(p);
  return y;
}

}  // namespace splgen::test
