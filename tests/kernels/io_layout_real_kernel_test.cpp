// Batches of real transforms with FFTW's advanced-interface layouts, and the real-to-real
// kinds in place (docs/transforms.md, "Layouts"): compiled, run at misaligned pointers,
// against FFTW3's plan_many_dft_r2c / _c2r / plan_many_r2r on the same memory (WHT: none) and
// the long-double sum of the definition for every transform. Strides count reals on a real
// side and complex numbers on a complex one, as FFTW's.
#include <gtest/gtest.h>

#include <fftw3.h>
#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include "generator/driver/io_layout.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/real_kind.h"
#include "generator/parse/formula_parser.h"
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
  bool real_in() const { return kind != RealKind::IRDFT; }
  bool real_out() const { return kind != RealKind::RDFT; }
  std::string spec() const { return fmt::format("{}({})", real_kind_name(kind), n); }
  driver::IoLayoutOptions io() const {
    driver::IoLayoutOptions o;
    o.batch = batch, o.istride = istride, o.ostride = ostride, o.idist = idist, o.odist = odist, o.in_place = in_place;
    return o;
  }
  // where the kernel's sides lie (in place: FFTW's padded layout by default), as the driver says
  driver::IoSide in() const { return driver::io_input_side(parse::parse_formula(spec()), io()); }
  driver::IoSide out() const { return driver::io_output_side(parse::parse_formula(spec()), io()); }
};

int64_t reals_of(const driver::IoSide &s, int64_t batch) {
  return (s.real ? 1 : 2) * ((batch - 1) * s.dist + (s.n - 1) * s.stride + 1);
}

// FFTW's guru plan of the case (double) on a copy of the memory: y's reals (in place: the buffer).
std::vector<double> fftw_many(const RealCase &c, const std::vector<double> &x, std::size_t y_reals) {
  std::vector<double> in = x, out(y_reals);
  double *o = c.in_place ? in.data() : out.data();
  const driver::IoSide i = c.in(), u = c.out();
  fftw_iodim64 dim{c.n, i.stride, u.stride}, many{c.batch, i.dist, u.dist};
  fftw_plan p;
  if (c.kind == RealKind::RDFT)
    p = fftw_plan_guru64_dft_r2c(1, &dim, 1, &many, in.data(), reinterpret_cast<fftw_complex *>(o), FFTW_ESTIMATE);
  else if (c.kind == RealKind::IRDFT)  // in place the input is overwritten anyway
    p = fftw_plan_guru64_dft_c2r(1, &dim, 1, &many, reinterpret_cast<fftw_complex *>(in.data()), o,
                                 FFTW_ESTIMATE | (c.in_place ? 0 : FFTW_PRESERVE_INPUT));
  else {
    auto kind = fftw_r2r_kind(measure::fftw_r2r_kind_of(c.kind));
    p = fftw_plan_guru64_r2r(1, &dim, 1, &many, in.data(), o, &kind, FFTW_ESTIMATE);
  }
  if (!p) return {};  // a layout FFTW does not plan: the long-double reference alone
  fftw_execute(p);
  fftw_destroy_plan(p);
  return c.in_place ? in : out;
}

template <class T>
void check(const test::SharedObject &lib, const RealCase &c, const std::string &name, std::size_t xo, std::size_t yo) {
  SCOPED_TRACE(fmt::format("{} {} {} batch {} istride {} idist {} ostride {} odist {}{} (x +{}, y +{})", name,
                           sizeof(T) == 4 ? "float" : "double", c.spec(), c.batch, c.istride, c.in().dist, c.ostride,
                           c.out().dist, c.in_place ? " in-place" : "", xo, yo));
  const driver::IoSide in = c.in(), out = c.out();
  const int64_t ie = in.real ? 1 : 2, oe = out.real ? 1 : 2;  // reals per element
  std::size_t x_reals = std::size_t(reals_of(in, c.batch)), y_reals = std::size_t(reals_of(out, c.batch));
  if (c.in_place) x_reals = y_reals = std::max(x_reals, y_reals);  // one buffer
  std::mt19937_64 rng(std::uint64_t(c.n * 17 + c.batch));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(x_reals);
  for (double &v : x) v = T(u(rng));
  if (c.kind == RealKind::IRDFT)  // the imaginary parts c2r ignores
    for (int64_t b = 0; b < c.batch; ++b) {
      x[std::size_t(2 * b * in.dist + 1)] = 0;
      if (c.n % 2 == 0) x[std::size_t(2 * (b * in.dist + c.n / 2 * in.stride) + 1)] = 0;
    }
  test::Misaligned<T> xm(x_reals, xo), ym(y_reals, yo);
  std::copy(x.begin(), x.end(), xm.data);
  std::fill(ym.data, ym.data + y_reals, T(777));
  if (c.in_place) lib.symbol<void(T *)>(name)(xm.data);
  else lib.symbol<void(T *, const T *)>(name)(ym.data, xm.data);
  const T *y = c.in_place ? xm.data : ym.data;
  const std::vector<double> fftw =
      c.kind == RealKind::WHT || sizeof(T) == 4 ? std::vector<double>{} : fftw_many(c, x, y_reals);
  std::vector<bool> written(y_reals, false), read(x_reals, false);
  long double err = 0, norm = 0, ferr = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    std::vector<long double> one;
    for (int64_t j = 0; j < in.n; ++j)
      for (int64_t p = 0; p < ie; ++p) {
        const std::size_t at = std::size_t(ie * (b * in.dist + j * in.stride) + p);
        one.push_back(x[at]), read[at] = true;
      }
    std::vector<long double> want = test::real_reference(c.kind, c.n, one);
    for (int64_t k = 0; k < out.n; ++k)
      for (int64_t p = 0; p < oe; ++p) {
        std::size_t at = std::size_t(oe * (b * out.dist + k * out.stride) + p);
        long double w = want[std::size_t(oe * k + p)];
        written[at] = true;
        err += (y[at] - w) * (y[at] - w), norm += w * w;
        if (!fftw.empty()) ferr += (y[at] - fftw[at]) * (y[at] - fftw[at]);
      }
  }
  // The gaps keep what was there: the input's reals in place (also those only the input
  // covers: the kernel writes nothing but its outputs), 777 out of place.
  for (std::size_t i = 0; i < written.size(); ++i)
    if (!written[i]) ASSERT_EQ(y[i], c.in_place ? T(x[i]) : T(777)) << "real " << i << " is outside the layout";
  if (!c.in_place)
    for (std::size_t i = 0; i < x_reals; ++i) ASSERT_EQ(xm.data[i], T(x[i])) << "input modified at " << i;
  const double eps = sizeof(T) == 4 ? FLT_EPSILON : DBL_EPSILON;
  const double tolerance = 8 * eps * std::max(1.0, std::log2(double(c.n)));
  EXPECT_LE(double(std::sqrt(err / std::max(norm, 1e-300L))), tolerance) << "against the long-double reference";
  if (!fftw.empty()) EXPECT_LE(double(std::sqrt(ferr / std::max(norm, 1e-300L))), 2 * tolerance) << "against FFTW3";
}

void generate_compile_and_check(const std::vector<RealCase> &cases, Isa isa, Precision precision = Precision::Double) {
  test::TempDir dir("splgen-io-layouts-real");
  std::string unity;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    driver::GenOptions o;
    o.name = fmt::format("r{}", i);
    o.isa = isa, o.precision = precision;
    o.io = cases[i].io();
    unity += fmt::format("#include \"{}\"\n", dir.write(o.name + ".cpp", driver::run_pipeline(cases[i].spec(), o).source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", "-Og");
  if (!host_supports(isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(isa) << " code";
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (auto [xo, yo] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}}) {
      if (precision == Precision::Float) check<float>(lib, cases[i], fmt::format("r{}", i), xo / 2, yo / 2);
      else check<double>(lib, cases[i], fmt::format("r{}", i), xo, yo);
    }
}

std::vector<RealCase> real_cases() {
  std::vector<RealCase> out;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT, RealKind::DCT2, RealKind::DCT3, RealKind::DST2})
    for (int64_t n : {1, 2, 7, 12, 64, 97}) {
      if (n == 1 && kind != RealKind::RDFT && kind != RealKind::IRDFT) continue;
      const int64_t in = kind == RealKind::IRDFT ? n / 2 + 1 : n, out_n = kind == RealKind::RDFT ? n / 2 + 1 : n;
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

// RDFT and IRDFT in FFTW's padded in-place layout (one buffer, each transform's real side in
// 2 (n/2+1) reals), and batches whose real side is read (written) packed, two reals as one
// complex number, where its stride is 1 and its distance even; also where it is not.
std::vector<RealCase> real_dft_cases(const std::vector<int64_t> &sizes, bool large) {
  std::vector<RealCase> out;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT})
    for (int64_t n : sizes) {
      const int64_t c = n / 2 + 1;                         // complex elements of one transform
      const bool r2c = kind == RealKind::RDFT;
      out.push_back({kind, n, 1, 1, 1, {}, {}, true});      // in place, padded
      if (large) continue;
      out.push_back({kind, n, 3, 1, 1, {}, {}, true});      // in place, contiguous padded batch
      // in place, the complex side strided, transforms 2 (2c + 3) reals apart
      out.push_back(r2c ? RealCase{kind, n, 8, 1, 2, 2 * (2 * c + 3), {}, true}
                        : RealCase{kind, n, 8, 2, 1, {}, 2 * (2 * c + 3), true});
      // in place, the real side strided (not packable): a view of its own
      out.push_back(r2c ? RealCase{kind, n, 3, 2, 1, {}, 2 * n + 2, true} : RealCase{kind, n, 3, 1, 2, 2 * n + 2, {}, true});
      // out of place: batches packed (stride 1, even distance), and not (odd distance)
      out.push_back({kind, n, 8});
      out.push_back(r2c ? RealCase{kind, n, 3, 1, 2, 2 * n + 4, 2 * c + 1} : RealCase{kind, n, 3, 2, 1, 2 * c + 1, 2 * n + 4});
      out.push_back(r2c ? RealCase{kind, n, 3, 1, 1, n + 1, c} : RealCase{kind, n, 3, 1, 1, c, n + 1});
    }
  return out;
}

std::vector<int64_t> small_sizes() {
  std::vector<int64_t> n;
  for (int64_t i = 1; i <= 33; ++i) n.push_back(i);
  for (int64_t i : {64, 97, 128, 1000}) n.push_back(i);
  return n;
}

TEST(IoLayoutRealKernels, RealDftInPlaceAndPackedBatchesScalar) { generate_compile_and_check(real_dft_cases(small_sizes(), false), Isa::Scalar); }
TEST(IoLayoutRealKernels, RealDftInPlaceAndPackedBatchesAvx2) {
  generate_compile_and_check(real_dft_cases({1, 2, 5, 6, 8, 12, 16, 17, 32, 33, 64, 97, 128, 1000}, false), Isa::Avx2);
}
TEST(IoLayoutRealKernels, RealDftInPlaceAndPackedBatchesAvx512) {
  generate_compile_and_check(real_dft_cases({2, 6, 16, 33, 64, 128, 1000}, false), Isa::Avx512);
}
TEST(IoLayoutRealKernels, RealDftInPlaceAndPackedBatchesFloat) {
  generate_compile_and_check(real_dft_cases({1, 4, 7, 16, 30, 64, 97, 1000}, false), Isa::Avx2, Precision::Float);
}
TEST(IoLayoutRealKernels, RealDftInPlaceLarge) {
  generate_compile_and_check(real_dft_cases({4096, 65536}, true), Isa::Avx2);
}

TEST(IoLayoutRealKernels, BatchesAndInPlaceScalar) { generate_compile_and_check(real_cases(), Isa::Scalar); }
TEST(IoLayoutRealKernels, BatchesAndInPlaceAvx2) { generate_compile_and_check(real_cases(), Isa::Avx2); }

}  // namespace
}  // namespace splgen
