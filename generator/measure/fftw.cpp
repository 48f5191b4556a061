#include "generator/measure/fftw.h"

#include <fftw3.h>

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

FftwPlan::FftwPlan(Precision precision, std::int64_t n, int sign, FftwEffort effort, void *in, void *out)
    : precision_(precision) {
  if (n < 1 || n > std::numeric_limits<int>::max())
    throw std::invalid_argument("FFTW plan: bad size " + std::to_string(n));
  if (sign != -1 && sign != 1) throw std::invalid_argument("FFTW plan: sign must be -1 or +1");
  const int direction = sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD;
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  if (precision == Precision::Double)
    plan_ = fftw_plan_dft_1d(int(n), static_cast<fftw_complex *>(in), static_cast<fftw_complex *>(out), direction,
                             fftw_flags(effort));
  else
    plan_ = fftwf_plan_dft_1d(int(n), static_cast<fftwf_complex *>(in), static_cast<fftwf_complex *>(out), direction,
                              fftw_flags(effort));
  if (!plan_) throw std::runtime_error("FFTW could not plan a DFT of size " + std::to_string(n));
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
