#include "generator/measure/real_fftw.h"

#include <fftw3.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace splgen::measure {

std::int64_t real_kind_in_reals(RealKind kind, std::int64_t n) {
  return kind == RealKind::IRDFT ? 2 * real_kind_cols(kind, n) : n;
}
std::int64_t real_kind_out_reals(RealKind kind, std::int64_t n) {
  return kind == RealKind::RDFT ? 2 * real_kind_rows(kind, n) : n;
}
std::int64_t real_kind_in_reals(RealKind kind, const std::vector<int> &dims) {
  std::int64_t outer = 1;
  for (std::size_t i = 0; i + 1 < dims.size(); ++i) outer *= dims[i];
  return outer * real_kind_in_reals(kind, dims.back());
}
std::int64_t real_kind_out_reals(RealKind kind, const std::vector<int> &dims) {
  std::int64_t outer = 1;
  for (std::size_t i = 0; i + 1 < dims.size(); ++i) outer *= dims[i];
  return outer * real_kind_out_reals(kind, dims.back());
}
bool has_fftw_twin(RealKind kind) { return kind != RealKind::WHT; }

int fftw_r2r_kind_of(RealKind kind) {
  switch (kind) {
    case RealKind::DCT2: return FFTW_REDFT10;
    case RealKind::DCT3: return FFTW_REDFT01;
    case RealKind::DCT4: return FFTW_REDFT11;
    case RealKind::DST2: return FFTW_RODFT10;
    case RealKind::DST3: return FFTW_RODFT01;
    case RealKind::DST4: return FFTW_RODFT11;
    default: break;
  }
  throw std::invalid_argument(std::string("FFTW has no r2r kind for ") + real_kind_name(kind));
}

namespace {

// c2r keeps its input as splgen's kernels do, in 1D; FFTW has no multi-dimensional c2r that
// preserves its input (the planner returns NULL), so there it scribbles on x.
unsigned flags(FftwEffort effort, RealKind kind, std::size_t rank) {
  unsigned f = effort == FftwEffort::Estimate ? FFTW_ESTIMATE : effort == FftwEffort::Measure ? FFTW_MEASURE : FFTW_PATIENT;
  return kind == RealKind::IRDFT && rank == 1 ? f | FFTW_PRESERVE_INPUT : f;
}

// One plan call per precision, through the same three rank-d interfaces (r2r with the kind
// along every dimension).
template <class Real, class Complex, class Plan, class Kind, class R2c, class C2r, class R2r>
Plan make(RealKind kind, const std::vector<int> &dims, void *in, void *out, unsigned f, R2c r2c, C2r c2r, R2r r2r) {
  const int rank = int(dims.size());
  if (kind == RealKind::RDFT) return r2c(rank, dims.data(), static_cast<Real *>(in), static_cast<Complex *>(out), f);
  if (kind == RealKind::IRDFT) return c2r(rank, dims.data(), static_cast<Complex *>(in), static_cast<Real *>(out), f);
  const std::vector<Kind> kinds(dims.size(), static_cast<Kind>(fftw_r2r_kind_of(kind)));
  return r2r(rank, dims.data(), static_cast<Real *>(in), static_cast<Real *>(out), kinds.data(), f);
}

std::string shape_text(RealKind kind, const std::vector<int> &dims) {
  std::string s = std::string(real_kind_name(kind)) + "(";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? " x " : "") + std::to_string(dims[i]);
  return s + ")";
}

}  // namespace

FftwRealPlan::FftwRealPlan(Precision precision, RealKind kind, const std::vector<int> &dims, FftwEffort effort, void *in,
                           void *out)
    : precision_(precision) {
  if (!has_fftw_twin(kind)) throw std::invalid_argument(std::string(real_kind_name(kind)) + " has no FFTW plan");
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  unsigned f = flags(effort, kind, dims.size());
  if (precision == Precision::Double)
    plan_ = make<double, fftw_complex, fftw_plan, fftw_r2r_kind>(kind, dims, in, out, f, fftw_plan_dft_r2c,
                                                                 fftw_plan_dft_c2r, fftw_plan_r2r);
  else
    plan_ = make<float, fftwf_complex, fftwf_plan, fftwf_r2r_kind>(kind, dims, in, out, f, fftwf_plan_dft_r2c,
                                                                   fftwf_plan_dft_c2r, fftwf_plan_r2r);
  if (!plan_) throw std::runtime_error("FFTW could not plan " + shape_text(kind, dims));
}

FftwRealPlan::FftwRealPlan(FftwRealPlan &&other) noexcept
    : precision_(other.precision_), plan_(std::exchange(other.plan_, nullptr)) {}

FftwRealPlan::~FftwRealPlan() {
  if (!plan_) return;
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  if (precision_ == Precision::Double)
    fftw_destroy_plan(static_cast<fftw_plan>(plan_));
  else
    fftwf_destroy_plan(static_cast<fftwf_plan>(plan_));
}

void FftwRealPlan::execute(std::int64_t times) const {
  if (precision_ == Precision::Double) {
    for (std::int64_t i = 0; i < times; ++i) fftw_execute(static_cast<fftw_plan>(plan_));
  } else {
    for (std::int64_t i = 0; i < times; ++i) fftwf_execute(static_cast<fftwf_plan>(plan_));
  }
}

std::vector<long double> fftwl_real(RealKind kind, const std::vector<int> &dims, std::vector<long double> x) {
  std::vector<long double> y(static_cast<std::size_t>(real_kind_out_reals(kind, dims)));
  fftwl_plan p;
  {
    // FFTW_PRESERVE_INPUT: multi-dimensional c2r plans exist only when they may scribble on
    // x, which is this function's own copy.
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    unsigned f = FFTW_ESTIMATE | (dims.size() == 1 ? FFTW_PRESERVE_INPUT : 0u);
    p = make<long double, fftwl_complex, fftwl_plan, fftwl_r2r_kind>(kind, dims, x.data(), y.data(), f,
                                                                     fftwl_plan_dft_r2c, fftwl_plan_dft_c2r, fftwl_plan_r2r);
  }
  fftwl_execute(p);
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  fftwl_destroy_plan(p);
  return y;
}

}  // namespace splgen::measure
