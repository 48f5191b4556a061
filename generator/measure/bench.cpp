#include "generator/measure/bench.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <complex>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <random>

#include "generator/ir/print.h"
#include "generator/lower/count_operations.h"
#include "generator/driver/pipeline.h"
#include "generator/measure/aligned_buffer.h"
#include "generator/measure/compile.h"
#include "generator/measure/machine.h"
#include "generator/measure/real_fftw.h"
#include "generator/measure/reference.h"
#include "generator/measure/sizes.h"
#include "generator/measure/timer.h"
#include "generator/parse/formula_parser.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen::measure {

int BenchResult::index(const std::string &id) const {
  for (std::size_t i = 0; i < implementations.size(); ++i)
    if (implementations[i].id == id) return int(i);
  return -1;
}

std::string BenchResult::meta_value(const std::string &key) const {
  for (const auto &[k, v] : meta)
    if (k == key) return v;
  return "";
}

double pseudo_gflops(std::int64_t n, double ns) { return 5.0 * double(n) * std::log2(double(n)) / ns; }

int default_repetitions(std::int64_t n) {
  if (n <= (std::int64_t(1) << 14)) return 31;
  if (n <= (std::int64_t(1) << 18)) return 11;
  return 5;
}

bool streamed_spec(const std::string &spec) {
  if (spec.empty()) return false;
  const Spl f = parse::parse_formula(spec);
  return f->kind == SplKind::Tagged &&
         (f->tag.kind == TagKind::Stream || f->tag.kind == TagKind::Tiled || f->tag.kind == TagKind::Cubic);
}

// WHT(n) or --sizes with KIND WHT: FFTW has none, so the baseline is the radix-2 loop.
bool wht_bench(const BenchOptions &o) {
  if (o.spec.empty()) return o.kind == "WHT";
  const Spl f = parse::parse_formula(o.spec);
  return f->kind == SplKind::RealTransform && real_kind(f) == RealKind::WHT;
}

std::vector<Implementation> bench_implementations(const BenchOptions &o) {
  std::vector<Implementation> out;
  const std::string isa = isa_name(o.isa);
  if (wht_bench(o)) {
    if (o.threads > 1 || o.compare_default || o.tune || o.in_place)
      throw FormulaError("bench WHT(n) times splgen's kernel against a radix-2 loop only: no --threads, --compare, "
                         "--wisdom or --in-place");
    out.push_back({"splgen_" + isa, "splgen " + isa, true, o.isa});
    if (o.isa != Isa::Scalar && o.scalar_baseline) out.push_back({"splgen_scalar", "splgen scalar", true, Isa::Scalar});
    Implementation loop{"radix2_loop", "radix-2 loop", false};
    loop.radix2_loop = true;
    out.push_back(loop);
    return out;
  }
  if (streamed_spec(o.spec)) {
    Implementation own{"splgen_" + isa, "splgen " + isa + (o.in_place ? " in place" : ""), true, o.isa};
    own.in_place = o.in_place;
    out.push_back(own);
    Implementation sync{"splgen_sync", "splgen sync", true, o.isa};
    sync.dma = DmaEngine::Sync, sync.in_place = o.in_place;
    out.push_back(sync);
    out.push_back({"fftw_measure", "FFTW_MEASURE", false, Isa::Scalar, FftwEffort::Measure});
    if (o.in_place) {
      Implementation fftw_in_place{"fftw_measure_inplace", "FFTW_MEASURE in place", false, Isa::Scalar, FftwEffort::Measure};
      fftw_in_place.in_place = true;
      out.push_back(fftw_in_place);
    }
    Implementation floor{"copy_floor", "memcpy floor", false};
    floor.copy = true;
    out.push_back(floor);
    return out;
  }
  if (o.threads > 1) {
    const std::string t = fmt::format("{}t", o.threads);
    out.push_back({"splgen_" + isa + "_" + t, fmt::format("splgen {} {}", isa, t), true, o.isa, FftwEffort::Measure,
                   bool(o.tune), o.threads});
    out.push_back({"splgen_" + isa + "_1t", "splgen " + isa + " 1t", true, o.isa, FftwEffort::Measure, false, 1});
    out.push_back({"fftw_measure_" + t, "FFTW_MEASURE " + t, false, Isa::Scalar, FftwEffort::Measure, false, o.threads});
    if (o.patient)
      out.push_back({"fftw_patient_" + t, "FFTW_PATIENT " + t, false, Isa::Scalar, FftwEffort::Patient, false, o.threads});
    return out;
  }
  if (o.compare_default) {  // the rules' kernel first: the ratios against FFTW are its
    out.push_back({"splgen_" + isa + "_rules", "splgen " + isa + " rules", true, o.isa});
    out.push_back({"splgen_default", "splgen default", true, o.isa, FftwEffort::Measure, false, 1, false});
    out.push_back({"fftw_measure", "FFTW_MEASURE", false, Isa::Scalar, FftwEffort::Measure});
    if (o.patient) out.push_back({"fftw_patient", "FFTW_PATIENT", false, Isa::Scalar, FftwEffort::Patient});
    return out;
  }
  out.push_back({"splgen_" + isa, "splgen " + isa + (o.tune ? " wisdom" : ""), true, o.isa,
                 FftwEffort::Measure, bool(o.tune)});
  if (o.tune && o.default_baseline) out.push_back({"splgen_default", "splgen default", true, o.isa});
  if (o.isa != Isa::Scalar && o.scalar_baseline) out.push_back({"splgen_scalar", "splgen scalar", true, Isa::Scalar});
  out.push_back({"fftw_measure", "FFTW_MEASURE", false, Isa::Scalar, FftwEffort::Measure});
  if (o.patient) out.push_back({"fftw_patient", "FFTW_PATIENT", false, Isa::Scalar, FftwEffort::Patient});
  return out;
}

namespace {

int count_streamed_passes(const Sigma &s) {
  int n = s->kind == SigmaKind::Sum && s->mode == SumMode::Stream;
  for (const Sigma &c : s->children) n += count_streamed_passes(c);
  return n;
}

using Clock = std::chrono::steady_clock;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A spec to benchmark, checked before anything runs: its FFTW shape and sign.
struct Target {
  std::string spec;
  std::int64_t n;    // points in all
  int sign;          // -1: forward (FFTW_FORWARD); +1: the unnormalised inverse (FFTW_BACKWARD)
  FftwShape shape;   // what FFTW plans: DFT(n), DFT(a x b ...), I(m) (x) DFT(n)
  std::optional<RealKind> real;  // a real transform: FFTW's r2c, c2r or r2r plan of shape.dims
  std::int64_t in_reals() const { return real ? real_kind_in_reals(*real, shape.dims) : 2 * n; }
  std::int64_t out_reals() const { return real ? real_kind_out_reals(*real, shape.dims) : 2 * n; }
};

// The sign of a DFT of size n with root exponent b after --inverse; 0 if neither direction.
int dft_sign(std::int64_t n, std::int64_t b, bool inverse) {
  if (inverse) b = (n - b) % n;
  return b == 1 ? -1 : b == n - 1 ? 1 : 0;
}

// The specs with an FFTW twin: DFT(n) and DFT(n,-1), DFT(a x b ...), and batches I(m) (x) DFT(n)
// (plan_dft_1d, plan_dft, plan_many_dft).
Target check_target(const std::string &spec_text, bool inverse) {
  const Spl parsed = parse::parse_formula(spec_text);
  const Spl spec = streamed_spec(spec_text) ? parsed->children.front() : parsed;  // FFTW computes what it tags
  const std::int64_t n = spec->rows;
  if (n < 2 || n > kMaxBenchSize)
    throw FormulaError(fmt::format("bench needs from 2 to 2^24 points, not {} ({})", n, spec_text));
  Target t{spec_text, n, 0, {}, {}};
  if (spec->kind == SplKind::RealTransform) {
    if (inverse) throw FormulaError("bench --inverse: give IRDFT(n) (or DCT3 for DCT2) instead");
    t.n = spec->a, t.sign = -1, t.real = real_kind(spec);
    for (int64_t d : real_transform_dims(spec)) t.shape.dims.push_back(int(d));
    return t;
  }
  if (spec->kind == SplKind::DFT) {
    t.sign = dft_sign(n, spec->b, inverse), t.shape = {{int(n)}, 1};
  } else if (spec->kind == SplKind::DFTnd) {
    t.sign = dft_sign(n, spec->b, inverse);
    for (int64_t d : spec->perm) t.shape.dims.push_back(int(d));
  } else if (spec->kind == SplKind::Tensor && spec->children.size() == 2 &&
             spec->children[0]->kind == SplKind::Identity && spec->children[1]->kind == SplKind::DFT) {
    const Spl &dft = spec->children[1];
    t.sign = dft_sign(dft->a, dft->b, inverse), t.shape = {{int(dft->a)}, int(spec->children[0]->a)};
  }
  if (t.sign == 0)
    throw FormulaError(fmt::format("bench compares with FFTW, so SPEC must be DFT(n), DFT(n,-1), DFT(a x b ...), "
                                   "I(m) (x) DFT(n) or a real transform (RDFT(n), IRDFT(n), DCTk(n), DSTk(n)), not {}",
                                   print(spec)));
  return t;
}

// The radix-2 WHT loop, the baseline of WHT(n): n is a constant, as in splgen's kernels.
std::string radix2_wht_source(const std::string &name, std::int64_t n, Precision precision) {
  const char *real = precision == Precision::Float ? "float" : "double";
  return fmt::format(R"(// The straightforward in-place radix-2 Walsh-Hadamard transform, bench's WHT baseline.
extern "C" void {0}({1} *__restrict y, const {1} *__restrict x) {{
  for (long i = 0; i < {2}; ++i) y[i] = x[i];
  for (long h = 1; h < {2}; h *= 2)
    for (long i = 0; i < {2}; i += 2 * h)
      for (long j = i; j < i + h; ++j) {{
        const {1} a = y[j], b = y[j + h];
        y[j] = a + b;
        y[j + h] = a - b;
      }}
}}
)", name, real, n);
}

// The WHT of the first n reals of x by exact butterflies in long double, as pairs.
template <class T>
std::vector<std::complex<long double>> wht_reference(std::int64_t n, const std::vector<std::complex<T>> &x) {
  std::vector<long double> y(reinterpret_cast<const T *>(x.data()), reinterpret_cast<const T *>(x.data()) + n);
  for (std::int64_t h = 1; h < n; h *= 2)
    for (std::int64_t i = 0; i < n; i += 2 * h)
      for (std::int64_t j = i; j < i + h; ++j) {
        const long double a = y[std::size_t(j)], b = y[std::size_t(j + h)];
        y[std::size_t(j)] = a + b, y[std::size_t(j + h)] = a - b;
      }
  std::vector<std::complex<long double>> out(std::size_t(n + 1) / 2);
  for (std::size_t i = 0; i < y.size(); ++i)
    out[i / 2] = i % 2 ? std::complex<long double>(out[i / 2].real(), y[i]) : std::complex<long double>(y[i], 0);
  return out;
}

// fftwl's KIND(dims) of the first in_reals reals of x, as pairs (an odd count padded with 0).
template <class T>
std::vector<std::complex<long double>> real_reference(RealKind kind, const std::vector<int> &dims,
                                                      const std::vector<std::complex<T>> &x, std::size_t in_reals) {
  std::vector<long double> flat(reinterpret_cast<const T *>(x.data()), reinterpret_cast<const T *>(x.data()) + in_reals);
  std::vector<long double> y = fftwl_real(kind, dims, std::move(flat));
  std::vector<std::complex<long double>> out((y.size() + 1) / 2);
  for (std::size_t i = 0; i < y.size(); ++i) out[i / 2] = i % 2 ? std::complex<long double>(out[i / 2].real(), y[i])
                                                                 : std::complex<long double>(y[i], out[i / 2].imag());
  return out;
}

// c2r's input made Hermitian, as FFTW requires of it: the r2c of its real parts (scaled to
// the input's magnitude), so every plan and the reference compute the same thing.
template <class T>
void hermitian_input(const std::vector<int> &dims, std::vector<std::complex<T>> &input) {
  std::vector<long double> reals(std::size_t(real_kind_in_reals(RealKind::RDFT, dims)));
  for (std::size_t i = 0; i < reals.size(); ++i) reals[i] = i % 2 ? input[i / 2].imag() : input[i / 2].real();
  const long double scale = 1.0L / std::sqrt((long double)reals.size());
  std::vector<long double> half = fftwl_real(RealKind::RDFT, dims, std::move(reals));
  for (std::size_t i = 0; i + 1 < half.size(); i += 2) input[i / 2] = {T(half[i] * scale), T(half[i + 1] * scale)};
}

template <class T>
BenchRow bench_size(const Target &target, const BenchOptions &o, const std::vector<Implementation> &impls,
                    const BenchProgress &say) {
  const std::string &spec_text = target.spec;
  const std::int64_t n = target.n;
  const int sign = target.sign;
  const std::size_t k = impls.size(), in_reals = std::size_t(target.in_reals()),
                    out_reals = std::size_t(target.out_reals()), reals = std::max(in_reals, out_reals);

  // Every splgen kernel of this size goes into one shared object: one compiler run.
  auto start = Clock::now();
  TempDir dir("splgen-bench");
  std::vector<std::string> sources, symbols(k);
  int passes = 0;  // of a streamed kernel: each reads and writes all the data once
  double adds_over_bound = kNaN;
  for (std::size_t i = 0; i < k; ++i) {
    if (impls[i].radix2_loop) {
      symbols[i] = "splgen_bench_" + impls[i].id;
      sources.push_back(dir.write(symbols[i] + ".cpp", radix2_wht_source(symbols[i], n, o.precision)));
    }
    if (!impls[i].splgen) continue;
    driver::GenOptions g;
    g.name = "splgen_bench_" + impls[i].id;
    g.precision = o.precision;
    g.isa = impls[i].isa;
    g.inverse = o.inverse;
    if (impls[i].rules) g.rule_files = o.rule_files, g.prefer_rules = o.prefer_rules, g.only_rules = o.only_rules;
    g.threads = impls[i].threads, g.threading = o.threading;
    if (impls[i].isa == o.isa)
      g.codelet_max = o.codelet_max, g.top_codelet_max = o.top_codelet_max, g.masked_remainders = o.masked_remainders;
    if (impls[i].tuned) g = o.tune(spec_text, g);
    g.dma = impls[i].dma;
    g.io.in_place = impls[i].in_place;
    driver::PipelineResult r = driver::run_pipeline(spec_text, g);
    passes = std::max(passes, count_streamed_passes(r.merged));
    if (target.real == RealKind::WHT && i == 0)
      adds_over_bound = double(lower::count_operations(r.program.loops).adds) / (double(n) * std::log2(double(n)));
    sources.push_back(dir.write(g.name + ".cpp", r.source));
    symbols[i] = g.name;
  }
  const bool streamed = streamed_spec(spec_text);
  // threaded: the threading's flags; streamed: -pthread and the runtime headers (the team's flags)
  const std::string flags = o.threads > 1 ? fmt::format("{} {}", o.flags, threading_flags(o.threading))
                            : streamed    ? fmt::format("{} {}", o.flags, threading_flags(Threading::Team))
                                          : o.flags;
  if (o.threads > 1 && o.threading == Threading::OpenMP) keep_openmp_loaded();
  SharedObject lib(compile_shared_object(sources, dir.file("kernels.so"), o.compiler, flags));
  say(fmt::format("compiled {:.2f} s", seconds_since(start)));

  // Buffers and plans; FFTW_MEASURE and _PATIENT scribble on the buffers, so inputs come after.
  start = Clock::now();
  std::vector<std::optional<AlignedBuffer<T>>> in(k), out(k);
  std::vector<std::optional<FftwPlan>> plans(k);
  std::vector<std::optional<FftwRealPlan>> real_plans(k);
  std::vector<Workload> runs(k);
  for (std::size_t i = 0; i < k; ++i) {
    if (!impls[i].splgen && impls[i].effort == FftwEffort::Patient && n > kMaxPatientSize) continue;
    in[i].emplace(reals);
    out[i].emplace(reals);
    T *x = in[i]->get(), *y = out[i]->get();
    if (impls[i].copy) {
      runs[i] = [x, y, reals, passes](std::int64_t times) {
        for (std::int64_t t = 0; t < times * passes; ++t) std::memcpy(y, x, reals * sizeof(T));
      };
    } else if (impls[i].splgen && impls[i].in_place) {  // NAME(xy): transforms x where it is
      auto *kernel = lib.symbol<void(T *)>(symbols[i]);
      runs[i] = [kernel, x](std::int64_t times) {
        for (std::int64_t t = 0; t < times; ++t) kernel(x);
      };
    } else if (impls[i].splgen || impls[i].radix2_loop) {
      auto *kernel = lib.symbol<void(T *, const T *)>(symbols[i]);
      runs[i] = [kernel, x, y](std::int64_t times) {
        for (std::int64_t t = 0; t < times; ++t) kernel(y, x);
      };
    } else if (target.real) {
      const FftwRealPlan &plan = real_plans[i].emplace(o.precision, *target.real, target.shape.dims, impls[i].effort, x, y);
      runs[i] = [&plan](std::int64_t times) { plan.execute(times); };
    } else {
      const FftwPlan &plan = plans[i].emplace(o.precision, target.shape, sign, impls[i].effort, x,
                                              impls[i].in_place ? x : y, impls[i].threads);
      runs[i] = [&plan](std::int64_t times) { plan.execute(times); };
    }
  }
  say(fmt::format(", planned {:.2f} s", seconds_since(start)));

  // One random input for all; each result against the long-double reference.
  start = Clock::now();
  std::mt19937_64 rng{std::uint64_t(n)};
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  // Reals in pairs (a real output of odd length padded with a 0), so one error measure serves.
  std::vector<std::complex<T>> input((reals + 1) / 2), output((out_reals + 1) / 2);
  for (auto &v : input) v = {T(uniform(rng)), T(uniform(rng))};
  if (target.real == RealKind::IRDFT) hermitian_input(target.shape.dims, input);
  const bool one_dimensional = target.shape.dims.size() == 1 && target.shape.howmany == 1;
  const auto reference = target.real == RealKind::WHT ? wht_reference<T>(n, input)
                         : target.real ? real_reference<T>(*target.real, target.shape.dims, input, in_reals)
                         : one_dimensional ? accurate_dft(convert<long double>(input), sign)
                                           : fftwl_many(convert<long double>(input), target.shape.dims,
                                                        target.shape.howmany, sign);
  BenchRow row;
  row.n = n;
  row.spec = spec_text;
  row.repetitions = o.repetitions > 0 ? o.repetitions : default_repetitions(n);
  row.adds_over_bound = adds_over_bound;
  row.ns.assign(k, kNaN);
  row.error.assign(k, kNaN);
  std::vector<Workload> active;
  std::vector<std::size_t> active_index;
  for (std::size_t i = 0; i < k; ++i) {
    if (!runs[i]) continue;
    std::copy_n(reinterpret_cast<const T *>(input.data()), in_reals, in[i]->get());
    if (impls[i].copy) {  // no transform to check
      active.push_back(runs[i]);
      active_index.push_back(i);
      continue;
    }
    runs[i](1);
    std::copy_n(impls[i].in_place ? in[i]->get() : out[i]->get(), out_reals, reinterpret_cast<T *>(output.data()));
    row.error[i] = relative_rms_error(output, reference);
    active.push_back(runs[i]);
    active_index.push_back(i);
  }
  say(fmt::format(", checked {:.2f} s", seconds_since(start)));

  start = Clock::now();
  std::vector<Timing> timings = time_interleaved(active, {row.repetitions, o.min_sample_seconds});
  for (std::size_t j = 0; j < active.size(); ++j) row.ns[active_index[j]] = timings[j].median_ns;
  say(fmt::format(", timed {:.2f} s\n", seconds_since(start)));
  return row;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> bench_meta(const BenchOptions &o, const std::string &spec, bool inverse) {
  const std::string compiler = o.compiler.empty() ? default_compiler() : o.compiler;
  return {
      {"spec", spec},
      {"direction", inverse ? "inverse" : "forward"},
      {"isa", isa_name(o.isa)},
      {"precision", o.precision == Precision::Float ? "float" : "double"},
      {"cpu", cpu_model()},
      {"compiler", compiler},
      {"compiler_version", compiler_version(compiler)},
      {"flags", o.flags},
      {"fftw_version", fftw_version_string()},
      {"date", utc_timestamp()},
      {"splgen_version", SPLGEN_VERSION},
      {"min_time_ms", fmt::format("{:g}", o.min_sample_seconds * 1e3)},
  };
}

BenchResult run_bench(const BenchOptions &o, const BenchProgress &progress) {
  BenchProgress say = progress ? progress : [](const std::string &) {};
  std::vector<Target> targets;
  if (!o.spec.empty()) {
    targets.push_back(check_target(o.spec, o.inverse));
  } else {
    for (std::int64_t n : o.sizes) targets.push_back(check_target(fmt::format("{}({})", o.kind, n), o.inverse));
  }
  // DFT(n,-1) is an inverse without --inverse; for n <= 2 both directions are one transform.
  bool inverse = o.inverse;
  if (!o.spec.empty() && targets[0].n > 2) inverse = targets[0].sign > 0;
  if (targets[0].real == RealKind::IRDFT) inverse = true;  // c2r, FFTW_BACKWARD
  BenchResult result;
  result.implementations = bench_implementations(o);
  result.meta = bench_meta(o, o.spec.empty() ? o.kind + "(n)" : o.spec, inverse);

  if (!o.rule_files.empty()) result.meta.push_back({"rules", fmt::format("{}", fmt::join(o.rule_files, " "))});
  if (streamed_spec(o.spec))
    result.meta.push_back({"streamed", "splgen isa: the copy-thread DMA engine; splgen sync: the synchronous engine; "
                                       "memcpy floor: the data copied once per pass"});
  if (o.in_place)  // repeated in place, a transform runs on the previous one's output
    result.meta.push_back({"in_place", "splgen and FFTW_MEASURE in place transform x where it is, each timed run on the "
                                       "last one's output"});
  if (o.threads > 1) {
    if (!fftw_has_threads()) throw FormulaError("bench --threads: this FFTW3 has no threads library (libfftw3_threads)");
    result.meta.push_back({"threads", fmt::format("{} ({})", o.threads, threading_name(o.threading))});
  }
  for (std::size_t s = 0; s < targets.size(); ++s) {
    say(fmt::format("[{}/{}] {}: ", s + 1, targets.size(), targets[s].spec));
    if (o.precision == Precision::Float)
      result.rows.push_back(bench_size<float>(targets[s], o, result.implementations, say));
    else
      result.rows.push_back(bench_size<double>(targets[s], o, result.implementations, say));
  }
  return result;
}

}  // namespace splgen::measure
