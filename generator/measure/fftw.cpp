#include "generator/measure/fftw.h"

#include <fftw3.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace splgen::measure {

std::mutex &fftw_planner_mutex() {
  static std::mutex m;
  return m;
}

std::string fftw_version_string() { return fftw_version; }

const char *fftw_effort_name(FftwEffort effort) {
  switch (effort) {
    case FftwEffort::Estimate: return "FFTW_ESTIMATE";
    case FftwEffort::Measure: return "FFTW_MEASURE";
    case FftwEffort::Patient: return "FFTW_PATIENT";
  }
  return "?";
}

namespace {

unsigned fftw_flags(FftwEffort effort) {
  switch (effort) {
    case FftwEffort::Estimate: return FFTW_ESTIMATE;
    case FftwEffort::Measure: return FFTW_MEASURE;
    case FftwEffort::Patient: return FFTW_PATIENT;
  }
  return FFTW_ESTIMATE;
}

}  // namespace

std::int64_t FftwShape::points() const {
  std::int64_t n = howmany;
  for (int d : dims) n *= d;
  return n;
}

bool fftw_has_threads() { return SPLGEN_FFTW_THREADS != 0; }

namespace {

// fftw_init_threads once per precision, under the planner lock (docs: before any other call
// that plans with threads).
void set_plan_threads(Precision precision, int threads) {
#if SPLGEN_FFTW_THREADS
  static bool double_ready = false, float_ready = false;
  if (precision == Precision::Double) {
    if (!double_ready) double_ready = fftw_init_threads() != 0;
    fftw_plan_with_nthreads(threads);
  } else {
    if (!float_ready) float_ready = fftwf_init_threads() != 0;
    fftwf_plan_with_nthreads(threads);
  }
#else
  if (threads > 1) throw std::runtime_error("this FFTW3 has no threads library (libfftw3_threads): no threaded plans");
  (void)precision;
#endif
}

}  // namespace

FftwPlan::FftwPlan(Precision precision, std::int64_t n, int sign, FftwEffort effort, void *in, void *out)
    : FftwPlan(precision, FftwShape{{int(std::min<std::int64_t>(n, std::numeric_limits<int>::max()))}, 1}, sign, effort,
               in, out) {
  if (n < 1 || n > std::numeric_limits<int>::max()) throw std::invalid_argument("FFTW plan: bad size " + std::to_string(n));
}

FftwPlan::FftwPlan(Precision precision, const FftwShape &shape, int sign, FftwEffort effort, void *in, void *out,
                   int threads)
    : precision_(precision) {
  if (shape.dims.empty() || shape.howmany < 1 || shape.points() > std::numeric_limits<int>::max())
    throw std::invalid_argument("FFTW plan: bad shape");
  for (int d : shape.dims)
    if (d < 1) throw std::invalid_argument("FFTW plan: bad size " + std::to_string(d));
  if (sign != -1 && sign != 1) throw std::invalid_argument("FFTW plan: sign must be -1 or +1");
  const int direction = sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD;
  const int rank = int(shape.dims.size()), dist = int(shape.points() / shape.howmany);
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  set_plan_threads(precision, threads);
  if (precision == Precision::Double)
    plan_ = fftw_plan_many_dft(rank, shape.dims.data(), shape.howmany, static_cast<fftw_complex *>(in), nullptr, 1, dist,
                               static_cast<fftw_complex *>(out), nullptr, 1, dist, direction, fftw_flags(effort));
  else
    plan_ = fftwf_plan_many_dft(rank, shape.dims.data(), shape.howmany, static_cast<fftwf_complex *>(in), nullptr, 1,
                                dist, static_cast<fftwf_complex *>(out), nullptr, 1, dist, direction, fftw_flags(effort));
  if (threads > 1) set_plan_threads(precision, 1);  // later plans are single-threaded unless asked
  if (!plan_) throw std::runtime_error("FFTW could not plan a DFT of " + std::to_string(shape.points()) + " points");
}

FftwPlan::FftwPlan(FftwPlan &&other) noexcept
    : precision_(other.precision_), plan_(std::exchange(other.plan_, nullptr)) {}

FftwPlan &FftwPlan::operator=(FftwPlan &&other) noexcept {
  if (this != &other) {
    destroy();
    precision_ = other.precision_;
    plan_ = std::exchange(other.plan_, nullptr);
  }
  return *this;
}

FftwPlan::~FftwPlan() { destroy(); }

void FftwPlan::destroy() {
  if (!plan_) return;
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  if (precision_ == Precision::Double)
    fftw_destroy_plan(static_cast<fftw_plan>(plan_));
  else
    fftwf_destroy_plan(static_cast<fftwf_plan>(plan_));
  plan_ = nullptr;
}

void FftwPlan::execute(std::int64_t times) const {
  if (precision_ == Precision::Double) {
    auto plan = static_cast<fftw_plan>(plan_);
    for (std::int64_t i = 0; i < times; ++i) fftw_execute(plan);
  } else {
    auto plan = static_cast<fftwf_plan>(plan_);
    for (std::int64_t i = 0; i < times; ++i) fftwf_execute(plan);
  }
}

}  // namespace splgen::measure
