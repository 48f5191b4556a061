#include "generator/measure/bench_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <optional>
#include <random>

#include "generator/ir/print.h"
#include "generator/measure/aligned_buffer.h"
#include "generator/measure/compile.h"
#include "generator/measure/fftw_layout.h"
#include "generator/measure/real_fftw.h"
#include "generator/measure/reference.h"
#include "generator/measure/sizes.h"
#include "generator/measure/timer.h"
#include "generator/parse/formula_parser.h"

namespace splgen::measure {

namespace {

struct LayoutTarget {
  std::string spec;
  std::vector<int> dims;
  std::int64_t n = 0;  // points of one transform (a real transform: its size)
  int sign = -1;
  std::optional<RealKind> real;
  // elements of one transform in x and y (a complex side: the last dimension n/2+1); reals
  // per element of each (1 on a real side)
  std::int64_t half() const { return n / dims.back() * (dims.back() / 2 + 1); }
  std::int64_t in_n() const { return real == RealKind::IRDFT ? half() : n; }
  std::int64_t out_n() const { return real == RealKind::RDFT ? half() : n; }
  std::int64_t in_reals() const { return real && real != RealKind::IRDFT ? 1 : 2; }
  std::int64_t out_reals() const { return real && real != RealKind::RDFT ? 1 : 2; }
};

LayoutTarget layout_target(const std::string &text, bool inverse) {
  const Spl spec = parse::parse_formula(text);
  LayoutTarget t{text, {}, spec->rows, 0};
  if (spec->kind == SplKind::RealTransform) {
    if (!has_fftw_twin(real_kind(spec)) || inverse)
      throw FormulaError(fmt::format("bench with a layout compares with FFTW's plan of the kind, forward: not {}{}",
                                     print(spec), inverse ? " --inverse" : ""));
    t.n = spec->a, t.sign = -1, t.real = real_kind(spec);
    for (int64_t d : real_transform_dims(spec)) t.dims.push_back(int(d));
    return t;
  }
  if (spec->kind == SplKind::DFT) t.dims = {int(spec->a)};
  if (spec->kind == SplKind::DFTnd)
    for (int64_t d : spec->perm) t.dims.push_back(int(d));
  std::int64_t b = inverse && !t.dims.empty() ? (t.n - spec->b) % t.n : spec->b;
  t.sign = b == 1 || t.n <= 2 ? -1 : b == t.n - 1 ? 1 : 0;
  if (t.dims.empty() || t.sign == 0 || t.n < 2 || t.n > kMaxBenchSize)
    throw FormulaError(fmt::format("bench with a layout (--batch, strides, --in-place, --format split) takes DFT(n), "
                                   "DFT(n,-1), DFT(a x b ...) of 2 to 2^24 points or a real transform with an FFTW twin, not {}", print(spec)));
  return t;
}

// Where the elements of one side lie: element j of transform b at b*dist + place.at(j) (j*stride,
// or its place in the embedding array), `reals` reals each (interleaved), or one in each of
// two arrays (split).
struct Side {
  std::int64_t n, stride, dist, reals;
  bool split;
  driver::IoSide place;
  std::size_t array_reals(std::int64_t batch) const {
    return std::size_t((split ? 1 : reals) * ((batch - 1) * dist + place.extent()));
  }
  // Real p of element j of transform b: (array, index).
  std::pair<int, std::size_t> at(std::int64_t b, std::int64_t j, std::int64_t p) const {
    const std::int64_t e = b * dist + place.at(j);
    return split ? std::pair<int, std::size_t>{int(p), std::size_t(e)} : std::pair<int, std::size_t>{0, std::size_t(reals * e + p)};
  }
};

// One implementation's memory: x (and y out of place), each one array or two split ones.
template <class T>
struct Memory {
  std::unique_ptr<AlignedBuffer<T>> xr, xi, yr, yi;
  Memory(std::size_t in, std::size_t out, bool in_place, bool split_x, bool split_y) {
    xr = std::make_unique<AlignedBuffer<T>>(in);
    if (split_x) xi = std::make_unique<AlignedBuffer<T>>(in);
    if (in_place) return;
    yr = std::make_unique<AlignedBuffer<T>>(out);
    if (split_y) yi = std::make_unique<AlignedBuffer<T>>(out);
  }
  T *x(bool imag) const { return imag ? (xi ? xi->get() : nullptr) : xr->get(); }
  T *y(bool imag) const { return yr ? (imag ? (yi ? yi->get() : nullptr) : yr->get()) : x(imag); }
};

// The batch's reference outputs, transform after transform, as reals: fftwl's.
template <class T>
std::vector<long double> reference_reals(const LayoutTarget &t, std::int64_t batch, const std::vector<T> &input) {
  std::vector<long double> out;
  if (!t.real) {
    std::vector<std::complex<long double>> x(input.size() / 2);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = {input[2 * i], input[2 * i + 1]};
    for (const auto &v : fftwl_many(x, t.dims, int(batch), t.sign)) out.push_back(v.real()), out.push_back(v.imag());
    return out;
  }
  const std::size_t per = std::size_t(t.in_n() * t.in_reals());
  for (std::int64_t b = 0; b < batch; ++b) {
    std::vector<long double> one(input.begin() + std::ptrdiff_t(b * per), input.begin() + std::ptrdiff_t((b + 1) * per));
    for (long double v : fftwl_real(*t.real, t.dims, std::move(one))) out.push_back(v);
  }
  return out;
}

template <class T>
BenchRow bench_layout_size(const LayoutTarget &t, const BenchOptions &o, const driver::IoLayoutOptions &io,
                           const std::vector<Implementation> &impls, const BenchProgress &say) {
  const std::int64_t B = io.batch;
  const driver::IoLayoutOptions contiguous{B};
  auto layout_of = [&](const Implementation &impl) { return impl.contiguous ? contiguous : io; };
  const Spl one = parse::parse_formula(t.spec);
  auto sides = [&](const Implementation &impl) {  // x, y (in place: FFTW's padded layout of a real transform)
    const driver::IoLayoutOptions l = layout_of(impl);
    const driver::IoSide in = driver::io_input_side(one, l), out = driver::io_output_side(one, l);
    return std::pair<Side, Side>{{t.in_n(), in.stride, in.dist, t.in_reals(), l.split && !in.real, in},
                                 {t.out_n(), out.stride, out.dist, t.out_reals(), l.split && !out.real, out}};
  };

  auto start = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  TempDir dir("splgen-bench");
  std::vector<std::string> sources;
  for (const Implementation &impl : impls) {
    if (!impl.splgen) continue;
    driver::GenOptions g;
    g.name = "splgen_bench_" + impl.id;
    g.precision = o.precision, g.isa = impl.isa, g.inverse = o.inverse, g.io = layout_of(impl);
    g.codelet_max = o.codelet_max, g.top_codelet_max = o.top_codelet_max, g.masked_remainders = o.masked_remainders;
    sources.push_back(dir.write(g.name + ".cpp", driver::run_pipeline(t.spec, g).source));
  }
  SharedObject lib(compile_shared_object(sources, dir.file("kernels.so"), o.compiler, o.flags));
  say(fmt::format("compiled {:.2f} s", since()));

  const std::size_t k = impls.size();
  std::vector<std::unique_ptr<Memory<T>>> mem(k);
  std::vector<std::unique_ptr<FftwLayoutPlan>> plans(k);
  std::vector<Workload> runs(k);
  start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < k; ++i) {
    const driver::IoLayoutOptions l = layout_of(impls[i]);
    const auto [x, y] = sides(impls[i]);
    const std::size_t x_reals = l.in_place ? std::max(x.array_reals(B), y.array_reals(B)) : x.array_reals(B);  // one buffer
    Memory<T> &m = *(mem[i] = std::make_unique<Memory<T>>(x_reals, y.array_reals(B), l.in_place, x.split, y.split));
    if (!impls[i].splgen) {
      FftwLayout f{t.dims, B, x.stride, x.dist, y.stride, y.dist, l.split, t.real, l.inembed, l.onembed};
      plans[i] = std::make_unique<FftwLayoutPlan>(o.precision, f, t.sign, impls[i].effort, m.x(false), m.x(true),
                                                  m.y(false), m.y(true));
      runs[i] = [p = plans[i].get()](std::int64_t times) { p->execute(times); };
      continue;
    }
    const std::string name = "splgen_bench_" + impls[i].id;
    T *xr = m.x(false), *xi = m.x(true), *yr = m.y(false), *yi = m.y(true);
    if (x.split != y.split) {  // a real transform's complex side split: r2c NAME(yr, yi, x), c2r NAME(y, xr, xi)
      if (y.split) {
        auto *f = lib.symbol<void(T *, T *, const T *)>(name);
        runs[i] = [f, xr, yr, yi](std::int64_t times) { for (std::int64_t r = 0; r < times; ++r) f(yr, yi, xr); };
      } else {
        auto *f = lib.symbol<void(T *, const T *, const T *)>(name);
        runs[i] = [f, xr, xi, yr](std::int64_t times) { for (std::int64_t r = 0; r < times; ++r) f(yr, xr, xi); };
      }
    } else if (l.split && l.in_place) {
      auto *f = lib.symbol<void(T *, T *)>(name);
      runs[i] = [f, xr, xi](std::int64_t times) { for (std::int64_t r = 0; r < times; ++r) f(xr, xi); };
    } else if (l.split) {
      auto *f = lib.symbol<void(T *, T *, const T *, const T *)>(name);
      runs[i] = [f, xr, xi, yr, yi](std::int64_t times) { for (std::int64_t r = 0; r < times; ++r) f(yr, yi, xr, xi); };
    } else if (l.in_place) {
      auto *f = lib.symbol<void(T *)>(name);
      runs[i] = [f, xr](std::int64_t times) { for (std::int64_t r = 0; r < times; ++r) f(xr); };
    } else {
      auto *f = lib.symbol<void(T *, const T *)>(name);
      runs[i] = [f, xr, yr](std::int64_t times) { for (std::int64_t r = 0; r < times; ++r) f(yr, xr); };
    }
  }
  say(fmt::format(", planned {:.2f} s", since()));

  // One random batch for all (the imaginary parts c2r ignores set to 0); each result's
  // transforms against fftwl's.
  start = std::chrono::steady_clock::now();
  std::mt19937_64 rng{std::uint64_t(t.n * 31 + B)};
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const std::int64_t in_per = t.in_n() * t.in_reals(), out_per = t.out_n() * t.out_reals();
  std::vector<T> input(std::size_t(B * in_per));
  for (T &v : input) v = T(uniform(rng));
  if (t.real == RealKind::IRDFT && t.dims.size() == 1)
    for (std::int64_t b = 0; b < B; ++b) {
      input[std::size_t(b * in_per + 1)] = 0;
      if (t.n % 2 == 0) input[std::size_t(b * in_per + t.n + 1)] = 0;
    }
  if (t.real == RealKind::IRDFT && t.dims.size() > 1)  // Hermitian (FFTW's rank-d c2r is defined on it alone)
    for (std::int64_t b = 0; b < B; ++b) {
      std::vector<long double> reals(std::size_t(t.n));
      for (long double &v : reals) v = uniform(rng);
      const std::vector<long double> half = fftwl_real(RealKind::RDFT, t.dims, std::move(reals));
      for (std::size_t i = 0; i < half.size(); ++i) input[std::size_t(b * in_per) + i] = T(half[i] / t.n);
    }
  const std::vector<long double> reference = reference_reals(t, B, input);
  BenchRow row;
  row.n = B * t.n;
  row.spec = t.spec;
  row.repetitions = o.repetitions > 0 ? o.repetitions : default_repetitions(B * t.n);
  row.ns.assign(k, std::numeric_limits<double>::quiet_NaN());
  row.error = row.ns;
  for (std::size_t i = 0; i < k; ++i) {
    const auto [x, y] = sides(impls[i]);
    const Memory<T> &m = *mem[i];
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t j = 0; j < x.n; ++j)
        for (std::int64_t p = 0; p < x.reals; ++p) {
          auto [array, at] = x.at(b, j, p);
          m.x(array == 1)[at] = input[std::size_t(b * in_per + j * x.reals + p)];
        }
    runs[i](1);
    long double err = 0, norm = 0;
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t j = 0; j < y.n; ++j)
        for (std::int64_t p = 0; p < y.reals; ++p) {
          auto [array, at] = y.at(b, j, p);
          const long double want = reference[std::size_t(b * out_per + j * y.reals + p)];
          err += (m.y(array == 1)[at] - want) * (m.y(array == 1)[at] - want), norm += want * want;
        }
    row.error[i] = double(std::sqrt(err / norm));
  }
  say(fmt::format(", checked {:.2f} s", since()));
  start = std::chrono::steady_clock::now();
  std::vector<Timing> timings = time_interleaved(runs, {row.repetitions, o.min_sample_seconds});
  for (std::size_t i = 0; i < k; ++i) row.ns[i] = timings[i].median_ns;
  say(fmt::format(", timed {:.2f} s\n", since()));
  return row;
}

}  // namespace

std::vector<Implementation> layout_bench_implementations(const BenchOptions &o) {
  const std::string isa = isa_name(o.isa);
  Implementation plain{"splgen_contiguous", "splgen " + isa + " contiguous", true, o.isa};
  plain.contiguous = true;
  Implementation fftw_plain{"fftw_measure_contiguous", "FFTW_MEASURE contiguous", false, Isa::Scalar, FftwEffort::Measure};
  fftw_plain.contiguous = true;
  return {{"splgen_" + isa, "splgen " + isa, true, o.isa}, plain,
          {"fftw_measure", "FFTW_MEASURE", false, Isa::Scalar, FftwEffort::Measure}, fftw_plain};
}

BenchResult run_layout_bench(const BenchOptions &o, const driver::IoLayoutOptions &io, const BenchProgress &progress) {
  if (o.threads > 1 || o.compare_default || o.tune || !o.rule_files.empty())
    throw FormulaError("bench with a layout (--batch, strides, --in-place, --format split) takes no --threads, --rules, "
                       "--compare or --wisdom (not built yet)");
  BenchProgress say = progress ? progress : [](const std::string &) {};
  std::vector<LayoutTarget> targets;
  if (!o.spec.empty()) targets.push_back(layout_target(o.spec, o.inverse));
  for (std::int64_t n : o.spec.empty() ? o.sizes : std::vector<std::int64_t>{})
    targets.push_back(layout_target(fmt::format("{}({})", o.kind, n), o.inverse));
  BenchResult result;
  result.implementations = layout_bench_implementations(o);
  const Spl first = parse::parse_formula(targets.front().spec);
  driver::GenOptions check;
  check.io = io;
  for (const LayoutTarget &t : targets) driver::check_io_layout(parse::parse_formula(t.spec), check);  // before any compiling
  result.meta = bench_meta(o, o.spec.empty() ? o.kind + "(n)" : o.spec, targets.front().sign > 0);
  result.meta.insert(result.meta.begin() + 1, {"layout", driver::describe_io_layout(driver::batched_spec(first, io), io)});

  for (std::size_t s = 0; s < targets.size(); ++s) {
    say(fmt::format("[{}/{}] {}: ", s + 1, targets.size(), targets[s].spec));
    if (o.precision == Precision::Float)
      result.rows.push_back(bench_layout_size<float>(targets[s], o, io, result.implementations, say));
    else
      result.rows.push_back(bench_layout_size<double>(targets[s], o, io, result.implementations, say));
  }
  return result;
}

}  // namespace splgen::measure
