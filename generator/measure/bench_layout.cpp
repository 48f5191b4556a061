#include "generator/measure/bench_layout.h"

#include <fmt/format.h>

#include <chrono>
#include <complex>
#include <limits>
#include <memory>
#include <random>

#include "generator/ir/print.h"
#include "generator/measure/aligned_buffer.h"
#include "generator/measure/compile.h"
#include "generator/measure/fftw_layout.h"
#include "generator/measure/reference.h"
#include "generator/measure/sizes.h"
#include "generator/measure/timer.h"
#include "generator/parse/formula_parser.h"

namespace splgen::measure {

namespace {

struct LayoutTarget {
  std::string spec;
  std::vector<int> dims;
  std::int64_t n = 0;  // points of one transform
  int sign = -1;
};

LayoutTarget layout_target(const std::string &text, bool inverse) {
  const Spl spec = parse::parse_formula(text);
  LayoutTarget t{text, {}, spec->rows, 0};
  if (spec->kind == SplKind::DFT) t.dims = {int(spec->a)};
  if (spec->kind == SplKind::DFTnd)
    for (int64_t d : spec->perm) t.dims.push_back(int(d));
  std::int64_t b = inverse && !t.dims.empty() ? (t.n - spec->b) % t.n : spec->b;
  t.sign = b == 1 || t.n <= 2 ? -1 : b == t.n - 1 ? 1 : 0;
  if (t.dims.empty() || t.sign == 0 || t.n < 2 || t.n > kMaxBenchSize)
    throw FormulaError(fmt::format("bench with a layout (--batch, strides, --in-place, --format split) takes DFT(n), "
                                   "DFT(n,-1) or DFT(a x b ...) of 2 to 2^24 points, not {}", print(spec)));
  return t;
}

// One implementation's memory: x (and y out of place), each one interleaved array or two split ones.
template <class T>
struct Memory {
  std::unique_ptr<AlignedBuffer<T>> xr, xi, yr, yi;
  Memory(std::int64_t in, std::int64_t out, bool in_place, bool split) {
    const std::size_t f = split ? 1 : 2;
    xr = std::make_unique<AlignedBuffer<T>>(f * std::size_t(in));
    if (split) xi = std::make_unique<AlignedBuffer<T>>(std::size_t(in));
    if (in_place) return;
    yr = std::make_unique<AlignedBuffer<T>>(f * std::size_t(out));
    if (split) yi = std::make_unique<AlignedBuffer<T>>(std::size_t(out));
  }
  T *x(bool imag) const { return imag ? (xi ? xi->get() : nullptr) : xr->get(); }
  T *y(bool imag) const { return yr ? (imag ? (yi ? yi->get() : nullptr) : yr->get()) : x(imag); }
};

// Element i of an array pair: interleaved (im null) or split.
template <class T>
std::complex<T> get(const T *re, const T *im, std::size_t i) { return im ? std::complex<T>(re[i], im[i]) : std::complex<T>(re[2 * i], re[2 * i + 1]); }
template <class T>
void put(T *re, T *im, std::size_t i, std::complex<T> v) {
  if (im) re[i] = v.real(), im[i] = v.imag();
  else re[2 * i] = v.real(), re[2 * i + 1] = v.imag();
}

template <class T>
BenchRow bench_layout_size(const LayoutTarget &t, const BenchOptions &o, const driver::IoLayoutOptions &io,
                           const std::vector<Implementation> &impls, const BenchProgress &say) {
  const std::int64_t B = io.batch, N = t.n;
  const std::int64_t is = io.istride, id = io.idist.value_or(N * is), os = io.ostride, od = io.odist.value_or(N * os);
  const std::int64_t in_range = (B - 1) * id + (N - 1) * is + 1, out_range = (B - 1) * od + (N - 1) * os + 1;
  const driver::IoLayoutOptions contiguous{B};
  auto layout_of = [&](const Implementation &impl) { return impl.contiguous ? contiguous : io; };

  auto start = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  TempDir dir("splgen-bench");
  std::vector<std::string> sources;
  for (const Implementation &impl : impls) {
    if (!impl.splgen) continue;
    driver::GenOptions g;
    g.name = "splgen_bench_" + impl.id;
    g.precision = o.precision, g.isa = impl.isa, g.inverse = o.inverse, g.io = layout_of(impl);
    g.codelet_max = o.codelet_max, g.top_codelet_max = o.top_codelet_max;
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
    const bool layout = !impls[i].contiguous;
    Memory<T> &m = *(mem[i] = std::make_unique<Memory<T>>(layout ? in_range : B * N, layout ? out_range : B * N,
                                                            l.in_place, l.split));
    if (!impls[i].splgen) {
      FftwLayout f{t.dims, B, layout ? is : 1, layout ? id : N, layout ? os : 1, layout ? od : N, l.split};
      plans[i] = std::make_unique<FftwLayoutPlan>(o.precision, f, t.sign, impls[i].effort, m.x(false), m.x(true),
                                                  m.y(false), m.y(true));
      runs[i] = [p = plans[i].get()](std::int64_t times) { p->execute(times); };
      continue;
    }
    const std::string name = "splgen_bench_" + impls[i].id;
    T *xr = m.x(false), *xi = m.x(true), *yr = m.y(false), *yi = m.y(true);
    if (l.split && l.in_place) {
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

  // One random batch for all; each result's transforms against fftwl's.
  start = std::chrono::steady_clock::now();
  std::mt19937_64 rng{std::uint64_t(N * 31 + B)};
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<T>> input(std::size_t(B * N));
  for (auto &v : input) v = {T(uniform(rng)), T(uniform(rng))};
  const auto reference = fftwl_many(convert<long double>(input), t.dims, int(B), t.sign);
  BenchRow row;
  row.n = B * N;
  row.spec = t.spec;
  row.repetitions = o.repetitions > 0 ? o.repetitions : default_repetitions(B * N);
  row.ns.assign(k, std::numeric_limits<double>::quiet_NaN());
  row.error = row.ns;
  for (std::size_t i = 0; i < k; ++i) {
    const bool layout = !impls[i].contiguous, split = layout_of(impls[i]).split;
    const std::int64_t xs = layout ? is : 1, xd = layout ? id : N, ys = layout ? os : 1, yd = layout ? od : N;
    Memory<T> &m = *mem[i];
    T *xi = split ? m.x(true) : nullptr, *yi = split ? m.y(true) : nullptr;
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t j = 0; j < N; ++j) put(m.x(false), xi, std::size_t(b * xd + j * xs), input[std::size_t(b * N + j)]);
    runs[i](1);
    std::vector<std::complex<T>> output;
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t j = 0; j < N; ++j) output.push_back(get<T>(m.y(false), yi, std::size_t(b * yd + j * ys)));
    row.error[i] = relative_rms_error(output, reference);
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
  result.meta = bench_meta(o, o.spec.empty() ? o.kind + "(n)" : o.spec, targets.front().sign > 0);
  result.meta.insert(result.meta.begin() + 1, {"layout", driver::describe_io_layout(driver::batched_spec(first, io), io)});

  for (std::size_t s = 0; s < targets.size(); ++s) {
    driver::GenOptions check;
    check.io = io;
    driver::check_io_layout(parse::parse_formula(targets[s].spec), check);  // before any compiling
    say(fmt::format("[{}/{}] {}: ", s + 1, targets.size(), targets[s].spec));
    if (o.precision == Precision::Float)
      result.rows.push_back(bench_layout_size<float>(targets[s], o, io, result.implementations, say));
    else
      result.rows.push_back(bench_layout_size<double>(targets[s], o, io, result.implementations, say));
  }
  return result;
}

}  // namespace splgen::measure
