#include "generator/measure/real_fftw.h"

#include <fftw3.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace splgen::measure {

std::int64_t real_kind_in_reals(RealKind kind, std::int64_t n) {
  return kind == RealKind::IRDFT ? 2 * real_kind_cols(kind, n) : n;
}
std::int64_t real_kind_out_reals(RealKind kind, std::int64_t n) {
  return kind == RealKind::RDFT ? 2 * real_kind_rows(kind, n) : n;
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

unsigned flags(FftwEffort effort, RealKind kind) {
  unsigned f = effort == FftwEffort::Estimate ? FFTW_ESTIMATE : effort == FftwEffort::Measure ? FFTW_MEASURE : FFTW_PATIENT;
  return kind == RealKind::IRDFT ? f | FFTW_PRESERVE_INPUT : f;
}

// One plan call per precision, through the same three interfaces.
template <class Real, class Complex, class Plan, class R2c, class C2r, class R2r>
Plan make(RealKind kind, int n, void *in, void *out, unsigned f, R2c r2c, C2r c2r, R2r r2r) {
  if (kind == RealKind::RDFT) return r2c(n, static_cast<Real *>(in), static_cast<Complex *>(out), f);
  if (kind == RealKind::IRDFT) return c2r(n, static_cast<Complex *>(in), static_cast<Real *>(out), f);
  return r2r(n, static_cast<Real *>(in), static_cast<Real *>(out), static_cast<fftw_r2r_kind>(fftw_r2r_kind_of(kind)), f);
}

}  // namespace

FftwRealPlan::FftwRealPlan(Precision precision, RealKind kind, std::int64_t n, FftwEffort effort, void *in, void *out)
    : precision_(precision) {
  if (!has_fftw_twin(kind)) throw std::invalid_argument(std::string(real_kind_name(kind)) + " has no FFTW plan");
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  unsigned f = flags(effort, kind);
  if (precision == Precision::Double)
    plan_ = make<double, fftw_complex, fftw_plan>(kind, int(n), in, out, f, fftw_plan_dft_r2c_1d, fftw_plan_dft_c2r_1d,
                                                  fftw_plan_r2r_1d);
  else
    plan_ = make<float, fftwf_complex, fftwf_plan>(kind, int(n), in, out, f, fftwf_plan_dft_r2c_1d,
                                                   fftwf_plan_dft_c2r_1d, fftwf_plan_r2r_1d);
  if (!plan_) throw std::runtime_error(std::string("FFTW could not plan ") + real_kind_name(kind) + "(" + std::to_string(n) + ")");
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

std::vector<long double> fftwl_real(RealKind kind, std::int64_t n, std::vector<long double> x) {
  std::vector<long double> y(static_cast<std::size_t>(real_kind_out_reals(kind, n)));
  fftwl_plan p;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    p = make<long double, fftwl_complex, fftwl_plan>(kind, int(n), x.data(), y.data(), FFTW_ESTIMATE | FFTW_PRESERVE_INPUT,
                                                     fftwl_plan_dft_r2c_1d, fftwl_plan_dft_c2r_1d, fftwl_plan_r2r_1d);
  }
  fftwl_execute(p);
  std::lock_guard<std::mutex> lock(fftw_planner_mutex());
  fftwl_destroy_plan(p);
  return y;
}

}  // namespace splgen::measure
