// Batches of real transforms with FFTW's advanced-interface layouts, and the real-to-real
// kinds in place (docs/transforms.md, "Layouts"): compiled, run at misaligned pointers,
// against FFTW3's plan_many_dft_r2c / _c2r / plan_many_r2r on the same memory (WHT: none) and
// the long-double sum of the definition for every transform. Strides count reals on a real
// side and complex numbers on a complex one, as FFTW's.
#include <gtest/gtest.h>

#include <fftw3.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include "generator/driver/io_layout.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/real_kind.h"
#include "generator/measure/real_fftw.h"
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
  bool split = false;  // the complex side in two arrays (double only)
  bool real_in() const { return kind != RealKind::IRDFT; }
  bool real_out() const { return kind != RealKind::RDFT; }
  std::string spec() const { return fmt::format("{}({})", real_kind_name(kind), n); }
  driver::IoLayoutOptions io() const {
    driver::IoLayoutOptions o;
    o.batch = batch, o.istride = istride, o.ostride = ostride, o.idist = idist, o.odist = odist, o.in_place = in_place;
    o.split = split;
    return o;
  }
  // where the kernel's sides lie (in place: FFTW's padded layout by default), as the driver says
  driver::IoSide in() const { return driver::io_input_side(parse::parse_formula(spec()), io()); }
  driver::IoSide out() const { return driver::io_output_side(parse::parse_formula(spec()), io()); }
};

// The long-double sum of the definition; above 4096 points (O(n^2): minutes) fftwl's plan.
std::vector<long double> reference(RealKind kind, int64_t n, const std::vector<long double> &x) {
  if (n > 4096 && (kind == RealKind::RDFT || kind == RealKind::IRDFT)) return measure::fftwl_real(kind, {int(n)}, x);
  return test::real_reference(kind, n, x);
}

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
    std::vector<long double> want = reference(c.kind, c.n, one);
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

// A real DFT in split format (FFTW's plan_guru_split_dft_r2c / _c2r): the complex side in two
// arrays, r2c NAME(yr, yi, x), c2r NAME(y, xr, xi); against FFTW's split guru plan on the
// same memory and the long-double reference, the gaps of every array untouched.
void check_split(const test::SharedObject &lib, const RealCase &c, const std::string &name, std::size_t offset) {
  SCOPED_TRACE(fmt::format("{} {} split batch {} istride {} idist {} ostride {} odist {} (+{})", name, c.spec(), c.batch,
                           c.istride, c.in().dist, c.ostride, c.out().dist, offset));
  const bool r2c = c.kind == RealKind::RDFT;
  const driver::IoSide in = c.in(), out = c.out(), &real = r2c ? in : out, &cplx_side = r2c ? out : in;
  const std::size_t rn = std::size_t(reals_of(real, c.batch)), cn = std::size_t(reals_of(cplx_side, c.batch) / 2);
  std::mt19937_64 rng(std::uint64_t(c.n * 29 + c.batch));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> r(rn, 777.0), re(cn, 777.0), im(cn, 777.0);  // the reals, the complex side's two arrays
  if (r2c)
    for (double &v : r) v = u(rng);
  else
    for (std::size_t i = 0; i < cn; ++i) re[i] = u(rng), im[i] = u(rng);
  for (int64_t b = 0; !r2c && b < c.batch; ++b) {  // the imaginary parts c2r ignores
    im[std::size_t(b * in.dist)] = 0;
    if (c.n % 2 == 0) im[std::size_t(b * in.dist + c.n / 2 * in.stride)] = 0;
  }
  test::Misaligned<double> rm(rn, offset), rem(cn, offset + 8), imm(cn, 24 - offset);
  std::copy(r.begin(), r.end(), rm.data), std::copy(re.begin(), re.end(), rem.data), std::copy(im.begin(), im.end(), imm.data);
  if (r2c) lib.symbol<void(double *, double *, const double *)>(name)(rem.data, imm.data, rm.data);
  else lib.symbol<void(double *, const double *, const double *)>(name)(rm.data, rem.data, imm.data);
  // FFTW's split guru plan on copies of the same memory
  std::vector<double> fr = r, fre = re, fim = im;
  fftw_iodim64 dim{c.n, in.stride, out.stride}, many{c.batch, in.dist, out.dist};
  fftw_plan p = r2c ? fftw_plan_guru64_split_dft_r2c(1, &dim, 1, &many, fr.data(), fre.data(), fim.data(), FFTW_ESTIMATE)
                    : fftw_plan_guru64_split_dft_c2r(1, &dim, 1, &many, fre.data(), fim.data(), fr.data(),
                                                     FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
  ASSERT_NE(p, nullptr);
  fftw_execute(p);
  fftw_destroy_plan(p);
  std::vector<bool> written(r2c ? cn : rn, false);
  long double err = 0, norm = 0, ferr = 0;
  auto compare = [&](double got, double fftw, long double want) {
    err += (got - want) * (got - want), norm += want * want, ferr += (got - fftw) * (got - fftw);
  };
  for (int64_t b = 0; b < c.batch; ++b) {
    std::vector<long double> one;
    for (int64_t j = 0; j < in.n; ++j) {
      const std::size_t at = std::size_t(b * in.dist + j * in.stride);
      if (r2c) one.push_back(r[at]);
      else one.push_back(re[at]), one.push_back(im[at]);
    }
    const std::vector<long double> want = reference(c.kind, c.n, one);
    for (int64_t k = 0; k < out.n; ++k) {
      const std::size_t at = std::size_t(b * out.dist + k * out.stride);
      written[at] = true;
      if (r2c) compare(rem.data[at], fre[at], want[std::size_t(2 * k)]), compare(imm.data[at], fim[at], want[std::size_t(2 * k + 1)]);
      else compare(rm.data[at], fr[at], want[std::size_t(k)]);
    }
  }
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (written[i]) continue;
    if (r2c) ASSERT_EQ(rem.data[i], 777.0) << "yr " << i << " is outside the layout";
    if (r2c) ASSERT_EQ(imm.data[i], 777.0) << "yi " << i << " is outside the layout";
    if (!r2c) ASSERT_EQ(rm.data[i], 777.0) << "y " << i << " is outside the layout";
  }
  for (std::size_t i = 0; r2c && i < rn; ++i) ASSERT_EQ(rm.data[i], r[i]) << "input modified at " << i;
  for (std::size_t i = 0; !r2c && i < cn; ++i) ASSERT_TRUE(rem.data[i] == re[i] && imm.data[i] == im[i]) << "input modified at " << i;
  const double tolerance = 8 * DBL_EPSILON * std::max(1.0, std::log2(double(c.n)));
  EXPECT_LE(double(std::sqrt(err / std::max(norm, 1e-300L))), tolerance) << "against the long-double reference";
  EXPECT_LE(double(std::sqrt(ferr / std::max(norm, 1e-300L))), 2 * tolerance) << "against FFTW3";
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
      if (cases[i].split) check_split(lib, cases[i], fmt::format("r{}", i), xo);
      else if (precision == Precision::Float) check<float>(lib, cases[i], fmt::format("r{}", i), xo / 2, yo / 2);
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

// Split format: one transform, a batch, a strided batch with gaps.
std::vector<RealCase> split_cases(const std::vector<int64_t> &sizes) {
  std::vector<RealCase> out;
  for (RealKind kind : {RealKind::RDFT, RealKind::IRDFT})
    for (int64_t n : sizes) {
      const int64_t c = n / 2 + 1;
      const bool r2c = kind == RealKind::RDFT;
      RealCase one{kind, n}, batch{kind, n, 3}, strided{kind, n, 8, 1, 2, n + 3, 2 * c + 1};
      if (!r2c) strided = RealCase{kind, n, 8, 2, 1, 2 * c + 1, n + 3};
      for (RealCase k : {one, batch, strided}) {
        k.split = true;
        out.push_back(k);
      }
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
TEST(IoLayoutRealKernels, RealDftSplitScalar) { generate_compile_and_check(split_cases(small_sizes()), Isa::Scalar); }
TEST(IoLayoutRealKernels, RealDftSplitAvx2) { generate_compile_and_check(split_cases({1, 2, 6, 16, 17, 64, 97, 1000}), Isa::Avx2); }
TEST(IoLayoutRealKernels, RealDftSplitAvx512) { generate_compile_and_check(split_cases({2, 16, 33, 128}), Isa::Avx512); }
TEST(IoLayoutRealKernels, RealDftInPlaceLarge) {
  std::vector<RealCase> cases = real_dft_cases({4096, 65536}, true);
  for (RealCase c : split_cases({4096, 65536}))
    if (c.batch == 1) cases.push_back(c);
  generate_compile_and_check(cases, Isa::Avx2);
}

// Multi-dimensional real transforms in embedding arrays (FFTW's plan_many_dft_r2c / _c2r /
// plan_many_r2r with inembed/onembed; the complex side of RDFT/IRDFT(a x b) is a x (b/2+1),
// its embedding counted in complex numbers): against FFTW's guru plan of the same memory and
// fftwl on the logical data; y's padding keeps its sentinel. c2r reads Hermitian input (the
// r2c of real data), where FFTW's multi-dimensional c2r is defined.
struct NdCase {
  RealKind kind;
  std::vector<int> dims;
  std::vector<int64_t> inembed, onembed;
  int64_t batch = 1, istride = 1, ostride = 1;
  std::optional<int64_t> idist, odist;
  std::string spec() const {
    std::string d;
    for (int n : dims) d += (d.empty() ? "" : " x ") + std::to_string(n);
    return fmt::format("{}({})", real_kind_name(kind), d);
  }
  bool real_in() const { return kind != RealKind::IRDFT; }
  bool real_out() const { return kind != RealKind::RDFT; }
  std::vector<int64_t> side_dims(bool real) const {  // the complex side's last dimension halved
    std::vector<int64_t> d(dims.begin(), dims.end());
    if (!real) d.back() = d.back() / 2 + 1;
    return d;
  }
};

// FFTW's place of element j (row-major over dims) in an embedding array, times the stride.
int64_t nd_place(const std::vector<int64_t> &dims, const std::vector<int64_t> &embed, int64_t stride, int64_t j) {
  int64_t pos = 0, pitch = 1;
  for (std::size_t k = dims.size(); k-- > 0;) {
    pos += j % dims[k] * pitch;
    j /= dims[k], pitch *= embed.empty() ? dims[k] : embed[k];
  }
  return pos * stride;
}

struct NdSide {
  std::vector<int64_t> dims, embed;
  int64_t stride, dist, reals;  // reals per element
  int64_t n() const {
    int64_t p = 1;
    for (int64_t d : dims) p *= d;
    return p;
  }
  int64_t at(int64_t b, int64_t j) const { return reals * (b * dist + nd_place(dims, embed, stride, j)); }
};

NdSide nd_side(const NdCase &c, bool input) {
  NdSide s{c.side_dims(input ? c.real_in() : c.real_out()), input ? c.inembed : c.onembed, input ? c.istride : c.ostride,
           0, (input ? c.real_in() : c.real_out()) ? 1 : 2};
  int64_t array = 1;
  for (int64_t e : s.embed.empty() ? s.dims : s.embed) array *= e;
  s.dist = (input ? c.idist : c.odist).value_or(array * s.stride);
  return s;
}

// FFTW's guru64 plan: dimension k steps by the stride times the embedding below it.
std::vector<double> nd_fftw(const NdCase &c, const NdSide &in, const NdSide &out, std::vector<double> x, std::size_t y_reals) {
  std::vector<double> y(y_reals, 777);
  std::vector<fftw_iodim64> dims(c.dims.size());
  std::ptrdiff_t is = c.istride, os = c.ostride;
  for (std::size_t k = c.dims.size(); k-- > 0;) {
    dims[k] = {c.dims[k], is, os};
    is *= in.embed.empty() ? in.dims[k] : in.embed[k];
    os *= out.embed.empty() ? out.dims[k] : out.embed[k];
  }
  fftw_iodim64 many{c.batch, in.dist, out.dist};
  const int rank = int(dims.size());
  fftw_plan p;
  if (c.kind == RealKind::RDFT)
    p = fftw_plan_guru64_dft_r2c(rank, dims.data(), 1, &many, x.data(), reinterpret_cast<fftw_complex *>(y.data()), FFTW_ESTIMATE);
  else if (c.kind == RealKind::IRDFT)
    p = fftw_plan_guru64_dft_c2r(rank, dims.data(), 1, &many, reinterpret_cast<fftw_complex *>(x.data()), y.data(),
                                 FFTW_ESTIMATE);  // x is a copy: FFTW's multi-dimensional c2r may overwrite it
  else {
    std::vector<fftw_r2r_kind> kinds(c.dims.size(), fftw_r2r_kind(measure::fftw_r2r_kind_of(c.kind)));
    p = fftw_plan_guru64_r2r(rank, dims.data(), 1, &many, x.data(), y.data(), kinds.data(), FFTW_ESTIMATE);
  }
  if (!p) return {};
  fftw_execute(p);
  fftw_destroy_plan(p);
  return y;
}

void check_nd(const test::SharedObject &lib, const NdCase &c, const std::string &name, std::size_t xo, std::size_t yo) {
  SCOPED_TRACE(fmt::format("{} {} batch {} istride {} ostride {} inembed [{}] onembed [{}] (x +{}, y +{})", name, c.spec(),
                           c.batch, c.istride, c.ostride, fmt::join(c.inembed, "x"), fmt::join(c.onembed, "x"), xo, yo));
  const NdSide in = nd_side(c, true), out = nd_side(c, false);
  const std::size_t x_reals = std::size_t(in.at(c.batch - 1, in.n() - 1) + in.reals);
  const std::size_t y_reals = std::size_t(out.at(c.batch - 1, out.n() - 1) + out.reals);
  std::mt19937_64 rng(std::uint64_t(in.n() * 29 + c.batch));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(x_reals);
  for (double &v : x) v = u(rng);
  std::vector<std::vector<long double>> logical(std::size_t(c.batch));
  for (int64_t b = 0; b < c.batch; ++b) {
    std::vector<long double> one(std::size_t(in.n() * in.reals));
    for (long double &v : one) v = u(rng);
    if (c.kind == RealKind::IRDFT) {  // Hermitian: the half spectrum of real data, rounded to double
      std::vector<long double> reals(std::size_t(out.n()));
      for (long double &v : reals) v = u(rng);
      one = measure::fftwl_real(RealKind::RDFT, c.dims, reals);
      for (long double &v : one) v = double(v);
    }
    for (int64_t j = 0; j < in.n(); ++j)
      for (int64_t p = 0; p < in.reals; ++p) x[std::size_t(in.at(b, j) + p)] = double(one[std::size_t(j * in.reals + p)]);
    logical[std::size_t(b)] = one;
  }
  test::Misaligned<double> xm(x_reals, xo), ym(y_reals, yo);
  std::copy(x.begin(), x.end(), xm.data);
  std::fill(ym.data, ym.data + y_reals, 777.0);
  lib.symbol<void(double *, const double *)>(name)(ym.data, xm.data);
  const std::vector<double> fftw = nd_fftw(c, in, out, x, y_reals);
  ASSERT_FALSE(fftw.empty()) << "FFTW plans every case";
  std::vector<bool> written(y_reals, false);
  long double err = 0, ferr = 0, norm = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    const std::vector<long double> want = measure::fftwl_real(c.kind, c.dims, logical[std::size_t(b)]);
    for (int64_t k = 0; k < out.n(); ++k)
      for (int64_t p = 0; p < out.reals; ++p) {
        const std::size_t at = std::size_t(out.at(b, k) + p);
        const long double w = want[std::size_t(k * out.reals + p)];
        written[at] = true;
        err += (ym.data[at] - w) * (ym.data[at] - w), ferr += (ym.data[at] - fftw[at]) * (ym.data[at] - fftw[at]);
        norm += w * w;
      }
  }
  for (std::size_t i = 0; i < y_reals; ++i) {
    if (written[i]) continue;
    ASSERT_EQ(ym.data[i], 777.0) << "real " << i << " is outside the layout";
  }
  for (std::size_t i = 0; i < x_reals; ++i) ASSERT_EQ(xm.data[i], x[i]) << "input modified at " << i;
  const double tolerance = 8 * DBL_EPSILON * std::max(1.0, std::log2(double(in.n() + out.n())));
  EXPECT_LE(double(std::sqrt(err / norm)), tolerance) << "against fftwl";
  EXPECT_LE(double(std::sqrt(ferr / norm)), 2 * tolerance) << "against FFTW3's plan of the same embedding";
}

void generate_compile_and_check_nd(const std::vector<NdCase> &cases, Isa isa) {
  test::TempDir dir("splgen-io-layouts-real-nd");
  std::string unity;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const NdCase &c = cases[i];
    driver::GenOptions o;
    o.name = fmt::format("e{}", i);
    o.isa = isa;
    o.io.batch = c.batch, o.io.istride = c.istride, o.io.ostride = c.ostride, o.io.idist = c.idist, o.io.odist = c.odist;
    o.io.inembed = c.inembed, o.io.onembed = c.onembed;
    unity += fmt::format("#include \"{}\"\n", dir.write(o.name + ".cpp", driver::run_pipeline(c.spec(), o).source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", "-Og");
  if (!host_supports(isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(isa) << " code";
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (auto [xo, yo] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}})
      check_nd(lib, cases[i], fmt::format("e{}", i), xo, yo);
}

std::vector<NdCase> embedded_nd_cases() {
  const RealKind r2c = RealKind::RDFT, c2r = RealKind::IRDFT;
  return {
      {r2c, {4, 6}, {4, 8}, {5, 5}},                              // rows padded; the complex side 4 x 4 in 5 x 5
      {r2c, {4, 6}, {5, 7}, {4, 4}, 3, 2},                        // batch, strided real side
      {r2c, {5, 7}, {5, 9}, {6, 6}, 2, 1, 2},                     // odd last dimension (5 x 4 complex), strided output
      {r2c, {2, 3, 4}, {2, 4, 5}, {3, 3, 4}, 2},                  // 3D
      {r2c, {8, 16}, {8, 18}, {}, 3, 1, 1, 8 * 18 + 6},           // the real side embedded, gaps between
      {c2r, {4, 6}, {4, 6}, {4, 9}, 2},                           // the complex side 4 x 4 in 4 x 6
      {c2r, {5, 7}, {6, 5}, {5, 8}, 3, 2, 1, {}, 50},             // strided input, odist with gaps
      {c2r, {2, 3, 4}, {2, 3, 4}, {2, 5, 6}},                     // 3D
      {RealKind::DCT2, {4, 6}, {4, 8}, {5, 7}, 2},                // r2r
      {RealKind::DST3, {3, 5}, {}, {3, 6}, 2, 1, 3},              // r2r, strided output
  };
}

TEST(IoLayoutRealKernels, EmbeddedMultiDimScalar) { generate_compile_and_check_nd(embedded_nd_cases(), Isa::Scalar); }
TEST(IoLayoutRealKernels, EmbeddedMultiDimAvx2) { generate_compile_and_check_nd(embedded_nd_cases(), Isa::Avx2); }

TEST(IoLayoutRealKernels, BatchesAndInPlaceScalar) { generate_compile_and_check(real_cases(), Isa::Scalar); }
TEST(IoLayoutRealKernels, BatchesAndInPlaceAvx2) { generate_compile_and_check(real_cases(), Isa::Avx2); }

}  // namespace
}  // namespace splgen
