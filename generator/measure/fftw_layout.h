// FFTW's guru plans for the layouts of splgen's kernels (docs/transforms.md, "Layouts"):
// howmany transforms of a row-major size, element j of transform b at b*dist + j*stride,
// interleaved (plan_guru64_dft) or split (plan_guru64_split_dft), in place when in == out.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "generator/ir/real_kind.h"

#include "generator/target/target.h"
#include "generator/measure/fftw.h"

namespace splgen::measure {

struct FftwLayout {
  std::vector<int> dims;
  std::int64_t howmany = 1, istride = 1, idist = 0, ostride = 1, odist = 0;
  bool split = false;
  // A real transform of dims (r2c, c2r with FFTW_PRESERVE_INPUT in 1D, where FFTW has it; r2r
  // of the kind along every dimension): strides count reals on its real side, complex numbers
  // on its complex side, whose last dimension is n/2+1.
  std::optional<RealKind> real;
  // inembed/onembed of fftw_plan_many_dft (empty: dims): the guru dims then step by the
  // embedding's row pitches.
  std::vector<std::int64_t> inembed, onembed;
};

// Interleaved: re_in/re_out hold the complex data, im_* are null. Split: four arrays of reals
// (the inverse swaps real and imaginary parts, FFTW manual 4.5.3). in == out: in place.
// A real transform takes re_in and re_out.
class FftwLayoutPlan {
 public:
  FftwLayoutPlan(Precision precision, const FftwLayout &layout, int sign, FftwEffort effort, void *re_in, void *im_in,
                 void *re_out, void *im_out);
  FftwLayoutPlan(const FftwLayoutPlan &) = delete;
  FftwLayoutPlan &operator=(const FftwLayoutPlan &) = delete;
  ~FftwLayoutPlan();
  void execute(std::int64_t times = 1) const;

 private:
  Precision precision_;
  void *plan_ = nullptr;
};

}  // namespace splgen::measure
