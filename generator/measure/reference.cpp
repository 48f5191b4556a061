#include "generator/measure/reference.h"

#include <fftw3.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "generator/measure/fftw.h"

namespace splgen::measure {

namespace {

void check_sign(int sign) {
  if (sign != -1 && sign != 1) throw std::invalid_argument("DFT sign must be -1 or +1");
}

}  // namespace

std::vector<std::complex<long double>> reference_dft(const std::vector<std::complex<long double>> &x, int sign) {
  check_sign(sign);
  const std::size_t n = x.size();
  std::vector<std::complex<long double>> y(n);
  if (n == 0) return y;
  // w[e] = exp(sign * 2 pi i e / n) for 0 <= e < n, each from its own exactly reduced argument;
  // the angle is folded into [-pi, pi] so that sinl/cosl work on the smallest argument.
  const long double two_pi = 6.283185307179586476925286766559005768L;
  std::vector<std::complex<long double>> w(n);
  for (std::size_t e = 0; e < n; ++e) {
    long double angle;
    if (2 * e <= n)
      angle = two_pi * (long double)e / (long double)n;
    else
      angle = -two_pi * (long double)(n - e) / (long double)n;
    w[e] = {cosl(angle), (long double)sign * sinl(angle)};
  }
  for (std::size_t k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    std::size_t e = 0;  // (k * l) mod n, advanced by k each step (no overflow)
    for (std::size_t l = 0; l < n; ++l) {
      const std::complex<long double> &t = w[e];
      re += x[l].real() * t.real() - x[l].imag() * t.imag();
      im += x[l].real() * t.imag() + x[l].imag() * t.real();
      e += k;
      if (e >= n) e -= n;
    }
    y[k] = {re, im};
  }
  return y;
}

std::complex<long double> reference_dft_entry(const std::vector<std::complex<long double>> &x, std::size_t k,
                                             int sign) {
  check_sign(sign);
  const std::size_t n = x.size();
  const long double two_pi = 6.283185307179586476925286766559005768L;
  std::complex<long double> sum = 0;
  for (std::size_t l = 0; l < n; ++l) {
    std::size_t e = std::size_t((unsigned __int128)k * l % n);
    long double angle = 2 * e <= n ? two_pi * (long double)e / (long double)n
                                   : -two_pi * (long double)(n - e) / (long double)n;
    sum += x[l] * std::complex<long double>(cosl(angle), (long double)sign * sinl(angle));
  }
  return sum;
}

std::vector<std::complex<long double>> fftwl_dft(const std::vector<std::complex<long double>> &x, int sign) {
  check_sign(sign);
  const int n = int(x.size());
  std::vector<std::complex<long double>> y(x.size());
  if (n == 0) return y;
  std::vector<fftwl_complex> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plan = fftwl_plan_dft_1d(n, in.data(), out.data(), sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  }
  std::memcpy(static_cast<void *>(in.data()), x.data(), sizeof(fftwl_complex) * std::size_t(n));
  fftwl_execute(plan);
  std::memcpy(static_cast<void *>(y.data()), out.data(), sizeof(fftwl_complex) * std::size_t(n));
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftwl_destroy_plan(plan);
  }
  return y;
}

std::vector<std::complex<long double>> fftwl_many(const std::vector<std::complex<long double>> &x,
                                                  const std::vector<int> &dims, int howmany, int sign) {
  check_sign(sign);
  std::vector<std::complex<long double>> y(x.size());
  if (x.empty()) return y;
  std::vector<fftwl_complex> in(x.size()), out(x.size());
  const int dist = int(x.size()) / howmany;
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plan = fftwl_plan_many_dft(int(dims.size()), dims.data(), howmany, in.data(), nullptr, 1, dist, out.data(), nullptr,
                               1, dist, sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  }
  if (!plan) throw std::runtime_error("fftwl could not plan the reference transform");
  std::memcpy(static_cast<void *>(in.data()), x.data(), sizeof(fftwl_complex) * x.size());
  fftwl_execute(plan);
  std::memcpy(static_cast<void *>(y.data()), out.data(), sizeof(fftwl_complex) * x.size());
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftwl_destroy_plan(plan);
  }
  return y;
}

std::vector<std::complex<long double>> accurate_dft(const std::vector<std::complex<long double>> &x, int sign) {
  return x.size() <= 4096 ? reference_dft(x, sign) : fftwl_dft(x, sign);
}

std::vector<std::complex<double>> fftw_dft(const std::vector<std::complex<double>> &x, int sign) {
  check_sign(sign);
  const int n = int(x.size());
  std::vector<std::complex<double>> y(x.size());
  if (n == 0) return y;
  fftw_complex *in = fftw_alloc_complex(std::size_t(n));
  fftw_complex *out = fftw_alloc_complex(std::size_t(n));
  if (!in || !out) {
    fftw_free(in);
    fftw_free(out);
    throw std::bad_alloc();
  }
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plan = fftw_plan_dft_1d(n, in, out, sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  }
  std::memcpy(in, x.data(), sizeof(fftw_complex) * std::size_t(n));
  fftw_execute(plan);
  std::memcpy(static_cast<void *>(y.data()), out, sizeof(fftw_complex) * std::size_t(n));
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftw_destroy_plan(plan);
  }
  fftw_free(in);
  fftw_free(out);
  return y;
}

std::vector<std::complex<float>> fftwf_dft(const std::vector<std::complex<float>> &x, int sign) {
  check_sign(sign);
  const int n = int(x.size());
  std::vector<std::complex<float>> y(x.size());
  if (n == 0) return y;
  fftwf_complex *in = fftwf_alloc_complex(std::size_t(n));
  fftwf_complex *out = fftwf_alloc_complex(std::size_t(n));
  if (!in || !out) {
    fftwf_free(in);
    fftwf_free(out);
    throw std::bad_alloc();
  }
  fftwf_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    plan = fftwf_plan_dft_1d(n, in, out, sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  }
  std::memcpy(in, x.data(), sizeof(fftwf_complex) * std::size_t(n));
  fftwf_execute(plan);
  std::memcpy(static_cast<void *>(y.data()), out, sizeof(fftwf_complex) * std::size_t(n));
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftwf_destroy_plan(plan);
  }
  fftwf_free(in);
  fftwf_free(out);
  return y;
}

}  // namespace splgen::measure
