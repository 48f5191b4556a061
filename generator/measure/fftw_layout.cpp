#include "generator/measure/fftw_layout.h"

#include <fftw3.h>

#include <mutex>
#include <stdexcept>

#include "generator/measure/real_fftw.h"

namespace splgen::measure {

namespace {

unsigned flags_of(FftwEffort effort) {
  return effort == FftwEffort::Estimate ? FFTW_ESTIMATE : effort == FftwEffort::Patient ? FFTW_PATIENT : FFTW_MEASURE;
}

// The extent of dimension k of one side's array: the embedding's, else the transform's (on
// the complex side of a multi-dimensional r2c/c2r, n/2+1 in the last dimension).
std::ptrdiff_t extent(const FftwLayout &l, bool input, std::size_t k) {
  const std::vector<std::int64_t> &embed = input ? l.inembed : l.onembed;
  if (!embed.empty()) return std::ptrdiff_t(embed[k]);
  const bool complex_side = l.real == (input ? RealKind::IRDFT : RealKind::RDFT);
  return complex_side && k + 1 == l.dims.size() ? l.dims[k] / 2 + 1 : l.dims[k];
}

// Row-major dims with the layout's element stride: the last dimension moves by the stride,
// each other by the stride times the extents below it (inembed/onembed where given: what
// fftw_plan_many_dft makes of them).
template <class Iodim>
std::vector<Iodim> iodims(const FftwLayout &l) {
  std::vector<Iodim> d(l.dims.size());
  std::ptrdiff_t is = l.istride, os = l.ostride;
  for (std::size_t k = l.dims.size(); k-- > 0;) {
    d[k] = {l.dims[k], is, os};
    is *= extent(l, true, k), os *= extent(l, false, k);
  }
  return d;
}

// The guru64 planners of one precision.
template <class Guru, class Split, class R2c, class C2r, class R2r, class SplitR2c, class SplitC2r>
struct Planners {
  Guru guru;
  Split split;
  R2c r2c;
  C2r c2r;
  R2r r2r;
  SplitR2c split_r2c;
  SplitC2r split_c2r;
};

// Deduced from the seven functions (aggregates deduce their template arguments only from C++20).
template <class Guru, class Split, class R2c, class C2r, class R2r, class SplitR2c, class SplitC2r>
Planners<Guru, Split, R2c, C2r, R2r, SplitR2c, SplitC2r> planners_of(Guru guru, Split split, R2c r2c, C2r c2r, R2r r2r,
                                                                     SplitR2c split_r2c, SplitC2r split_c2r) {
  return {guru, split, r2c, c2r, r2r, split_r2c, split_c2r};
}

template <class Plan, class Real, class Complex, class Iodim, class Kind, class P>
Plan make(const FftwLayout &l, int sign, unsigned flags, void *ri, void *ii, void *ro, void *io, const P &planners) {
  std::vector<Iodim> dims = iodims<Iodim>(l);
  Iodim many{std::ptrdiff_t(l.howmany), std::ptrdiff_t(l.idist), std::ptrdiff_t(l.odist)};
  const int rank = int(dims.size());
  if (l.real == RealKind::RDFT && l.split)  // the complex side in two arrays
    return planners.split_r2c(rank, dims.data(), 1, &many, static_cast<Real *>(ri), static_cast<Real *>(ro),
                              static_cast<Real *>(io), flags);
  if (l.real == RealKind::IRDFT && l.split)
    return planners.split_c2r(rank, dims.data(), 1, &many, static_cast<Real *>(ri), static_cast<Real *>(ii),
                              static_cast<Real *>(ro), flags | FFTW_PRESERVE_INPUT);
  if (l.real == RealKind::RDFT)
    return planners.r2c(rank, dims.data(), 1, &many, static_cast<Real *>(ri), static_cast<Complex *>(ro), flags);
  if (l.real == RealKind::IRDFT)
    return planners.c2r(rank, dims.data(), 1, &many, static_cast<Complex *>(ri), static_cast<Real *>(ro),
                        ri == ro || rank > 1 ? flags : flags | FFTW_PRESERVE_INPUT);  // FFTW has no rank > 1 c2r preserving it
  if (l.real) {
    const std::vector<Kind> kinds(dims.size(), Kind(fftw_r2r_kind_of(*l.real)));  // the kind along every dimension
    return planners.r2r(rank, dims.data(), 1, &many, static_cast<Real *>(ri), static_cast<Real *>(ro), kinds.data(), flags);
  }
  const auto guru = planners.guru;
  const auto split = planners.split;
  if (!l.split)
    return guru(rank, dims.data(), 1, &many, static_cast<Complex *>(ri), static_cast<Complex *>(ro), sign, flags);
  if (sign > 0) std::swap(ri, ii), std::swap(ro, io);
  return split(rank, dims.data(), 1, &many, static_cast<Real *>(ri), static_cast<Real *>(ii), static_cast<Real *>(ro),
               static_cast<Real *>(io), flags);
}

}  // namespace

FftwLayoutPlan::FftwLayoutPlan(Precision precision, const FftwLayout &layout, int sign, FftwEffort effort, void *re_in,
                               void *im_in, void *re_out, void *im_out)
    : precision_(precision) {
  const bool split_in = layout.split && layout.real != RealKind::RDFT, split_out = layout.split && layout.real != RealKind::IRDFT;
  if ((split_in && !im_in) || (split_out && !im_out)) throw std::invalid_argument("FFTW split plan: imaginary arrays missing");
  if (layout.real && (!has_fftw_twin(*layout.real) || (layout.split && (layout.dims.size() != 1 ||
                                                                         (layout.real != RealKind::RDFT && layout.real != RealKind::IRDFT)))))
    throw std::invalid_argument("FFTW layout plan: a real transform has an FFTW twin, split only one-dimensional with a "
                                "complex side");
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  const unsigned flags = flags_of(effort);
  if (precision == Precision::Double)
    plan_ = make<fftw_plan, double, fftw_complex, fftw_iodim64, fftw_r2r_kind>(
        layout, sign, flags, re_in, im_in, re_out, im_out,
        planners_of(fftw_plan_guru64_dft, fftw_plan_guru64_split_dft, fftw_plan_guru64_dft_r2c, fftw_plan_guru64_dft_c2r,
                    fftw_plan_guru64_r2r, fftw_plan_guru64_split_dft_r2c, fftw_plan_guru64_split_dft_c2r));
  else
    plan_ = make<fftwf_plan, float, fftwf_complex, fftwf_iodim64, fftwf_r2r_kind>(
        layout, sign, flags, re_in, im_in, re_out, im_out,
        planners_of(fftwf_plan_guru64_dft, fftwf_plan_guru64_split_dft, fftwf_plan_guru64_dft_r2c,
                    fftwf_plan_guru64_dft_c2r, fftwf_plan_guru64_r2r, fftwf_plan_guru64_split_dft_r2c,
                    fftwf_plan_guru64_split_dft_c2r));
  if (!plan_) throw std::runtime_error("FFTW could not plan this layout");
}

FftwLayoutPlan::~FftwLayoutPlan() {
  if (!plan_) return;
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  if (precision_ == Precision::Double) fftw_destroy_plan(static_cast<fftw_plan>(plan_));
  else fftwf_destroy_plan(static_cast<fftwf_plan>(plan_));
}

void FftwLayoutPlan::execute(std::int64_t times) const {
  for (std::int64_t i = 0; i < times; ++i) {
    if (precision_ == Precision::Double) fftw_execute(static_cast<fftw_plan>(plan_));
    else fftwf_execute(static_cast<fftwf_plan>(plan_));
  }
}

}  // namespace splgen::measure
