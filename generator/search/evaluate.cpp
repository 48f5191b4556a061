#include "generator/search/evaluate.h"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "generator/ir/print.h"
#include "generator/measure/compile.h"
#include "generator/measure/reference.h"
#include "generator/measure/timer.h"

namespace splgen::search {

const char *status_name(Evaluation::Status status) {
  switch (status) {
    case Evaluation::Status::Ok: return "ok";
    case Evaluation::Status::Wrong: return "wrong";
    case Evaluation::Status::CompileError: return "compile error";
    case Evaluation::Status::GenError: return "generation error";
    case Evaluation::Status::Skipped: return "skipped";
  }
  return "?";
}

double error_tolerance(Precision precision) { return precision == Precision::Float ? 1e-4 : 1e-10; }

int default_jobs() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {

template <class T>
struct AlignedFree {
  void operator()(T *p) const { std::free(p); }
};
template <class T>
std::unique_ptr<T, AlignedFree<T>> aligned_buffer(std::size_t count) {
  T *p = static_cast<T *>(std::aligned_alloc(64, (count * sizeof(T) + 63) / 64 * 64));
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T, AlignedFree<T>>(p);
}

template <class T>
void check_and_time(const Spl &node, const std::vector<std::size_t> &loaded,
                    const std::vector<void (*)(T *, const T *)> &kernels, std::vector<Evaluation> &out,
                    const EvalOptions &o) {
  const std::size_t n = std::size_t(node->rows), reals = 2 * n;
  const KernelCheck<T> check = kernel_check<T>(node);
  std::vector<std::complex<T>> output(n);
  using Buffer = std::unique_ptr<T, AlignedFree<T>>;
  std::vector<Buffer> ins, outs;
  std::vector<measure::Workload> runs;
  std::vector<std::size_t> timed;
  for (std::size_t i : loaded) {
    auto *kernel = kernels[i];
    Buffer x = aligned_buffer<T>(reals), y = aligned_buffer<T>(reals);
    std::copy_n(reinterpret_cast<const T *>(check.input.data()), reals, x.get());
    kernel(y.get(), x.get());
    std::copy_n(y.get(), reals, reinterpret_cast<T *>(output.data()));
    double err = check.error(output);
    out[i].error = err;
    if (!check.passes(err)) {
      out[i].status = Evaluation::Status::Wrong;
      out[i].message = fmt::format("relative RMS error {:.1e} against FFTW3", err);
      continue;
    }
    T *xp = x.get(), *yp = y.get();
    runs.push_back([kernel, xp, yp](std::int64_t times) {
      for (std::int64_t t = 0; t < times; ++t) kernel(yp, xp);
    });
    ins.push_back(std::move(x));
    outs.push_back(std::move(y));
    timed.push_back(i);
  }
  if (runs.empty()) return;
  std::vector<measure::Timing> t = measure::time_interleaved(runs, {o.repetitions, o.min_sample_seconds});
  for (std::size_t j = 0; j < timed.size(); ++j) {
    out[timed[j]].status = Evaluation::Status::Ok;
    out[timed[j]].ns = t[j].median_ns;
  }
}

}  // namespace

int fftw_sign(const Spl &node) {
  if (node->kind != SplKind::DFT) throw FormulaError("the search times DFT(n) only, not " + print(node));
  const int64_t n = node->rows;
  if (n <= 2 || node->b == 1) return -1;
  if (node->b == n - 1) return 1;
  throw FormulaError("the search checks kernels against FFTW, which computes DFT(n) and DFT(n,-1), not " + print(node));
}

template <class T>
double KernelCheck<T>::error(const std::vector<std::complex<T>> &output) const {
  return measure::relative_rms_error(output, reference);
}

template <class T>
KernelCheck<T> kernel_check(const Spl &node) {
  const int sign = fftw_sign(node);
  const std::size_t n = std::size_t(node->rows);
  KernelCheck<T> c;
  std::mt19937_64 rng{n * 7919 + 1};
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  c.input.resize(n);
  for (auto &v : c.input) v = {T(uniform(rng)), T(uniform(rng))};
  if constexpr (std::is_same_v<T, float>)
    c.reference = measure::fftwf_dft(c.input, sign);
  else
    c.reference = measure::fftw_dft(c.input, sign);
  c.tolerance = error_tolerance(std::is_same_v<T, float> ? Precision::Float : Precision::Double);
  return c;
}

template struct KernelCheck<float>;
template struct KernelCheck<double>;
template KernelCheck<float> kernel_check<float>(const Spl &);
template KernelCheck<double> kernel_check<double>(const Spl &);

std::vector<Evaluation> evaluate_plans(const Spl &node, const std::vector<Plan> &plans, const EvalOptions &o,
                                       const std::function<bool()> &stop) {
  std::vector<Evaluation> out(plans.size());
  if (plans.empty()) return out;
  fftw_sign(node);  // a transform FFTW computes, or a FormulaError before anything is compiled
  const std::string spec_text = print(node);

  // Generate every kernel (cheap), each under its own name.
  std::vector<std::string> sources(plans.size()), names(plans.size());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    driver::GenOptions g = with_plan(o.gen, plans[i]);
    g.inverse = false;  // node carries its root
    g.name = fmt::format("splgen_candidate_{}", i);
    try {
      sources[i] = driver::run_pipeline(spec_text, g).source;
      names[i] = g.name;
    } catch (const std::exception &e) {
      out[i].status = Evaluation::Status::GenError;
      out[i].message = e.what();
    }
  }
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (!names[i].empty()) todo.push_back(i);

  // Translation units: at least one per compiler job, at most max_per_unit kernels each.
  const int jobs = o.jobs > 0 ? o.jobs : default_jobs();
  const std::size_t per_unit_cap = std::size_t(std::max(1, o.max_per_unit));
  std::size_t units = std::max<std::size_t>(std::min<std::size_t>(todo.size(), std::size_t(jobs)),
                                            (todo.size() + per_unit_cap - 1) / per_unit_cap);
  std::vector<std::vector<std::size_t>> members(units);
  for (std::size_t k = 0; k < todo.size(); ++k) members[k * units / todo.size()].push_back(todo[k]);

  measure::TempDir dir("splgen-search");
  std::vector<std::optional<measure::SharedObject>> libs(units);
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  auto worker = [&] {
    for (;;) {
      std::size_t u = next++;
      if (u >= units) return;
      if (stop && stop()) continue;  // the rest stay Skipped
      std::string text;
      for (std::size_t i : members[u]) text += sources[i] + "\n";
      std::string src = dir.write(fmt::format("unit{}.cpp", u), text);
      try {
        const std::string so_path = dir.file(fmt::format("unit{}.so", u));
        std::string so;
        if (!o.include_header.empty()) {
          try {
            so = measure::compile_shared_object({src}, so_path, o.compiler, o.flags + " -include " + measure::shell_quote(o.include_header));
          } catch (const measure::CompileError &) {
            if (stop && stop()) throw;
            // A precompiled header the compiler refuses: the unit's own error, if any, comes next.
          }
        }
        if (so.empty()) so = measure::compile_shared_object({src}, so_path, o.compiler, o.flags);
        std::lock_guard<std::mutex> lock(mutex);
        libs[u].emplace(so);
      } catch (const measure::CompileError &e) {
        if (stop && stop()) continue;  // a compiler killed by Ctrl-C: not its fault
        std::lock_guard<std::mutex> lock(mutex);
        for (std::size_t i : members[u]) {
          out[i].status = Evaluation::Status::CompileError;
          out[i].message = e.command + ": " + e.first_error();
        }
      } catch (const std::exception &e) {
        if (stop && stop()) continue;
        std::lock_guard<std::mutex> lock(mutex);
        for (std::size_t i : members[u]) {
          out[i].status = Evaluation::Status::CompileError;
          out[i].message = e.what();
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::min<int>(jobs, int(units)); ++j) threads.emplace_back(worker);
  for (std::thread &t : threads) t.join();

  std::vector<std::size_t> loaded;
  std::vector<void (*)(double *, const double *)> dk(plans.size(), nullptr);
  std::vector<void (*)(float *, const float *)> fk(plans.size(), nullptr);
  for (std::size_t u = 0; u < units; ++u) {
    if (!libs[u]) continue;
    for (std::size_t i : members[u]) {
      if (o.gen.precision == Precision::Float)
        fk[i] = libs[u]->symbol<void(float *, const float *)>(names[i]);
      else
        dk[i] = libs[u]->symbol<void(double *, const double *)>(names[i]);
      loaded.push_back(i);
    }
  }
  std::sort(loaded.begin(), loaded.end());
  if (stop && stop()) return out;  // interrupted: nothing is timed half-way
  if (o.gen.precision == Precision::Float)
    check_and_time<float>(node, loaded, fk, out, o);
  else
    check_and_time<double>(node, loaded, dk, out, o);
  return out;
}

}  // namespace splgen::search
