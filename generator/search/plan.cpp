#include "generator/search/plan.h"

#include <fmt/format.h>

#include "generator/ir/print.h"

namespace splgen::search {

GenOptions with_plan(GenOptions options, const Plan &plan) {
  options.plan = plan.is_default ? std::string() : plan.formula;
  options.max_vector_width = plan.vector_width;
  return options;
}

Plan default_plan(const std::string &spec_text, const GenOptions &options) {
  GenOptions o = options;
  o.plan.clear();
  o.max_vector_width = 0;
  PipelineResult r = run_pipeline(spec_text, o);
  Plan p;
  p.formula = print(r.expansion.formula);
  p.tree = "default";
  p.is_default = true;
  return p;
}

std::string describe_width(int vector_width) { return vector_width > 0 ? fmt::format("w={}", vector_width) : ""; }

}  // namespace splgen::search
