// Kernels with FFTW's advanced-interface layouts, in place and in split format
// (docs/transforms.md, "Layouts"), compiled and run at misaligned pointers against FFTW3's
// guru plans (plan_guru64_dft / _split_dft) of the same layout and against the O(n^2) long-double
// DFT of every transform. The output's gaps must keep what was there (nothing written
// outside the layout), and an out-of-place kernel must leave its input alone.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <memory>
#include <optional>
#include <random>

#include "generator/driver/pipeline.h"
#include "generator/measure/fftw_layout.h"
#include "generator/parse/formula_parser.h"
#include "generator/target/target.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/misaligned.h"
#include "tests/support/reference.h"
#include "tests/support/spec_reference.h"

namespace splgen {
namespace {

struct Case {
  std::vector<int> dims;  // DFT(dims[0] x dims[1] ...)
  int64_t batch = 1, istride = 1, ostride = 1;
  std::optional<int64_t> idist, odist;
  bool in_place = false, split = false, inverse = false;
  Precision precision = Precision::Double;
  Isa isa = Isa::Scalar;
  std::vector<int64_t> inembed, onembed;  // FFTW's; empty: dense

  int64_t n() const {
    int64_t p = 1;
    for (int d : dims) p *= d;
    return p;
  }
  // The elements of the array one transform lives in: the embedding's, else the transform's.
  int64_t array(const std::vector<int64_t> &embed) const {
    int64_t p = 1;
    for (int64_t e : embed) p *= e;
    return embed.empty() ? n() : p;
  }
  // Element j (row-major) of a transform from its first: FFTW's sum_k i_k prod_{l>k} embed_l.
  static int64_t place(const std::vector<int> &dims, const std::vector<int64_t> &embed, int64_t stride, int64_t j) {
    int64_t pos = 0, pitch = 1;
    for (std::size_t k = dims.size(); k-- > 0;) {
      pos += j % dims[k] * pitch;
      j /= dims[k], pitch *= embed.empty() ? dims[k] : embed[k];
    }
    return pos * stride;
  }
  int64_t in_at(int64_t b, int64_t j) const { return b * in_dist() + place(dims, inembed, istride, j); }
  int64_t out_at(int64_t b, int64_t j) const { return b * out_dist() + place(dims, onembed, ostride, j); }
  int64_t in_dist() const { return idist.value_or(array(inembed) * istride); }
  int64_t out_dist() const { return odist.value_or(array(onembed) * ostride); }
  int64_t in_range() const { return in_at(batch - 1, n() - 1) + 1; }
  int64_t out_range() const { return out_at(batch - 1, n() - 1) + 1; }
  std::string spec() const {
    std::string s;
    for (int d : dims) s += (s.empty() ? "" : " x ") + std::to_string(d);
    return "DFT(" + s + (inverse && dims.size() > 1 ? ", -1)" : ")");  // --inverse takes 1D specs only
  }
};

// The complex buffer of a kernel, interleaved or split, at a misaligned address.
template <class T>
struct IoBuffer {
  bool split;
  std::size_t size;
  test::Misaligned<T> a, b;  // interleaved: a; split: a real parts, b imaginary parts
  IoBuffer(bool s, std::size_t n, std::size_t offset) : split(s), size(n), a(s ? n : 2 * n, offset), b(s ? n : 0, offset) {}
  std::complex<T> get(std::size_t i) const {
    return split ? std::complex<T>(a.data[i], b.data[i]) : std::complex<T>(a.data[2 * i], a.data[2 * i + 1]);
  }
  void set(std::size_t i, std::complex<T> v) {
    if (split) a.data[i] = v.real(), b.data[i] = v.imag();
    else a.data[2 * i] = v.real(), a.data[2 * i + 1] = v.imag();
  }
};

// FFTW's guru plan of the same layout (measure::FftwLayoutPlan, what bench times) on copies of
// the memory: the logical outputs, transform after transform.
template <class T>
std::vector<std::complex<T>> fftw_outputs(const Case &c, const std::vector<std::complex<T>> &x) {
  const std::size_t out_range = std::size_t(c.in_place ? int64_t(x.size()) : c.out_range());
  std::vector<T> ri(x.size()), ii(x.size()), ro(out_range), io(out_range), in(2 * x.size()), out(2 * out_range);
  for (std::size_t i = 0; i < x.size(); ++i) ri[i] = in[2 * i] = x[i].real(), ii[i] = in[2 * i + 1] = x[i].imag();
  measure::FftwLayout l{c.dims, c.batch, c.istride, c.in_dist(), c.ostride, c.out_dist(), c.split};
  l.inembed = c.inembed, l.onembed = c.onembed;
  const Precision p = std::is_same_v<T, float> ? Precision::Float : Precision::Double;
  const int sign = c.inverse ? 1 : -1;
  T *yr = c.split ? (c.in_place ? ri.data() : ro.data()) : (c.in_place ? in.data() : out.data());
  T *yi = c.split ? (c.in_place ? ii.data() : io.data()) : nullptr;
  measure::FftwLayoutPlan(p, l, sign, measure::FftwEffort::Estimate, c.split ? ri.data() : in.data(),
                          c.split ? ii.data() : nullptr, yr, yi)
      .execute();
  std::vector<std::complex<T>> logical;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t j = 0; j < c.n(); ++j) {
      std::size_t at = std::size_t(c.out_at(b, j));
      logical.push_back(yi ? std::complex<T>(yr[at], yi[at]) : std::complex<T>(yr[2 * at], yr[2 * at + 1]));
    }
  return logical;
}

template <class T>
void check(const test::SharedObject &lib, const Case &c, const std::string &name, std::size_t x_offset, std::size_t y_offset) {
  SCOPED_TRACE(fmt::format("{} {} batch {} istride {} idist {} ostride {} odist {} inembed [{}] onembed [{}]{}{} (x at +{}, "
                           "y at +{})", name, c.spec(), c.batch, c.istride, c.in_dist(), c.ostride, c.out_dist(),
                           fmt::join(c.inembed, "x"), fmt::join(c.onembed, "x"), c.in_place ? " in-place" : "",
                           c.split ? " split" : "", x_offset, y_offset));
  const int64_t n = c.n(), in_range = c.in_range(), out_range = c.out_range();
  std::mt19937_64 rng(std::uint64_t(n * 131 + c.batch));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<T>> x(static_cast<std::size_t>(in_range));
  for (auto &v : x) v = {T(uniform(rng)), T(uniform(rng))};
  IoBuffer<T> xb(c.split, x.size(), x_offset), yb(c.split, std::size_t(out_range), y_offset);
  for (std::size_t i = 0; i < x.size(); ++i) xb.set(i, x[i]);
  const std::complex<T> sentinel(T(777), T(-555));
  for (std::size_t i = 0; i < yb.size; ++i) yb.set(i, sentinel);
  IoBuffer<T> &out = c.in_place ? xb : yb;
  if (c.split && c.in_place) lib.symbol<void(T *, T *)>(name)(xb.a.data, xb.b.data);
  else if (c.split) lib.symbol<void(T *, T *, const T *, const T *)>(name)(yb.a.data, yb.b.data, xb.a.data, xb.b.data);
  else if (c.in_place) lib.symbol<void(T *)>(name)(xb.a.data);
  else lib.symbol<void(T *, const T *)>(name)(yb.a.data, xb.a.data);

  std::vector<bool> written(std::size_t(c.in_place ? in_range : out_range), false);
  std::vector<std::complex<T>> got;
  std::vector<std::complex<long double>> exact;
  for (int64_t b = 0; b < c.batch; ++b) {
    std::vector<std::complex<long double>> one;
    for (int64_t j = 0; j < n; ++j) {
      one.push_back(std::complex<long double>(x[std::size_t(c.in_at(b, j))]));
      std::size_t at = std::size_t(c.out_at(b, j));
      got.push_back(out.get(at));
      written[at] = true;
    }
    const int sign = c.inverse ? 1 : -1;
    std::vector<std::complex<long double>> y =
        c.dims.size() == 1 ? test::reference_dft(one, sign) : test::spec_reference(parse::parse_formula(c.spec()), one, sign);
    exact.insert(exact.end(), y.begin(), y.end());
  }
  for (std::size_t i = 0; i < written.size(); ++i)
    if (!written[i]) ASSERT_EQ(out.get(i), c.in_place ? x[i] : sentinel) << "element " << i << " is outside the layout";
  if (!c.in_place)
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(xb.get(i), x[i]) << "input modified at " << i;
  const double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  const double tolerance = 5 * eps * std::max(1.0, std::log2(double(n)));
  EXPECT_LE(test::relative_rms_error(got, exact), tolerance) << "against the long-double reference";
  EXPECT_LE(test::relative_rms_error(got, fftw_outputs<T>(c, x)), 2 * tolerance) << "against FFTW3";
}

// Generates every case (kernel k<i>), compiles them into one shared object at -Og (as
// kernel_test.cpp does), runs each at two pairs of misaligned pointers.
void generate_compile_and_check(const std::vector<Case> &cases) {
  test::TempDir dir("splgen-io-layouts");
  std::string unity;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    driver::GenOptions o;
    o.name = fmt::format("k{}", i);
    o.precision = c.precision;
    o.isa = c.isa;
    o.inverse = c.inverse && c.dims.size() == 1;
    o.io.batch = c.batch;
    o.io.istride = c.istride;
    o.io.ostride = c.ostride;
    o.io.idist = c.idist;
    o.io.odist = c.odist;
    o.io.in_place = c.in_place;
    o.io.split = c.split;
    o.io.inembed = c.inembed;
    o.io.onembed = c.onembed;
    unity += fmt::format("#include \"{}\"\n", dir.write(o.name + ".cpp", driver::run_pipeline(c.spec(), o).source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", "-Og");
  for (const Case &c : cases)
    if (!host_supports(c.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(c.isa) << " code";
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (auto [xo, yo] : {std::pair<std::size_t, std::size_t>{8, 16}, {16, 8}}) {
      if (cases[i].precision == Precision::Float) check<float>(lib, cases[i], fmt::format("k{}", i), xo, yo);
      else check<double>(lib, cases[i], fmt::format("k{}", i), xo, yo);
    }
}

// The layouts every size is tried in: contiguous batches, batches interleaved element by
// element (FFTW's transposed layout), strides with gaps between and inside the transforms, one
// strided transform, in place (contiguous and strided), split (out of place and in place).
std::vector<Case> layouts(const std::vector<int> &dims, Precision p, Isa isa) {
  std::vector<Case> out;
  auto add = [&](Case c) {
    c.dims = dims, c.precision = p, c.isa = isa;
    out.push_back(c);
  };
  const int64_t n = Case{dims}.n();
  add({{}, 5});
  add({{}, 4, 4, 4, 1, 1});                           // x and y: batch b element j at 4j + b
  add({{}, 3, 1, 3, n, 1, false, false, true});      // issue 16's example: transposed output, inverse
  add({{}, 3, 2, 3, 2 * n + 3, 1 + 3 * n});           // gaps inside and between transforms
  add({{}, 1, 3, 2});                                 // one transform, strided
  add({{}, 1, 1, 1, {}, {}, true});                   // one transform in place (AVX2: the complex codelet up to 8)
  add({{}, 4, 1, 1, {}, {}, true});                   // in place
  add({{}, 3, 2, 2, 2 * n + 1, 2 * n + 1, true});     // in place, strided with gaps
  add({{}, 3, 1, 1, {}, {}, false, true});            // split
  add({{}, 3, 3, 1, 1, n, false, true, true});        // split, strided, inverse
  add({{}, 2, 1, 1, {}, {}, true, true});             // split in place
  return out;
}

std::vector<Case> sizes(const std::vector<std::vector<int>> &all, Isa isa) {
  std::vector<Case> out;
  for (const std::vector<int> &dims : all)
    for (Precision p : {Precision::Double, Precision::Float})
      for (const Case &c : layouts(dims, p, isa)) out.push_back(c);
  return out;
}

// Codelets (odd, even, prime, 1), multi-stage Cooley-Tukey, a prime beyond the codelets, 2D and 3D.
const std::vector<std::vector<int>> kSmall = {{1}, {2}, {5}, {7}, {12}, {16}};
const std::vector<std::vector<int>> kLarger = {{64}, {97}, {256}, {1000}};
const std::vector<std::vector<int>> kMultiDim = {{4, 6}, {5, 3}, {2, 3, 4}};

TEST(IoLayoutKernels, SmallScalar) { generate_compile_and_check(sizes(kSmall, Isa::Scalar)); }
TEST(IoLayoutKernels, LargerScalar) { generate_compile_and_check(sizes(kLarger, Isa::Scalar)); }
TEST(IoLayoutKernels, MultiDimScalar) { generate_compile_and_check(sizes(kMultiDim, Isa::Scalar)); }
TEST(IoLayoutKernels, SmallAvx2) { generate_compile_and_check(sizes(kSmall, Isa::Avx2)); }
TEST(IoLayoutKernels, LargerAvx2) { generate_compile_and_check(sizes(kLarger, Isa::Avx2)); }
TEST(IoLayoutKernels, MultiDimAvx2) { generate_compile_and_check(sizes(kMultiDim, Isa::Avx2)); }
// The other vector widths (split format: lane by lane loads and stores in each register kind).
TEST(IoLayoutKernels, Sse2) { generate_compile_and_check(sizes({{5}, {16}, {64}, {4, 6}}, Isa::Sse2)); }
TEST(IoLayoutKernels, Avx512) { generate_compile_and_check(sizes({{5}, {16}, {64}, {1000}, {4, 6}}, Isa::Avx512)); }

// Split format beyond the printed tables: the computed twiddles of the last stage are laid out
// for whole-register loads in the natural lane order (backends/simd/lane_orders.h); in place
// and inverse too, every vector width.
std::vector<Case> split_with_computed_twiddles(Isa isa) {
  std::vector<Case> cases;
  for (Precision p : {Precision::Double, Precision::Float}) {
    Case c{{8192}, 1, 1, 1, {}, {}, false, true};
    c.precision = p, c.isa = isa;
    cases.push_back(c);
    c.in_place = true, c.inverse = true;
    cases.push_back(c);
  }
  return cases;
}
TEST(IoLayoutKernels, SplitWithComputedTwiddles) {
  generate_compile_and_check(split_with_computed_twiddles(Isa::Sse2));
  generate_compile_and_check(split_with_computed_twiddles(Isa::Avx2));
}
TEST(IoLayoutKernels, SplitWithComputedTwiddlesAvx512) { generate_compile_and_check(split_with_computed_twiddles(Isa::Avx512)); }

// Issue 16's example: 1000 DFT(256), read contiguously, written transposed (FFTW's
// howmany-interleaved output), AVX2 and double.
TEST(IoLayoutKernels, IssueExample) {
  Case c{{256}, 1000, 1, 1000, 256, 1};
  c.isa = Isa::Avx2;
  generate_compile_and_check({c});
}

// FFTW's inembed/onembed (docs/transforms.md, "Layouts"): 2D and 3D transforms as subarrays
// of larger arrays, padded rows (and planes), alone and in batches, with strides and
// distances, in place and split; the padding of y keeps its sentinel.
std::vector<Case> embedded(Precision p, Isa isa) {
  std::vector<Case> out;
  auto add = [&](std::vector<int> dims, std::vector<int64_t> in, std::vector<int64_t> on, Case c) {
    c.dims = std::move(dims), c.inembed = std::move(in), c.onembed = std::move(on), c.precision = p, c.isa = isa;
    out.push_back(c);
  };
  add({4, 6}, {4, 9}, {5, 7}, {{}, 1});                             // one transform, rows padded
  add({4, 6}, {4, 6}, {6, 8}, {{}, 3});                             // dense in, padded out, batch
  add({5, 3}, {7, 4}, {5, 5}, {{}, 2, 2, 3});                       // strides
  add({8, 16}, {8, 17}, {9, 20}, {{}, 3, 1, 3, 8 * 17 + 5, 1});     // gaps between the inputs; y interleaved
  add({8, 16}, {8, 20}, {8, 16}, {{}, 4, 1, 4, {}, 1});            // y: batches interleaved element by element
  add({2, 3, 4}, {3, 5, 6}, {2, 4, 5}, {{}, 1});                    // 3D, planes and rows padded
  add({2, 3, 4}, {2, 3, 7}, {4, 4, 4}, {{}, 3, 2, 1, 100, {}});     // 3D, batch, strided input
  add({4, 6}, {5, 8}, {5, 8}, {{}, 3, 1, 1, {}, {}, true});         // in place
  add({4, 6}, {4, 7}, {6, 9}, {{}, 2, 1, 1, {}, {}, false, true});  // split
  add({16}, {20}, {}, {{}, 3});                                     // 1D: the embedding sets the default distance
  add({16}, {20}, {17}, {{}, 9});                                   // 1D, vectorised across the batch
  return out;
}

TEST(IoLayoutKernels, EmbeddedScalar) {
  generate_compile_and_check(embedded(Precision::Double, Isa::Scalar));
  generate_compile_and_check(embedded(Precision::Float, Isa::Scalar));
}
TEST(IoLayoutKernels, EmbeddedAvx2) {
  generate_compile_and_check(embedded(Precision::Double, Isa::Avx2));
  generate_compile_and_check(embedded(Precision::Float, Isa::Avx2));
}
TEST(IoLayoutKernels, EmbeddedAvx512) { generate_compile_and_check(embedded(Precision::Double, Isa::Avx512)); }

// Batches vectorised across the batch (lower/vectorise_batch.h, docs/transforms.md): the codelet
// sizes and beyond, batches below, at and around the vector width nu (the rest of the batch at
// narrower widths and scalar) and long ones, contiguous; strided, with gaps, written transposed
// (where the lanes' outputs are adjacent) and in place for the batches around nu.
std::vector<Case> across_batch(Precision p, Isa isa) {
  const std::vector<int> widths = vector_widths(isa, p);
  const int64_t nu = widths.empty() ? 4 : widths.front();
  std::vector<int64_t> batches = {1, 3, nu - 1, nu, nu + 1, 257, 1000};
  std::sort(batches.begin(), batches.end());
  batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
  std::vector<Case> out;
  auto add = [&](int n, Case c) {
    c.dims = {n}, c.precision = p, c.isa = isa;
    out.push_back(c);
  };
  for (int n : {2, 3, 4, 5, 8, 12, 16, 32, 64}) {
    for (int64_t b : batches) add(n, {{}, b});
    if (isa == Isa::Scalar) continue;
    for (int64_t b : {nu + 1, int64_t(257)}) {
      add(n, {{}, b, 2, 1, 2 * n + 3, n + 1});          // gaps inside and between the inputs
      add(n, {{}, b, 1, b, n, 1, false, false, true});  // written transposed, inverse
    }
    add(n, {{}, nu + 1, 1, 1, {}, {}, true});            // in place
    add(n, {{}, 257, 1, 1, {}, {}, false, true});         // split (vector loops inside each transform)
  }
  if (isa != Isa::Scalar) add(256, {{}, 2 * nu + 1, 1, 2 * nu + 1, 256, 1});  // transposed, beyond the codelets
  return out;
}

TEST(IoLayoutKernels, AcrossBatchScalarDouble) { generate_compile_and_check(across_batch(Precision::Double, Isa::Scalar)); }
TEST(IoLayoutKernels, AcrossBatchScalarFloat) { generate_compile_and_check(across_batch(Precision::Float, Isa::Scalar)); }
TEST(IoLayoutKernels, AcrossBatchAvx2Double) { generate_compile_and_check(across_batch(Precision::Double, Isa::Avx2)); }
TEST(IoLayoutKernels, AcrossBatchAvx2Float) { generate_compile_and_check(across_batch(Precision::Float, Isa::Avx2)); }
TEST(IoLayoutKernels, AcrossBatchAvx512Double) { generate_compile_and_check(across_batch(Precision::Double, Isa::Avx512)); }
TEST(IoLayoutKernels, AcrossBatchAvx512Float) { generate_compile_and_check(across_batch(Precision::Float, Isa::Avx512)); }

}  // namespace
}  // namespace splgen
