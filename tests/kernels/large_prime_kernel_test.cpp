// Large primes, whose Rader and Bluestein tables (backends/cpp/computed_diag.h) and Rader's
// permutations (backends/cpp/computed_lut.h) the kernel computes on first use instead of
// printing them: the computed tables against the values the generator prints, and the kernels
// against FFTW3 and the long-double reference, forward and inverse. Kept to O(n log n) checks
// (FFTW, fftwl) plus O(n) sums at a few bins: the suite runs on 2 cores.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "backends/cpp/computed_diag.h"
#include "backends/cpp/computed_lut.h"
#include "generator/driver/pipeline.h"
#include "generator/rewrite/functions.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/reference.h"

namespace splgen {
namespace {

// The Diag of a rule function's formula (Rader's is the second term of its direct sum).
Spl rule_diag(const std::string &name, const std::vector<int64_t> &args) {
  Spl f = rewrite::find_rule_function(name)->make(args);
  return f->kind == SplKind::DirectSum ? f->children.back() : f;
}

// Every Diag recipe, forward and inverse, above the printed size: the table the kernel
// computes equals the literals the generator would print, bit for bit (the file carries the
// generator's long double DFT, operation for operation), whole and as strided subsets.
TEST(LargePrimeTables, ComputedEqualsPrinted) {
  struct Case {
    std::string fn;
    std::vector<int64_t> args;
    int64_t first, step;
  };
  const int64_t n = 4099, M = rewrite::bluestein_size(n);  // M = 10240: mixed radix
  std::vector<Case> cases = {
      {"chirp", {5003, 1}, 0, 1},         {"chirp", {5003, -1}, 3, 7},     {"chirp_fft", {n, M, 1}, 0, 1},
      {"chirp_fft", {n, M, -1}, 5, 4},    {"rader_diag", {4099, 1}, 0, 1},  // 4098 = 2 3 683: Bluestein inside
      {"rader_diag", {4099, -1}, 2, 3},   {"rader_diag", {4129, 1}, 0, 1},  // 4128 = 2^5 3 43: mixed radix
  };
  test::TempDir dir("splgen-tables");
  std::string source = "#include <cmath>\n#include <complex>\n#include <limits>\n#include <map>\n#include <utility>\n#include <vector>\n";
  source += backends::computed_diag_helpers(true, true);
  std::vector<std::vector<cplx>> printed;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Spl d = rule_diag(cases[i].fn, cases[i].args);
    ASSERT_EQ(d->kind, SplKind::Diag);
    Buffer b;
    b.role = BufferRole::Table;
    b.diag_recipe = d->recipe, b.diag_first = cases[i].first, b.diag_step = cases[i].step;
    const std::vector<cplx> &all = diag_values(*d);  // lazy: computed by the generator now
    for (int64_t q = cases[i].first; q < d->rows; q += cases[i].step) b.values.push_back(all[std::size_t(q)]);
    b.size = int64_t(b.values.size());
    ASSERT_TRUE(backends::is_computed_diag(b)) << cases[i].fn;
    printed.push_back(b.values);
    source += backends::computed_diag_table(fmt::format("t{}", i), b, "double");
    source += fmt::format("extern \"C\" const double *table{0}() {{ return t{0}_values(); }}\n", i);
  }
  test::SharedObject lib(test::compile_shared_object({dir.write("tables.cpp", source)}, dir.file("tables.so"), "", "-O2"));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const double *t = lib.symbol<const double *()>(fmt::format("table{}", i))();
    int64_t differ = 0;
    for (std::size_t q = 0; q < printed[i].size(); ++q)
      differ += t[2 * q] != printed[i][q].real() || t[2 * q + 1] != printed[i][q].imag();
    EXPECT_EQ(differ, 0) << cases[i].fn << "(" << fmt::format("{}", fmt::join(cases[i].args, ", ")) << ")";
  }
}

// Rader's permutations above 4096 entries, forward and inverse: the table the kernel computes
// (backends/cpp/computed_lut.h) is the one the generator would print.
TEST(LargePrimeTables, ComputedLutEqualsPrinted) {
  const std::vector<std::pair<std::string, int64_t>> cases = {
      {"rader_perm", 4099}, {"rader_out", 4099}, {"rader_perm", 65537}, {"rader_out", 1048573}};
  test::TempDir dir("splgen-luts");
  std::string source = "#include <vector>\n";
  std::vector<std::vector<int64_t>> printed;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    printed.push_back(rewrite::find_rule_function(cases[i].first)->make({cases[i].second})->perm);
    std::optional<backends::PowerLut> l = backends::computed_lut(printed.back());
    ASSERT_TRUE(l) << cases[i].first << "(" << cases[i].second << ")";
    source += backends::computed_lut_table(fmt::format("lut{}", i), *l, "int");
    source += fmt::format("extern \"C\" const int *table{0}() {{ return lut{0}_values(); }}\n", i);
  }
  test::SharedObject lib(test::compile_shared_object({dir.write("luts.cpp", source)}, dir.file("luts.so"), "", "-O2"));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const int *t = lib.symbol<const int *()>(fmt::format("table{}", i))();
    int64_t differ = 0;
    for (std::size_t q = 0; q < printed[i].size(); ++q) differ += t[q] != printed[i][q];
    EXPECT_EQ(differ, 0) << cases[i].first << "(" << cases[i].second << ")";
  }
}

// Tables of up to 4096 entries stay literals (DFT(1009)); DFT(4099) computes its chirp of 4099
// entries and its kernel spectrum of 10240.
TEST(LargePrimeTables, PrintedUpToTheBound) {
  const std::string marker = "computed on first use (backends/cpp/computed_diag.h)";
  driver::GenOptions options;
  EXPECT_EQ(driver::run_pipeline("DFT(1009)", options).source.find(marker), std::string::npos);
  EXPECT_NE(driver::run_pipeline("DFT(4099)", options).source.find(marker), std::string::npos);
}

struct LargeKernel {
  int64_t n;
  bool inverse;
  Precision precision;
  Isa isa;
  std::string name() const {
    return fmt::format("p{}_{}_{}_{}", n, inverse ? "inv" : "fwd", precision == Precision::Float ? "f" : "d", isa_name(isa));
  }
};

template <class T>
void check(const test::SharedObject &lib, const LargeKernel &k) {
  SCOPED_TRACE(k.name());
  const std::size_t n = std::size_t(k.n);
  std::mt19937_64 rng(std::uint64_t(k.n) * 31u + k.inverse);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<T>> input(n);
  for (auto &v : input) v = {T(uniform(rng)), T(uniform(rng))};
  std::vector<T> x(2 * n), y(2 * n, T(std::nan("")));
  for (std::size_t i = 0; i < n; ++i) x[2 * i] = input[i].real(), x[2 * i + 1] = input[i].imag();
  lib.symbol<void(T *, const T *)>(k.name())(y.data(), x.data());
  std::vector<std::complex<T>> output(n);
  for (std::size_t i = 0; i < n; ++i) output[i] = {y[2 * i], y[2 * i + 1]};

  const int sign = k.inverse ? +1 : -1;
  const double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  const double tolerance = 5 * eps * std::log2(double(n));  // as tests/kernels/kernel_test.cpp
  auto exact_input = test::convert<long double>(input);
  const double error = test::relative_rms_error(output, test::fftwl_dft(exact_input, sign));
  EXPECT_LE(error, tolerance) << "against fftwl";
  std::vector<std::complex<T>> fftw;
  if constexpr (std::is_same_v<T, float>)
    fftw = test::fftwf_dft(input, sign);
  else
    fftw = test::fftw_dft(input, sign);
  const double fftw_error = test::relative_rms_error(output, fftw);
  EXPECT_LE(fftw_error, 2 * tolerance) << "against FFTW3";
  std::printf("%s: relative RMS error %.2e against fftwl (%.3f eps*log2(n)), %.2e against FFTW3\n", k.name().c_str(), error,
              error / (tolerance / 5), fftw_error);
  const long double scale = std::sqrt((long double)n);  // |y_r| ~ sqrt(n) for random input
  for (std::size_t r : {std::size_t(0), std::size_t(1), n / 3, n / 2, n - 1}) {
    std::complex<long double> exact = test::reference_dft_entry(exact_input, r, sign), got(output[r].real(), output[r].imag());
    EXPECT_LE(double(std::abs(got - exact) / scale), 4 * tolerance) << "output " << r << " against the O(n) sum";
  }
}

// The most reals of a printed Diag table (`static const double d<rows>_<hash>[reals] = {`) above
// 2 * 4096, else 0.
long largest_printed_diag(const std::string &source) {
  long most = 0;
  for (std::size_t at = source.find("\nstatic const "); at != std::string::npos; at = source.find("\nstatic const ", at + 1)) {
    std::size_t name = source.find(' ', at + 14) + 1, bracket = source.find('[', name);
    if (source[name] != 'd' || bracket == std::string::npos) continue;
    long reals = std::atol(source.c_str() + bracket + 1);
    if (reals > 2 * 4096) most = std::max(most, reals);
  }
  return most;
}

// The most entries of a printed index table (`static const int lut<k>[entries] = {`), else 0.
long largest_printed_lut(const std::string &source) {
  long most = 0;
  for (std::size_t at = source.find(" lut"); at != std::string::npos; at = source.find(" lut", at + 1)) {
    std::size_t bracket = source.find_first_not_of("0123456789", at + 4);
    if (bracket == at + 4 || source[bracket] != '[' || source.compare(at - 3, 3, "int") != 0) continue;
    most = std::max(most, std::atol(source.c_str() + bracket + 1));
  }
  return most;
}

void generate_compile_and_check(const std::vector<LargeKernel> &kernels) {
  test::TempDir dir("splgen-large-primes");
  std::string unity;
  for (const LargeKernel &k : kernels) {
    driver::GenOptions options;
    options.name = k.name();
    options.precision = k.precision;
    options.inverse = k.inverse;
    options.isa = k.isa;
    driver::PipelineResult r = driver::run_pipeline(fmt::format("DFT({})", k.n), options);
    EXPECT_NE(r.source.find("computed on first use (backends/cpp/computed_diag.h)"), std::string::npos) << k.name();
    EXPECT_EQ(largest_printed_diag(r.source), 0) << k.name() << ": a Rader or Bluestein table above 4096 entries printed";
    EXPECT_LE(largest_printed_lut(r.source), 4096) << k.name() << ": a Rader or Bluestein permutation above 4096 entries printed";
    unity += fmt::format("#include \"{}\"\n", dir.write(k.name() + ".cpp", r.source));
  }
  // A user's one-letter macros do not reach the kernels' own names (their long-double helpers).
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "",
                                               "-O1 -DN=1 -DM=2 -DY=3 -DK=4");
  for (const LargeKernel &k : kernels)
    if (!host_supports(k.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(k.isa) << " code";
  test::SharedObject lib(so);
  for (const LargeKernel &k : kernels) {
    if (k.precision == Precision::Float)
      check<float>(lib, k);
    else
      check<double>(lib, k);
  }
}

std::vector<LargeKernel> variants(int64_t n, Isa isa, std::vector<Precision> precisions) {
  std::vector<LargeKernel> out;
  for (bool inverse : {false, true})
    for (Precision p : precisions) out.push_back({n, inverse, p, isa});
  return out;
}

// 65537: Rader over DFT(2^16); 131071: Rader over DFT(131070) = 102 x 1285, with Rader's DFT(257)
// inside; above the old limit of 2^18: 262147, Bluestein over DFT(655360 = 5 2^17) (its chirp and
// kernel spectrum, a mixed-radix long double DFT at initialisation), and 524287, Rader over
// DFT(524286) = 126 x 4161.
TEST(LargePrimeKernels, Scalar) {
  std::vector<LargeKernel> k = variants(65537, Isa::Scalar, {Precision::Double, Precision::Float});
  k.push_back({262147, false, Precision::Double, Isa::Scalar});
  generate_compile_and_check(k);
}
TEST(LargePrimeKernels, Avx2) {
  std::vector<LargeKernel> k = variants(131071, Isa::Avx2, {Precision::Double});
  k.push_back({65537, false, Precision::Float, Isa::Avx2});
  k.push_back({262147, true, Precision::Float, Isa::Avx2});
  generate_compile_and_check(k);
}
TEST(LargePrimeKernels, AboveTheOldLimit) {
  std::vector<LargeKernel> k = variants(524287, Isa::Avx2, {Precision::Double});
  k.push_back({262147, true, Precision::Double, Isa::Avx2});
  generate_compile_and_check(k);
}

}  // namespace
}  // namespace splgen
