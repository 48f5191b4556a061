// Generated kernels of the real transforms (RDFT, IRDFT, WHT, DCT2/3/4, DST2/3/4;
// docs/transforms.md) against FFTW3's matching plan (r2c, c2r, r2r) and an O(n^2) sum of the
// definitions in long double, at misaligned pointers, scalar and with the vector ISAs.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include "generator/driver/pipeline.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/misaligned.h"
#include "tests/support/real_reference.h"

namespace splgen {
namespace {

struct RealSpec {
  RealKind kind;
  int64_t n;
  Isa isa = Isa::Scalar;
  std::string text() const { return fmt::format("{}({})", real_kind_name(kind), n); }
  std::string name() const { return fmt::format("r{}_{}_{}", real_kind_name(kind), n, isa_name(isa)); }
  // Reals in x and y as the kernel holds them.
  std::size_t in_reals() const { return std::size_t(kind == RealKind::IRDFT ? 2 * (n / 2 + 1) : n); }
  std::size_t out_reals() const { return std::size_t(kind == RealKind::RDFT ? 2 * (n / 2 + 1) : n); }
};

using Misaligned = test::Misaligned<double>;  // tests/support/misaligned.h

double worst_error_in_eps = 0;

std::vector<double> random_input(const RealSpec &k) {
  std::mt19937_64 rng(std::uint64_t(k.n) * 7919u + std::uint64_t(k.kind));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> x(k.in_reals());
  for (double &v : x) v = uniform(rng);
  if (k.kind == RealKind::IRDFT) {  // the imaginary parts c2r ignores: 0, so FFTW sees the same
    x[1] = 0;
    if (k.n % 2 == 0) x[std::size_t(k.n + 1)] = 0;
  }
  return x;
}


void check_kernel(const test::SharedObject &lib, const RealSpec &k, std::size_t x_offset, std::size_t y_offset) {
  SCOPED_TRACE(fmt::format("{} {} (x at 64k+{}, y at 64k+{} bytes)", k.text(), isa_name(k.isa), x_offset, y_offset));
  auto *kernel = lib.symbol<void(double *, const double *)>(k.name());
  std::vector<double> input = random_input(k);
  Misaligned x(input.size(), x_offset), y(k.out_reals() + 2, y_offset);
  std::copy(input.begin(), input.end(), x.data);
  std::fill(y.data, y.data + k.out_reals() + 2, std::nan(""));
  kernel(y.data, x.data);
  for (std::size_t i = 0; i < input.size(); ++i) ASSERT_EQ(x.data[i], input[i]) << "input modified";
  for (std::size_t i = k.out_reals(); i < k.out_reals() + 2; ++i) ASSERT_TRUE(std::isnan(y.data[i])) << "wrote past y";
  std::vector<double> output(y.data, y.data + k.out_reals());

  std::vector<long double> exact_in(input.begin(), input.end());
  double tolerance = 5 * DBL_EPSILON * std::max(1.0, std::log2(double(k.n))) * (k.n > 32 ? std::sqrt(double(k.n) / 32) : 1);
  bool large = k.n > 4096 && k.kind != RealKind::WHT;  // fftwl is the reference there
  double error = test::relative_rms(output, large ? measure::fftwl_real(k.kind, {int(k.n)}, exact_in)
                                            : test::real_reference(k.kind, k.n, exact_in));
  EXPECT_LE(error, tolerance) << "relative RMS error against the long-double reference";
  worst_error_in_eps = std::max(worst_error_in_eps, error / DBL_EPSILON);
  if (k.kind != RealKind::WHT) {
    std::vector<double> fftw = test::fftw_real(k.kind, {int(k.n)}, input);
    EXPECT_LE(test::relative_rms(output, std::vector<long double>(fftw.begin(), fftw.end())), 2 * tolerance)
        << "relative RMS error against FFTW3";
  }
  std::vector<double> first = output;  // a pure function: the same bits again
  kernel(y.data, x.data);
  EXPECT_EQ(0, std::memcmp(first.data(), y.data, first.size() * sizeof(double))) << "not deterministic";
}

void generate_compile_and_check(const std::vector<RealSpec> &kernels) {
  test::TempDir dir("splgen-real-kernels");
  std::string unity;
  for (const RealSpec &k : kernels) {
    driver::GenOptions options;
    options.name = k.name();
    options.isa = k.isa;
    driver::PipelineResult r = driver::run_pipeline(k.text(), options);
    unity += fmt::format("#include \"{}\"\n", dir.write(k.name() + ".cpp", r.source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", "-Og");
  for (const RealSpec &k : kernels)
    if (!host_supports(k.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(k.isa) << " code";
  test::SharedObject lib(so);
  worst_error_in_eps = 0;
  for (const RealSpec &k : kernels)
    for (auto [xo, yo] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}}) check_kernel(lib, k, xo, yo);
  std::cout << fmt::format("[ worst relative RMS error: {:.2f} eps ]\n", worst_error_in_eps);
}

std::vector<RealSpec> specs(std::initializer_list<RealKind> kinds, const std::vector<int64_t> &sizes, Isa isa) {
  std::vector<RealSpec> out;
  for (RealKind kind : kinds)
    for (int64_t n : sizes) out.push_back({kind, n, isa});
  return out;
}

std::vector<int64_t> range(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t n = lo; n <= hi; ++n) v.push_back(n);
  return v;
}

class RealKernels : public ::testing::TestWithParam<Isa> {};

// Every ISA: the codelets and the rules' small blocks.
TEST_P(RealKernels, RealDftSizes1To64) {
  generate_compile_and_check(specs({RealKind::RDFT, RealKind::IRDFT}, range(1, 64), GetParam()));
}

TEST_P(RealKernels, TrigonometricSizes1To32) {
  generate_compile_and_check(specs({RealKind::DCT2, RealKind::DCT3, RealKind::DCT4, RealKind::DST2, RealKind::DST3,
                                    RealKind::DST4}, range(1, 32), GetParam()));
}

TEST_P(RealKernels, WalshHadamard) {
  generate_compile_and_check(specs({RealKind::WHT}, {1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 1 << 14}, GetParam()));
}

TEST_P(RealKernels, RealDftLargePowersOfTwo) {
  generate_compile_and_check(specs({RealKind::RDFT, RealKind::IRDFT}, {1 << 16, 1 << 20}, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Isa, RealKernels, ::testing::Values(Isa::Scalar, Isa::Avx2),
                         [](const auto &info) { return std::string(isa_name(info.param)); });

// Scalar only (the vector code paths are those of the tests above): the other sizes.
TEST(RealKernelSizes, RealDftSizes65To128) {
  generate_compile_and_check(specs({RealKind::RDFT, RealKind::IRDFT}, range(65, 128), Isa::Scalar));
}

TEST(RealKernelSizes, RealDftPrimesAndPowersOfTwo) {
  generate_compile_and_check(specs({RealKind::RDFT, RealKind::IRDFT}, {131, 257, 1009, 256, 1024, 4096, 1 << 13},
                                   Isa::Scalar));
}

TEST(RealKernelSizes, TrigonometricLarger) {
  std::vector<RealSpec> k = specs({RealKind::DCT2, RealKind::DCT3, RealKind::DCT4, RealKind::DST2, RealKind::DST3,
                                   RealKind::DST4}, {37, 48, 64, 97, 128}, Isa::Scalar);
  // By rdft.rules' dct2_rdft and dct3_irdft, trig.rules' dst2_dct2, dst3_dct3, dct4_half and
  // dst4_dct4 (99, 1001, 4095: odd DCT4s by dct4_odd; 2^14: DFT(2^13) split in three).
  for (RealSpec s : specs({RealKind::DCT2, RealKind::DCT3, RealKind::DCT4, RealKind::DST2, RealKind::DST3,
                           RealKind::DST4}, {256, 1000, 4096}, Isa::Avx2))
    k.push_back(s);
  for (RealSpec s : specs({RealKind::DCT4, RealKind::DST4}, {99, 1001, 4095, 1 << 14}, Isa::Avx2)) k.push_back(s);
  generate_compile_and_check(k);
}

}  // namespace
}  // namespace splgen
