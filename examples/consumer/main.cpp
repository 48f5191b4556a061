// Checks the transforms that splgen generated at build time (CMakeLists.txt) against a naive
// O(n^2) DFT in long double; prints one line per transform and exits 1 on a mismatch.
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

#include "fft.h"
#include "fft_dif.h"
#include "fft_omp.h"
#include "fft_team.h"
#include "fft_stream.h"
#include "ifftf.h"

namespace {

constexpr int n = CONSUMER_SIZE;
const long double pi = 3.141592653589793238462643383279502884L;

std::vector<std::complex<long double>> naive_dft(const std::vector<std::complex<long double>> &x, int sign) {
  std::vector<std::complex<long double>> y(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    std::complex<long double> s = 0;
    for (std::size_t l = 0; l < x.size(); ++l) {
      long double a = sign * 2 * pi * (long double)((k * l) % x.size()) / (long double)x.size();
      s += x[l] * std::complex<long double>(std::cos(a), std::sin(a));
    }
    y[k] = s;
  }
  return y;
}

template <class T>
bool check(const char *name, void (*kernel)(T *, const T *), int sign, double tolerance) {
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> x(2 * n), y(2 * n);
  std::vector<std::complex<long double>> xc(n);
  for (int i = 0; i < n; ++i) {
    x[2 * i] = T(u(gen));
    x[2 * i + 1] = T(u(gen));
    xc[i] = {x[2 * i], x[2 * i + 1]};
  }
  kernel(y.data(), x.data());
  std::vector<std::complex<long double>> ref = naive_dft(xc, sign);
  long double num = 0, den = 0;
  for (int i = 0; i < n; ++i) {
    num += std::norm(std::complex<long double>(y[2 * i], y[2 * i + 1]) - ref[i]);
    den += std::norm(ref[i]);
  }
  double err = double(std::sqrt(num / den));
  bool ok = err < tolerance;
  std::printf("%s: %s (n = %d, relative rms error %.2e)\n", name, ok ? "ok" : "FAIL", n, err);
  return ok;
}

}  // namespace

int main() {
  bool ok = true;
  ok &= check<double>("fft", fft, -1, 1e-13);
  ok &= check<float>("ifftf", ifftf, +1, 1e-5);
  ok &= check<double>("fft_dif", fft_dif, -1, 1e-13);
  ok &= check<double>("fft_omp", fft_omp, -1, 1e-13);
  ok &= check<double>("fft_team", fft_team, -1, 1e-13);
  ok &= check<double>("fft_stream", fft_stream, -1, 1e-13);
  return ok ? 0 : 1;
}
