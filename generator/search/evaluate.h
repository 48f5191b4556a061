// Timing candidate plans (SPIRAL's search loop): each plan is generated, many go into one
// translation unit (their tables live in NAME_detail namespaces, their SIMD helpers are
// guarded, so kernels compile together), the units are compiled in parallel by the system
// compiler, loaded with dlopen, checked against FFTW3 on a random input, and the correct
// ones are timed warm and interleaved (median of repetitions, generator/measure/timer.h).
#pragma once
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "generator/ir/spl.h"
#include "generator/driver/pipeline.h"
#include "generator/search/plan.h"

namespace splgen::search {

struct EvalOptions {
  driver::GenOptions gen;                        // isa, precision, rule files (plan, name, inverse are set per plan)
  std::string compiler;                  // empty: $CXX, else c++
  std::string flags = "-O3 -march=native";
  std::string include_header;            // passed as -include (precompiled.h); a unit that fails with it is compiled again without
  int jobs = 0;                          // compilers run at once; 0: the available cores
  int max_per_unit = 12;                 // kernels per translation unit at most
  int repetitions = 9;                   // timed rounds; the median counts
  double min_sample_seconds = 2e-4;      // shortest timed sample
};

struct Evaluation {
  enum class Status { Ok, Wrong, CompileError, GenError, Skipped };
  Status status = Status::Skipped;
  double ns = 0;          // median time of one transform (Ok only)
  double error = 0;       // relative RMS error against FFTW3 (Ok and Wrong)
  std::string message;    // why not Ok
};
const char *status_name(Evaluation::Status status);  // "ok", "wrong", "compile error", "generation error", "skipped"

// Largest relative RMS error against FFTW3 a correct kernel may have.
double error_tolerance(Precision precision);

// The FFTW3 direction of a transform the search checks: -1 for DFT(n), +1 for DFT(n, n-1) (the
// inverse); a FormulaError for any other formula, which FFTW does not compute.
int fftw_sign(const Spl &node);

// What a kernel must compute before it counts (a candidate is timed, a stored plan is used):
// FFTW3's output for one random input (uniform in [-1, 1), seeded by n), within
// error_tolerance. T is the kernel's precision (float or double).
template <class T>
struct KernelCheck {
  std::vector<std::complex<T>> input, reference;
  double tolerance = 0;
  // The relative RMS error of a kernel's output for `input` against `reference`.
  double error(const std::vector<std::complex<T>> &output) const;
  bool passes(double error) const { return error <= tolerance; }  // NaN never passes
};
template <class T>
KernelCheck<T> kernel_check(const Spl &node);  // node: DFT(n) or DFT(n, n-1), as fftw_sign

// Compiler runs at once when EvalOptions::jobs is 0: the cores this process may use.
int default_jobs();

// Evaluates plans for one transform: `node` is DFT(n) or DFT(n, n-1) (the roots FFTW computes).
// `stop` is polled between compilations; plans not reached are Skipped. One Evaluation per plan.
std::vector<Evaluation> evaluate_plans(const Spl &node, const std::vector<Plan> &plans, const EvalOptions &options,
                                       const std::function<bool()> &stop = {});

}  // namespace splgen::search
