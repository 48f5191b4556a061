// FFTW3's plans and long-double references for the real transforms (docs/transforms.md):
// RDFT = plan_dft_r2c, IRDFT = plan_dft_c2r (with FFTW_PRESERVE_INPUT, as splgen's kernels
// keep their input), DCTk/DSTk = plan_r2r with REDFT10/01/11, RODFT10/01/11. WHT has no twin.
#pragma once
#include <cstdint>
#include <vector>

#include "generator/ir/real_kind.h"
#include "generator/measure/fftw.h"

namespace splgen::measure {

// Reals in x and out of y of the transform of size n, or of the row-major dimensions dims
// (FFTW's multi-dimensional r2c/c2r/r2r), as the kernels hold them (complex interleaved).
std::int64_t real_kind_in_reals(RealKind kind, std::int64_t n);
std::int64_t real_kind_out_reals(RealKind kind, std::int64_t n);
std::int64_t real_kind_in_reals(RealKind kind, const std::vector<int> &dims);
std::int64_t real_kind_out_reals(RealKind kind, const std::vector<int> &dims);
bool has_fftw_twin(RealKind kind);
// FFTW's r2r kind (fftw3.h's fftw_r2r_kind, FFTW_REDFT10 ...) of a DCT or DST, as an int so that
// this header needs no fftw3.h; std::invalid_argument for the other kinds.
int fftw_r2r_kind_of(RealKind kind);

// A plan for y = KIND(n1 x n2 ...) x on buffers of the precision; move-only like FftwPlan.
class FftwRealPlan {
 public:
  FftwRealPlan(Precision precision, RealKind kind, const std::vector<int> &dims, FftwEffort effort, void *in, void *out);
  FftwRealPlan(FftwRealPlan &&other) noexcept;
  FftwRealPlan(const FftwRealPlan &) = delete;
  FftwRealPlan &operator=(const FftwRealPlan &) = delete;
  FftwRealPlan &operator=(FftwRealPlan &&) = delete;
  ~FftwRealPlan();
  void execute(std::int64_t times = 1) const;

 private:
  Precision precision_ = Precision::Double;
  void *plan_ = nullptr;
};

// y = KIND(n1 x n2 ...) x in long double by fftwl's plan (x and y as the kernels hold them).
std::vector<long double> fftwl_real(RealKind kind, const std::vector<int> &dims, std::vector<long double> x);

}  // namespace splgen::measure
