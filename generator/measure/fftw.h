// FFTW3 plans for the transforms splgen generates (1D complex DFT, interleaved, out-of-place),
// in double or float chosen at run time, for timing against splgen's kernels.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "generator/target/target.h"

namespace splgen::measure {

// FFTW's planner is not thread-safe: every plan creation and destruction holds this lock.
std::mutex &fftw_planner_mutex();

// The library's own version string, e.g. "fftw-3.3.10-sse2-avx".
std::string fftw_version_string();

// FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT.
enum class FftwEffort { Estimate, Measure, Patient };
const char *fftw_effort_name(FftwEffort effort);  // "FFTW_MEASURE"

// What a plan transforms: `howmany` transforms of the multi-dimensional size `dims` (row major,
// FFTW's plan_many_dft), one after another in memory: DFT(n) is {{n}, 1}, DFT(a x b) {{a, b}, 1},
// I(m) (x) DFT(n) {{n}, m}.
struct FftwShape {
  std::vector<int> dims;
  int howmany = 1;
  std::int64_t points() const;
};

// Whether this FFTW has its threads library (libfftw3_threads): plans with threads > 1 need it.
bool fftw_has_threads();

// A plan for y = DFT(n) x (sign -1, FFTW_FORWARD) or its unnormalised inverse (sign +1) on the
// given buffers of 2n reals of the precision. Measure and Patient overwrite both buffers while
// planning. Move-only; destroys the plan at destruction.
class FftwPlan {
 public:
  FftwPlan(Precision precision, std::int64_t n, int sign, FftwEffort effort, void *in, void *out);
  // Any shape; `threads` > 1 plans with fftw_plan_with_nthreads (std::runtime_error without
  // the threads library).
  FftwPlan(Precision precision, const FftwShape &shape, int sign, FftwEffort effort, void *in, void *out, int threads = 1);
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
