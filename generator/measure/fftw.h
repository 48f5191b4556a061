// FFTW3 plans for the transforms splgen generates (1D complex DFT, interleaved, out-of-place),
// in double or float chosen at run time, for timing against splgen's kernels.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>

#include "generator/target/target.h"

namespace splgen::measure {

// FFTW's planner is not thread-safe: every plan creation and destruction holds this lock.
std::mutex &fftw_planner_mutex();

// The library's own version string, e.g. "fftw-3.3.10-sse2-avx".
std::string fftw_version_string();

// FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT.
enum class FftwEffort { Estimate, Measure, Patient };
const char *fftw_effort_name(FftwEffort effort);  // "FFTW_MEASURE"

// A plan for y = DFT(n) x (sign -1, FFTW_FORWARD) or its unnormalised inverse (sign +1) on the
// given buffers of 2n reals of the precision. Measure and Patient overwrite both buffers while
// planning. Move-only; destroys the plan at destruction.
class FftwPlan {
 public:
  FftwPlan(Precision precision, std::int64_t n, int sign, FftwEffort effort, void *in, void *out);
  FftwPlan(FftwPlan &&other) noexcept;
  FftwPlan &operator=(FftwPlan &&other) noexcept;
  FftwPlan(const FftwPlan &) = delete;
  FftwPlan &operator=(const FftwPlan &) = delete;
  ~FftwPlan();

  // Runs the transform `times` times in a row (the loop is here so that a timed sample
  // costs one indirect call, not one per transform).
  void execute(std::int64_t times = 1) const;

 private:
  void destroy();
  Precision precision_ = Precision::Double;
  void *plan_ = nullptr;  // fftw_plan or fftwf_plan
};

}  // namespace splgen::measure
