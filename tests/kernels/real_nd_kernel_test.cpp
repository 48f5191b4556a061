// Generated kernels of the multi-dimensional real transforms (RDFT(m x n ...), IRDFT, the
// DCTs, DSTs and WHT of rank 2 and 3; docs/transforms.md) against FFTW3's rank-d plans
// (plan_dft_r2c, plan_dft_c2r, plan_r2r with the kind along every dimension) and a direct
// sum of the definitions in long double, at misaligned pointers, scalar and vector ISAs.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

#include "generator/driver/pipeline.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/misaligned.h"
#include "tests/support/real_reference.h"

namespace splgen {
namespace {

struct NdSpec {
  RealKind kind;
  std::vector<int> dims;
  Isa isa = Isa::Scalar;
  int64_t batch = 1;  // contiguous transforms, FFTW's howmany
  std::string text() const { return fmt::format("{}({})", real_kind_name(kind), fmt::join(dims, " x ")); }
  std::string name() const {
    return fmt::format("nd{}_{}_{}_b{}", real_kind_name(kind), fmt::join(dims, "x"), isa_name(isa), batch);
  }
  int64_t points() const {
    int64_t n = 1;
    for (int d : dims) n *= d;
    return n;
  }
  std::size_t in_reals() const { return std::size_t(measure::real_kind_in_reals(kind, dims)); }
  std::size_t out_reals() const { return std::size_t(measure::real_kind_out_reals(kind, dims)); }
};

using Misaligned = test::Misaligned<double>;

// Index i of a row-major array of the given extents, as its coordinates.
std::vector<int64_t> coordinates(int64_t i, const std::vector<int64_t> &extents) {
  std::vector<int64_t> c(extents.size());
  for (std::size_t d = extents.size(); d-- > 0;) c[d] = i % extents[d], i /= extents[d];
  return c;
}

// sum_d j_d k_d / n_d in turns, each term reduced exactly in integers.
long double phase(const std::vector<int64_t> &j, const std::vector<int64_t> &k, const std::vector<int> &dims) {
  long double turns = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) turns += (long double)((j[d] * k[d]) % dims[d]) / dims[d];
  return turns - std::floor(turns);
}

constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;

// The definitions, directly. r2c: Y_k = sum_j x_j w^(j.k), k_last <= n_last/2. c2r:
// y_j = Re sum_k c(k_last) X_k w^(-j.k), c = 1 at k_last = 0 and n_last/2, 2 between (the
// Hermitian extension's sum). r2r: the product of the kind's 1D kernels, from the 1D reference.
std::vector<long double> reference(const NdSpec &s, const std::vector<long double> &x) {
  std::vector<int64_t> full(s.dims.begin(), s.dims.end()), half = full;
  half.back() = full.back() / 2 + 1;
  const int64_t n = s.points(), h = n / full.back() * half.back(), last = full.back();
  std::vector<long double> y;
  if (s.kind == RealKind::RDFT) {
    for (int64_t k = 0; k < h; ++k) {
      long double re = 0, im = 0;
      for (int64_t j = 0; j < n; ++j) {
        long double a = kTwoPi * phase(coordinates(j, full), coordinates(k, half), s.dims);
        re += x[std::size_t(j)] * std::cos(a), im -= x[std::size_t(j)] * std::sin(a);
      }
      y.push_back(re), y.push_back(im);
    }
    return y;
  }
  if (s.kind == RealKind::IRDFT) {
    for (int64_t j = 0; j < n; ++j) {
      long double sum = 0;
      for (int64_t k = 0; k < h; ++k) {
        std::vector<int64_t> kc = coordinates(k, half);
        long double weight = (kc.back() == 0 || 2 * kc.back() == last) ? 1 : 2;
        long double a = kTwoPi * phase(coordinates(j, full), kc, s.dims);
        sum += weight * (x[std::size_t(2 * k)] * std::cos(a) - x[std::size_t(2 * k + 1)] * std::sin(a));
      }
      y.push_back(sum);
    }
    return y;
  }
  std::vector<std::vector<long double>> kernels;  // kernels[d][k * n_d + j]
  for (int d : s.dims) {
    std::vector<long double> m(std::size_t(d) * std::size_t(d));
    for (int j = 0; j < d; ++j) {
      std::vector<long double> e(std::size_t(d), 0);
      e[std::size_t(j)] = 1;
      std::vector<long double> column = test::real_reference(s.kind, d, e);
      for (int k = 0; k < d; ++k) m[std::size_t(k * d + j)] = column[std::size_t(k)];
    }
    kernels.push_back(std::move(m));
  }
  for (int64_t k = 0; k < n; ++k) {
    std::vector<int64_t> kc = coordinates(k, full);
    long double sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      std::vector<int64_t> jc = coordinates(j, full);
      long double term = x[std::size_t(j)];
      for (std::size_t d = 0; d < full.size() && term != 0; ++d)
        term *= kernels[d][std::size_t(kc[d] * full[d] + jc[d])];
      sum += term;
    }
    y.push_back(sum);
  }
  return y;
}

// Random reals; for c2r the r2c of random reals (scaled to about 1), Hermitian as FFTW needs.
std::vector<double> random_input(const NdSpec &s) {
  std::mt19937_64 rng(std::uint64_t(s.points()) * 7919u + std::uint64_t(s.kind) * 31u + s.dims.size());
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  if (s.kind != RealKind::IRDFT) {
    std::vector<double> x(s.in_reals());
    for (double &v : x) v = uniform(rng);
    return x;
  }
  std::vector<long double> reals(std::size_t(s.points()));
  for (long double &v : reals) v = uniform(rng);
  std::vector<long double> half = measure::fftwl_real(RealKind::RDFT, s.dims, std::move(reals));
  std::vector<double> x;
  for (long double v : half) x.push_back(double(v / std::sqrt((long double)s.points())));
  return x;
}

void check_transform(const NdSpec &s, const std::vector<double> &input, const std::vector<double> &output);

// Each transform of the batch against the references, on its slice of x and y.
void check_kernel(const test::SharedObject &lib, const NdSpec &s, std::size_t x_offset, std::size_t y_offset) {
  SCOPED_TRACE(fmt::format("{} {} batch {} (x at 64k+{}, y at 64k+{} bytes)", s.text(), isa_name(s.isa), s.batch,
                           x_offset, y_offset));
  auto *kernel = lib.symbol<void(double *, const double *)>(s.name());
  const std::size_t in = s.in_reals(), out = s.out_reals(), batch = std::size_t(s.batch);
  std::vector<double> inputs;
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> one = random_input(s);
    for (double &v : one) v *= double(b + 1);
    inputs.insert(inputs.end(), one.begin(), one.end());
  }
  Misaligned x(inputs.size(), x_offset), y(batch * out + 2, y_offset);
  std::copy(inputs.begin(), inputs.end(), x.data);
  std::fill(y.data, y.data + batch * out + 2, std::nan(""));
  kernel(y.data, x.data);
  for (std::size_t i = 0; i < inputs.size(); ++i) ASSERT_EQ(x.data[i], inputs[i]) << "input modified";
  for (std::size_t i = batch * out; i < batch * out + 2; ++i) ASSERT_TRUE(std::isnan(y.data[i])) << "wrote past y";
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> input(inputs.begin() + std::ptrdiff_t(b * in), inputs.begin() + std::ptrdiff_t((b + 1) * in));
    std::vector<double> output(y.data + b * out, y.data + (b + 1) * out);
    check_transform(s, input, output);
  }
  std::vector<double> first(y.data, y.data + batch * out);
  kernel(y.data, x.data);
  EXPECT_EQ(0, std::memcmp(first.data(), y.data, first.size() * sizeof(double))) << "not deterministic";
}

void check_transform(const NdSpec &s, const std::vector<double> &input, const std::vector<double> &output) {
  const double n = double(s.points());
  const double tolerance = 5 * DBL_EPSILON * std::max(1.0, std::log2(n)) * (n > 32 ? std::sqrt(n / 32) : 1);
  std::vector<long double> exact_in(input.begin(), input.end());
  const bool large = s.points() > 4096 && s.kind != RealKind::WHT;  // fftwl is the reference there
  EXPECT_LE(test::relative_rms(output, large ? measure::fftwl_real(s.kind, s.dims, exact_in) : reference(s, exact_in)), tolerance)
      << "relative RMS error against the long-double reference";
  if (s.kind != RealKind::WHT) {
    std::vector<double> fftw = test::fftw_real(s.kind, s.dims, input);
    EXPECT_LE(test::relative_rms(output, std::vector<long double>(fftw.begin(), fftw.end())), 2 * tolerance)
        << "relative RMS error against FFTW3";
  }
}

void generate_compile_and_check(const std::vector<NdSpec> &specs) {
  test::TempDir dir("splgen-real-nd-kernels");
  std::string unity;
  for (const NdSpec &s : specs) {
    driver::GenOptions options;
    options.name = s.name();
    options.isa = s.isa;
    options.io.batch = s.batch;
    driver::PipelineResult r = driver::run_pipeline(s.text(), options);
    unity += fmt::format("#include \"{}\"\n", dir.write(s.name() + ".cpp", r.source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", "-Og");
  for (const NdSpec &s : specs)
    if (!host_supports(s.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(s.isa) << " code";
  test::SharedObject lib(so);
  for (const NdSpec &s : specs)
    for (auto [xo, yo] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}}) check_kernel(lib, s, xo, yo);
}

std::vector<NdSpec> specs(std::initializer_list<RealKind> kinds, const std::vector<std::vector<int>> &shapes, Isa isa) {
  std::vector<NdSpec> out;
  for (RealKind kind : kinds)
    for (const std::vector<int> &dims : shapes) out.push_back({kind, dims, isa});
  return out;
}

class RealNdKernels : public ::testing::TestWithParam<Isa> {};

// Odd and even last dimensions (the halved one), unit dimensions, rank 3.
TEST_P(RealNdKernels, RealDfts) {
  generate_compile_and_check(specs({RealKind::RDFT, RealKind::IRDFT},
                                   {{2, 2}, {2, 3}, {3, 2}, {4, 6}, {5, 3}, {3, 5}, {6, 7}, {8, 8}, {7, 9}, {16, 10},
                                    {1, 8}, {8, 1}, {2, 3, 4}, {3, 4, 5}, {4, 3, 2}, {2, 1, 3}, {32, 32}, {64, 48}},
                                   GetParam()));
}

TEST_P(RealNdKernels, RealToReal) {
  std::vector<NdSpec> k = specs({RealKind::DCT2, RealKind::DCT3, RealKind::DCT4, RealKind::DST2, RealKind::DST3,
                                 RealKind::DST4}, {{2, 3}, {4, 4}, {5, 3}, {8, 6}, {1, 5}, {2, 3, 4}, {16, 16}}, GetParam());
  for (NdSpec s : specs({RealKind::WHT}, {{2, 4}, {4, 8}, {2, 2, 8}, {16, 64}}, GetParam())) k.push_back(s);
  generate_compile_and_check(k);
}

INSTANTIATE_TEST_SUITE_P(Isa, RealNdKernels, ::testing::Values(Isa::Scalar, Isa::Avx2, Isa::Avx512),
                         [](const auto &info) { return std::string(isa_name(info.param)); });

// Batches (FFTW's howmany, contiguous): I(b) (x) KIND(dims) through the same rules.
TEST(RealNdKernelLayouts, ContiguousBatches) {
  std::vector<NdSpec> k;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT, RealKind::DCT2, RealKind::DST4})
    for (const std::vector<int> &dims : std::vector<std::vector<int>>{{4, 6}, {3, 5}, {2, 3, 4}})
      for (Isa isa : {Isa::Scalar, Isa::Avx2}) k.push_back({kind, dims, isa, 3});
  generate_compile_and_check(k);
}

// Larger shapes, against fftwl: the vector code of the DFT stages over many columns.
TEST(RealNdKernelSizes, Larger) {
  std::vector<NdSpec> k = specs({RealKind::RDFT, RealKind::IRDFT}, {{256, 256}, {100, 60}, {32, 32, 32}, {9, 1000}},
                                Isa::Avx2);
  for (NdSpec s : specs({RealKind::DCT2, RealKind::DCT3}, {{64, 128}}, Isa::Avx2)) k.push_back(s);
  generate_compile_and_check(k);
}

}  // namespace
}  // namespace splgen
