// The kernels of generated/ (scripts/regenerate.sh) against FFTW3: every kernel of
// splgen_kernels.h on random input, in its precision.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "generated/splgen_kernels.h"
#include "generator/target/target.h"
#include "tests/support/reference.h"

namespace splgen {
namespace {

template <class T>
using Kernel = void (*)(T *, const T *);

struct Entry {
  const char *name;
  int n;
  bool is_float;
  bool avx2;
  Kernel<double> d;
  Kernel<float> f;
};

template <class T>
constexpr bool kIsFloat = false;
template <>
constexpr bool kIsFloat<float> = true;

template <class T>
Kernel<double> as_double(void (*k)(T *, const T *)) {
  if constexpr (kIsFloat<T>) return nullptr; else return k;
}
template <class T>
Kernel<float> as_float(void (*k)(T *, const T *)) {
  if constexpr (kIsFloat<T>) return k; else return nullptr;
}

#define SPLGEN_TEST_ENTRY(name, n, real, isa) \
  Entry{#name, n, kIsFloat<real>, std::string(#isa) == "avx2", as_double<real>(name), as_float<real>(name)},

std::vector<Entry> kernels() { return {SPLGEN_FOR_EACH_KERNEL(SPLGEN_TEST_ENTRY)}; }

template <class T>
std::vector<std::complex<T>> random_input(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<T>> x(n);
  for (auto &v : x) v = {T(u(gen)), T(u(gen))};
  return x;
}

template <class T>
double error_vs_fftw(Kernel<T> kernel, int n) {
  std::vector<std::complex<T>> x = random_input<T>(n, 1234u + unsigned(n)), y(n);
  kernel(reinterpret_cast<T *>(y.data()), reinterpret_cast<const T *>(x.data()));
  if constexpr (kIsFloat<T>)
    return test::relative_rms_error(y, test::fftwf_dft(x, -1));
  else
    return test::relative_rms_error(y, test::fftw_dft(x, -1));
}

void check(bool avx2) {
  int checked = 0;
  for (const Entry &e : kernels()) {
    if (e.avx2 != avx2) continue;
    SCOPED_TRACE(e.name);
    double err = e.is_float ? error_vs_fftw(e.f, e.n) : error_vs_fftw(e.d, e.n);
    // FFTW itself has errors about eps * log2(n); allow a margin above both.
    EXPECT_LT(err, e.is_float ? 2e-6 : 5e-15) << e.name << " (n = " << e.n << ")";
    ++checked;
  }
  EXPECT_EQ(checked, 24) << "12 sizes x 2 precisions per ISA";
}

TEST(GeneratedKernels, ScalarMatchFftw) { check(false); }

TEST(GeneratedKernels, Avx2MatchFftw) {
  if (!host_supports(Isa::Avx2)) GTEST_SKIP() << "this CPU has no AVX2+FMA: the avx2 kernels cannot run here";
  check(true);
}

}  // namespace
}  // namespace splgen
