#include "generator/search/plan.h"

#include <fmt/format.h>

#include "generator/ir/print.h"
#include "generator/measure/cuda_bench.h"
#include "generator/search/evaluate.h"

namespace splgen::search {

driver::GenOptions with_plan(driver::GenOptions options, const Plan &plan) {
  if (!plan.gpu.empty()) {  // std::invalid_argument for a bad label
    const measure::CudaVariant v = measure::parse_cuda_variant(plan.gpu);
    options.codelet_max = v.codelet_max, options.gpu = v.knobs;
    return options;
  }
  options.plan = plan.is_default ? Spl() : plan.formula;
  options.max_vector_width = plan.vector_width;
  options.smp_packet = plan.smp_packet;
  return options;
}

Plan default_plan(const std::string &spec_text, const driver::GenOptions &options) {
  driver::GenOptions o = options;
  o.plan = nullptr;
  o.max_vector_width = 0;
  o.smp_packet = 0;
  driver::Compilation c = driver::start(spec_text, o);
  driver::run_until(c, driver::Stage::Expand);
  Plan p;
  p.formula = c.expansion.formula;
  p.tree = "default";
  p.is_default = true;
  return p;
}

std::string plan_mismatch(const Spl &spec, const Plan &plan, const driver::GenOptions &options) {
  try {
    const KernelCheck<double> check = kernel_check<double>(spec);
    if (plan.formula->rows != spec->rows || plan.formula->cols != spec->cols)
      return fmt::format("it is {} x {}, not {} x {}", plan.formula->rows, plan.formula->cols, spec->rows, spec->cols);
    driver::GenOptions g = with_plan(options, plan);
    g.inverse = false;  // the spec carries its root
    if (!plan.gpu.empty()) g.io.batch = 1;  // a GPU kernel's knobs, proved on one transform
    driver::Compilation c = driver::start(spec, g);
    driver::run_until(c, driver::Stage::Loops);
    const double error = check.error(c.program.gpu ? interpret(*c.program.gpu, check.input) : interpret(c.program, check.input));
    if (!check.passes(error)) return fmt::format("it is not {}: relative RMS error {:.1e} against FFTW3", print(spec), error);
    return "";
  } catch (const std::exception &e) {
    return e.what();
  }
}

std::string describe_target(int vector_width, int smp_packet) {
  std::string width = vector_width > 0 ? fmt::format("w={}", vector_width) : "";
  std::string packet = smp_packet > 0 ? fmt::format("mu={}", smp_packet) : "";
  return width + (!width.empty() && !packet.empty() ? " " : "") + packet;
}

}  // namespace splgen::search
