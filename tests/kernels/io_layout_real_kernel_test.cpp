// Batches of real transforms with FFTW's advanced-interface layouts, and the real-to-real
// kinds in place (docs/transforms.md, "Layouts"): compiled, run at misaligned pointers,
// against FFTW3's plan_many_dft_r2c / _c2r / plan_many_r2r on the same memory (WHT: none) and
// the long-double sum of the definition for every transform. Strides count reals on a real
// side and complex numbers on a complex one, as FFTW's.
#include <gtest/gtest.h>

#include <fftw3.h>
#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include "generator/driver/pipeline.h"
#include "generator/ir/real_kind.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/misaligned.h"
#include "tests/support/real_reference.h"

namespace splgen {
namespace {

struct RealCase {
  RealKind kind;
  int64_t n;
  int64_t batch = 1, istride = 1, ostride = 1;
  std::optional<int64_t> idist, odist;
  bool in_place = false;
  // reals per element and elements per transform on each side
  bool real_in() const { return kind != RealKind::IRDFT; }
  bool real_out() const { return kind != RealKind::RDFT; }
  int64_t in_n() const { return kind == RealKind::IRDFT ? n / 2 + 1 : n; }
  int64_t out_n() const { return kind == RealKind::RDFT ? n / 2 + 1 : n; }
  int64_t in_dist() const { return idist.value_or(in_n() * istride); }
  int64_t out_dist() const { return odist.value_or(out_n() * ostride); }
  std::string spec() const { return fmt::format("{}({})", real_kind_name(kind), n); }
};

// FFTW's many-plan of the case on copies of the memory: y's reals.
std::vector<double> fftw_many(const RealCase &c, const std::vector<double> &x, std::size_t y_reals) {
  std::vector<double> in = x, out(y_reals);
  double *o = c.in_place ? in.data() : out.data();
  int n = int(c.n), B = int(c.batch);
  fftw_plan p;
  if (c.kind == RealKind::RDFT)
    p = fftw_plan_many_dft_r2c(1, &n, B, in.data(), nullptr, int(c.istride), int(c.in_dist()),
                               reinterpret_cast<fftw_complex *>(o), nullptr, int(c.ostride), int(c.out_dist()), FFTW_ESTIMATE);
  else if (c.kind == RealKind::IRDFT)
    p = fftw_plan_many_dft_c2r(1, &n, B, reinterpret_cast<fftw_complex *>(in.data()), nullptr, int(c.istride),
                               int(c.in_dist()), o, nullptr, int(c.ostride), int(c.out_dist()),
                               FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
  else {
    auto kind = fftw_r2r_kind(measure::fftw_r2r_kind_of(c.kind));
    p = fftw_plan_many_r2r(1, &n, B, in.data(), nullptr, int(c.istride), int(c.in_dist()), o, nullptr, int(c.ostride),
                           int(c.out_dist()), &kind, FFTW_ESTIMATE);
  }
  fftw_execute(p);
  fftw_destroy_plan(p);
  return c.in_place ? in : out;
}

void check(const test::SharedObject &lib, const RealCase &c, const std::string &name, std::size_t xo, std::size_t yo) {
  SCOPED_TRACE(fmt::format("{} {} batch {} istride {} idist {} ostride {} odist {}{} (x +{}, y +{})", name, c.spec(),
                           c.batch, c.istride, c.in_dist(), c.ostride, c.out_dist(), c.in_place ? " in-place" : "", xo, yo));
  const int64_t ie = c.real_in() ? 1 : 2, oe = c.real_out() ? 1 : 2;  // reals per element
  const std::size_t x_reals = std::size_t(ie * ((c.batch - 1) * c.in_dist() + (c.in_n() - 1) * c.istride + 1));
  const std::size_t y_reals = std::size_t(oe * ((c.batch - 1) * c.out_dist() + (c.out_n() - 1) * c.ostride + 1));
  std::mt19937_64 rng(std::uint64_t(c.n * 17 + c.batch));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(x_reals);
  for (double &v : x) v = u(rng);
  if (c.kind == RealKind::IRDFT)  // the imaginary parts c2r ignores
    for (int64_t b = 0; b < c.batch; ++b) {
      x[std::size_t(2 * b * c.in_dist() + 1)] = 0;
      if (c.n % 2 == 0) x[std::size_t(2 * (b * c.in_dist() + c.n / 2 * c.istride) + 1)] = 0;
    }
  test::Misaligned<double> xm(x_reals, xo), ym(y_reals, yo);
  std::copy(x.begin(), x.end(), xm.data);
  std::fill(ym.data, ym.data + y_reals, 777.0);
  if (c.in_place) lib.symbol<void(double *)>(name)(xm.data);
  else lib.symbol<void(double *, const double *)>(name)(ym.data, xm.data);
  const double *y = c.in_place ? xm.data : ym.data;
  const std::vector<double> fftw = c.kind == RealKind::WHT ? std::vector<double>{} : fftw_many(c, x, y_reals);
  std::vector<bool> written(c.in_place ? x_reals : y_reals, false);
  long double err = 0, norm = 0, ferr = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    std::vector<long double> one;
    for (int64_t j = 0; j < c.in_n(); ++j)
      for (int64_t p = 0; p < ie; ++p) one.push_back(x[std::size_t(ie * (b * c.in_dist() + j * c.istride) + p)]);
    std::vector<long double> want = test::real_reference(c.kind, c.n, one);
    for (int64_t k = 0; k < c.out_n(); ++k)
      for (int64_t p = 0; p < oe; ++p) {
        std::size_t at = std::size_t(oe * (b * c.out_dist() + k * c.ostride) + p);
        long double w = want[std::size_t(oe * k + p)];
        written[at] = true;
        err += (y[at] - w) * (y[at] - w), norm += w * w;
        if (!fftw.empty()) ferr += (y[at] - fftw[at]) * (y[at] - fftw[at]);
      }
  }
  for (std::size_t i = 0; i < written.size(); ++i)
    if (!written[i]) ASSERT_EQ(y[i], c.in_place ? x[i] : 777.0) << "real " << i << " is outside the layout";
  if (!c.in_place)
    for (std::size_t i = 0; i < x_reals; ++i) ASSERT_EQ(xm.data[i], x[i]) << "input modified at " << i;
  const double tolerance = 8 * DBL_EPSILON * std::max(1.0, std::log2(double(c.n)));
  EXPECT_LE(double(std::sqrt(err / norm)), tolerance) << "against the long-double reference";
  if (!fftw.empty()) EXPECT_LE(double(std::sqrt(ferr / norm)), 2 * tolerance) << "against FFTW3";
}

void generate_compile_and_check(const std::vector<RealCase> &cases, Isa isa) {
  test::TempDir dir("splgen-io-layouts-real");
  std::string unity;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    driver::GenOptions o;
    o.name = fmt::format("r{}", i);
    o.isa = isa;
    o.io.batch = cases[i].batch, o.io.istride = cases[i].istride, o.io.ostride = cases[i].ostride;
    o.io.idist = cases[i].idist, o.io.odist = cases[i].odist, o.io.in_place = cases[i].in_place;
    unity += fmt::format("#include \"{}\"\n", dir.write(o.name + ".cpp", driver::run_pipeline(cases[i].spec(), o).source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", "-Og");
  if (!host_supports(isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(isa) << " code";
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (auto [xo, yo] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}}) check(lib, cases[i], fmt::format("r{}", i), xo, yo);
}

std::vector<RealCase> real_cases() {
  std::vector<RealCase> out;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT, RealKind::DCT2, RealKind::DCT3, RealKind::DST2})
    for (int64_t n : {1, 2, 7, 12, 64, 97}) {
      if (n == 1 && kind != RealKind::RDFT && kind != RealKind::IRDFT) continue;
      RealCase c{kind, n};
      const int64_t in = c.in_n(), out_n = c.out_n();
      out.push_back({kind, n, 5});                                    // contiguous batch
      out.push_back({kind, n, 3, 3, 3, 1, 1});                        // batches interleaved element by element
      out.push_back({kind, n, 3, 2, 3, 2 * in + 1, 3 * out_n + 2});   // gaps inside and between
      if (kind != RealKind::RDFT && kind != RealKind::IRDFT) {
        out.push_back({kind, n, 4, 1, 1, {}, {}, true});               // r2r in place
        out.push_back({kind, n, 3, 2, 2, 2 * n + 1, 2 * n + 1, true}); // in place, strided
      }
    }
  for (int64_t n : {2, 16, 256}) {
    out.push_back({RealKind::WHT, n, 3, 2, 1, 2 * n, n});
    out.push_back({RealKind::WHT, n, 2, 1, 1, {}, {}, true});
  }
  return out;
}

TEST(IoLayoutRealKernels, BatchesAndInPlaceScalar) { generate_compile_and_check(real_cases(), Isa::Scalar); }
TEST(IoLayoutRealKernels, BatchesAndInPlaceAvx2) { generate_compile_and_check(real_cases(), Isa::Avx2); }

}  // namespace
}  // namespace splgen
