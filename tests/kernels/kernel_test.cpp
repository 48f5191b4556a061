// Generated kernels against FFTW3 and an O(n^2) long-double reference: every n from 1 to
// 128, powers of two up to 2^20, composites and primes; forward and inverse; double and
// float. Each test case generates its kernels in process, compiles them with one compiler
// call into one shared object, loads it and checks every kernel.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include "generator/driver/pipeline.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/misaligned.h"
#include "tests/support/reference.h"

namespace splgen {
namespace {

struct KernelSpec {
  int64_t n;
  bool inverse;
  Precision precision;
  Isa isa = Isa::Scalar;
  bool masked = false;  // GenOptions::masked_remainders
  std::string name() const {
    return fmt::format("k{}_{}_{}_{}{}", n, inverse ? "inv" : "fwd", precision == Precision::Float ? "f" : "d",
                       isa_name(isa), masked ? "_m" : "");
  }
};

std::vector<KernelSpec> all_variants(const std::vector<int64_t> &sizes, Isa isa = Isa::Scalar) {
  std::vector<KernelSpec> out;
  for (int64_t n : sizes)
    for (bool inverse : {false, true})
      for (Precision p : {Precision::Double, Precision::Float}) out.push_back({n, inverse, p, isa});
  return out;
}

using test::Misaligned;  // tests/support/misaligned.h

// The worst error seen in a test, in units of eps * log2(n), reported at its end.
double worst_error_in_eps = 0;

// A kernel's input and what its output is checked against: computed once per kernel and
// shared by the checks at every pointer offset (the input does not depend on the offsets).
template <class T>
struct Expected {
  std::vector<std::complex<T>> input;
  std::vector<std::complex<long double>> reference;  // test::accurate_dft
  std::vector<std::complex<T>> fftw;                  // FFTW3 in the kernel's precision
  std::vector<std::pair<std::size_t, std::complex<long double>>> entries;  // n > 4096: O(n) sums
};

template <class T>
Expected<T> expected_for(const KernelSpec &k) {
  Expected<T> e;
  std::size_t n = std::size_t(k.n);
  std::mt19937_64 rng(std::uint64_t(k.n) * 7919u + k.inverse);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  e.input.resize(n);
  for (std::size_t i = 0; i < n; ++i) e.input[i] = {T(uniform(rng)), T(uniform(rng))};
  int sign = k.inverse ? +1 : -1;
  auto exact_input = test::convert<long double>(e.input);
  e.reference = test::accurate_dft(exact_input, sign);
  if (n > 4096)  // fftwl was the reference: spot-check some outputs with the O(n) sum
    for (std::size_t i : {std::size_t(0), std::size_t(1), n / 3, n / 2, n - 1})
      e.entries.emplace_back(i, test::reference_dft_entry(exact_input, i, sign));
  if constexpr (std::is_same_v<T, float>)
    e.fftw = test::fftwf_dft(e.input, sign);
  else
    e.fftw = test::fftw_dft(e.input, sign);
  return e;
}

template <class T>
void check_kernel(const test::SharedObject &lib, const KernelSpec &k, const Expected<T> &e, std::size_t x_offset,
                  std::size_t y_offset) {
  SCOPED_TRACE(fmt::format("{} (x at 64k+{}, y at 64k+{} bytes)", k.name(), x_offset, y_offset));
  auto *kernel = lib.symbol<void(T *, const T *)>(k.name());
  std::size_t n = std::size_t(k.n);
  const std::vector<std::complex<T>> &input = e.input;
  Misaligned<T> x(2 * n, x_offset), y(2 * n, y_offset);
  for (std::size_t i = 0; i < n; ++i) x.data[2 * i] = input[i].real(), x.data[2 * i + 1] = input[i].imag();
  std::fill(y.data, y.data + 2 * n, T(std::nan("")));
  kernel(y.data, x.data);

  std::vector<std::complex<T>> output(n);
  for (std::size_t i = 0; i < n; ++i) {
    output[i] = {y.data[2 * i], y.data[2 * i + 1]};
    ASSERT_EQ(x.data[2 * i], input[i].real()) << "input modified";
    ASSERT_EQ(x.data[2 * i + 1], input[i].imag()) << "input modified";
  }
  double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  double tolerance = 5 * eps * std::max(1.0, std::log2(double(n)));
  double error = test::relative_rms_error(output, e.reference);
  EXPECT_LE(error, tolerance) << "relative RMS error against the long-double reference";
  worst_error_in_eps = std::max(worst_error_in_eps, error / (tolerance / 5));
  long double scale = std::sqrt((long double)n);  // |y_k| ~ sqrt(n) for random input
  for (const auto &[i, exact] : e.entries) {
    std::complex<long double> got(output[i].real(), output[i].imag());
    EXPECT_LE(double(std::abs(got - exact) / scale), 4 * tolerance) << "output " << i;
  }
  double fftw_error = test::relative_rms_error(output, e.fftw);
  EXPECT_LE(fftw_error, 2 * tolerance) << "relative RMS error against FFTW3";
  // The kernel is a pure function: a second call on the same input gives the same bits.
  std::vector<T> first(y.data, y.data + 2 * n);
  kernel(y.data, x.data);
  EXPECT_EQ(0, std::memcmp(first.data(), y.data, 2 * n * sizeof(T))) << "not deterministic";
}

template <class T>
void check_kernel_at_offsets(const test::SharedObject &lib, const KernelSpec &k) {
  Expected<T> e = expected_for<T>(k);
  for (auto [x_offset, y_offset] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}})
    check_kernel<T>(lib, k, e, x_offset, y_offset);
}

// -Og: optimised enough for GCC's flow warnings (an uninitialised read in generated code fails
// -Werror) and for the kernels to run as compiled code, at 3/4 of -O1's compile time (76% on
// 32 avx512 kernels of 65..128 points: 8.0 s against 10.5 s), which is most of this suite's
// time. The OptimisedBuild tests compile at -O3 -march=native.
void generate_compile_and_check(const std::vector<KernelSpec> &kernels, const std::string &flags = "-Og") {
  test::TempDir dir("splgen-kernels");
  std::string unity;
  for (const KernelSpec &k : kernels) {
    driver::GenOptions options;
    options.name = k.name();
    options.precision = k.precision;
    options.inverse = k.inverse;
    options.isa = k.isa;
    options.masked_remainders = k.masked;
    driver::PipelineResult r = driver::run_pipeline(fmt::format("DFT({})", k.n), options);
    unity += fmt::format("#include \"{}\"\n", dir.write(k.name() + ".cpp", r.source));
  }
  // One translation unit: generated files must compile together, and the intrinsics
  // headers are parsed once rather than once per kernel.
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", flags);
  for (const KernelSpec &k : kernels)
    if (!host_supports(k.isa))
      GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(k.isa) << " code";
  test::SharedObject lib(so);
  worst_error_in_eps = 0;
  for (const KernelSpec &k : kernels) {
    if (k.precision == Precision::Float)
      check_kernel_at_offsets<float>(lib, k);
    else
      check_kernel_at_offsets<double>(lib, k);
  }
  std::printf("worst relative RMS error: %.3f eps*log2(n)\n", worst_error_in_eps);
}

std::vector<int64_t> range(int64_t lo, int64_t hi) {
  std::vector<int64_t> out;
  for (int64_t n = lo; n <= hi; ++n) out.push_back(n);
  return out;
}

// Split so that ctest -j runs the compilations in parallel.
TEST(Kernels, Sizes1To24) { generate_compile_and_check(all_variants(range(1, 24))); }
TEST(Kernels, Sizes25To40) { generate_compile_and_check(all_variants(range(25, 40))); }
TEST(Kernels, Sizes41To56) { generate_compile_and_check(all_variants(range(41, 56))); }
TEST(Kernels, Sizes57To72) { generate_compile_and_check(all_variants(range(57, 72))); }
TEST(Kernels, Sizes73To88) { generate_compile_and_check(all_variants(range(73, 88))); }
TEST(Kernels, Sizes89To104) { generate_compile_and_check(all_variants(range(89, 104))); }
TEST(Kernels, Sizes105To116) { generate_compile_and_check(all_variants(range(105, 116))); }
TEST(Kernels, Sizes117To128) { generate_compile_and_check(all_variants(range(117, 128))); }

TEST(Kernels, PowersOfTwo2e8To2e14) {
  generate_compile_and_check(all_variants({256, 512, 1024, 2048, 4096, 8192, 16384}));
}
TEST(Kernels, PowersOfTwo2e15To2e20) {
  generate_compile_and_check(all_variants({1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20}));
}
// Out of cache, not powers of two: blocks of columns and the transposition with other radices.
TEST(Kernels, LargeComposites) { generate_compile_and_check(all_variants({98304, 100000})); }
TEST(Kernels, Composites) {
  generate_compile_and_check(all_variants({144, 150, 192, 243, 360, 625, 1000, 1536, 3000, 3072, 6561, 10000, 30030}));
}
TEST(Kernels, PrimesAndPrimeFactors) {
  generate_compile_and_check(all_variants({131, 257, 509, 1009, 2 * 131, 3 * 257, 64 * 37}));
}
TEST(Kernels, OptimisedBuild) {  // the flags a user would build with
  generate_compile_and_check(all_variants({8, 60, 64, 1024}), "-O3 -march=native");
}

// The SIMD backends: every size of the lists above, through the vectorised loops.
class SimdKernels : public ::testing::TestWithParam<Isa> {};

TEST_P(SimdKernels, Sizes1To64) { generate_compile_and_check(all_variants(range(1, 64), GetParam())); }
TEST_P(SimdKernels, Sizes65To128) { generate_compile_and_check(all_variants(range(65, 128), GetParam())); }
TEST_P(SimdKernels, PowersOfTwo2e8To2e14) {
  generate_compile_and_check(all_variants({256, 512, 1024, 2048, 4096, 8192, 16384}, GetParam()));
}
TEST_P(SimdKernels, PowersOfTwo2e15To2e20) {
  generate_compile_and_check(all_variants({1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20}, GetParam()));
}
TEST_P(SimdKernels, LargeComposites) { generate_compile_and_check(all_variants({98304, 100000}, GetParam())); }
TEST_P(SimdKernels, CompositesAndPrimes) {
  generate_compile_and_check(all_variants({144, 150, 192, 243, 360, 625, 1000, 1536, 3000, 3072, 6561, 10000, 30030,
                                           131, 257, 509, 1009, 2 * 131, 3 * 257, 64 * 37},
                                          GetParam()));
}
TEST_P(SimdKernels, OptimisedBuild) {
  generate_compile_and_check(all_variants({8, 12, 60, 64, 100, 1000, 1024, 3072}, GetParam()), "-O3 -march=native");
}

// AVX-512 with --masked-remainders: every remainder shape of the sizes up to 64 and some composites.
TEST(Kernels, MaskedRemainders) {
  std::vector<KernelSpec> kernels = all_variants(range(2, 64), Isa::Avx512);
  for (KernelSpec &k : all_variants({100, 1000, 3000, 30030}, Isa::Avx512)) kernels.push_back(k);
  for (KernelSpec &k : kernels) k.masked = true;
  generate_compile_and_check(kernels);
}

INSTANTIATE_TEST_SUITE_P(Isa, SimdKernels, ::testing::Values(Isa::Sse2, Isa::Avx2, Isa::Avx512),
                         [](const ::testing::TestParamInfo<Isa> &info) { return isa_name(info.param); });

TEST(Kernels, SameInputSameBytes) {
  for (const char *spec : {"DFT(12)", "DFT(48)", "DFT(1024)", "DFT(97)"})
    for (Isa isa : {Isa::Scalar, Isa::Avx2}) {
      driver::GenOptions options;
      options.isa = isa;
      EXPECT_EQ(driver::run_pipeline(spec, options).source, driver::run_pipeline(spec, options).source) << spec;
    }
}

}  // namespace
}  // namespace splgen
