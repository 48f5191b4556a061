// Reference transforms for checking generated kernels and reporting their accuracy
// (docs/design.md, "Measuring"):
// an O(n^2) DFT in long double with exactly reduced twiddles, FFTW3 in double and float,
// and the relative RMS error between a result and a reference.
#pragma once
#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <vector>

namespace splgen::measure {

// y[k] = sum_l x[l] * exp(sign * 2 pi i * k * l / n), sign = -1 (forward, FFTW_FORWARD) or +1
// (inverse, unnormalised). The exponent (k*l) mod n is reduced in integers, so every twiddle is
// accurate to long double precision.
std::vector<std::complex<long double>> reference_dft(const std::vector<std::complex<long double>> &x, int sign);

// One output of reference_dft in O(n): for spot checks of large transforms.
std::complex<long double> reference_dft_entry(const std::vector<std::complex<long double>> &x, std::size_t k, int sign);

// FFTW3 in long double (fftwl, FFTW_ESTIMATE): the reference where O(n^2) is too slow.
std::vector<std::complex<long double>> fftwl_dft(const std::vector<std::complex<long double>> &x, int sign);

// howmany transforms of the row-major multi-dimensional size dims, one after another, by
// fftwl (FFTW_ESTIMATE): the reference for DFT(a x b ...) and I(m) (x) DFT(n).
std::vector<std::complex<long double>> fftwl_many(const std::vector<std::complex<long double>> &x,
                                                  const std::vector<int> &dims, int howmany, int sign);

// The most accurate reference affordable: reference_dft up to n = 4096, fftwl_dft beyond.
std::vector<std::complex<long double>> accurate_dft(const std::vector<std::complex<long double>> &x, int sign);

// The same transform computed by FFTW3 (fftw_plan_dft_1d, FFTW_ESTIMATE), in double and in float.
std::vector<std::complex<double>> fftw_dft(const std::vector<std::complex<double>> &x, int sign);
std::vector<std::complex<float>> fftwf_dft(const std::vector<std::complex<float>> &x, int sign);

// Element-wise precision conversion, e.g. to feed a double input to reference_dft.
template <class To, class From>
std::vector<std::complex<To>> convert(const std::vector<std::complex<From>> &x) {
  std::vector<std::complex<To>> out;
  out.reserve(x.size());
  for (const auto &v : x) out.emplace_back(To(v.real()), To(v.imag()));
  return out;
}

// sqrt( sum |result - reference|^2 / sum |reference|^2 ), computed in long double.
// Infinity if the sizes differ; the absolute RMS norm of the difference if the reference is zero.
template <class T, class U>
double relative_rms_error(const std::vector<std::complex<T>> &result, const std::vector<std::complex<U>> &reference) {
  if (result.size() != reference.size()) return std::numeric_limits<double>::infinity();
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < result.size(); ++i) {
    long double rr = (long double)result[i].real() - (long double)reference[i].real();
    long double ri = (long double)result[i].imag() - (long double)reference[i].imag();
    num += rr * rr + ri * ri;
    long double fr = (long double)reference[i].real(), fi = (long double)reference[i].imag();
    den += fr * fr + fi * fi;
  }
  if (den == 0) return double(std::sqrt(num));
  return double(std::sqrt(num / den));
}

}  // namespace splgen::measure
