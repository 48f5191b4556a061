#include "generator/search/plan.h"

#include <fmt/format.h>


namespace splgen::search {

driver::GenOptions with_plan(driver::GenOptions options, const Plan &plan) {
  options.plan = plan.is_default ? Spl() : plan.formula;
  options.max_vector_width = plan.vector_width;
  return options;
}

Plan default_plan(const std::string &spec_text, const driver::GenOptions &options) {
  driver::GenOptions o = options;
  o.plan = nullptr;
  o.max_vector_width = 0;
  driver::Compilation c = driver::start(spec_text, o);
  driver::run_until(c, driver::Stage::Expand);
  Plan p;
  p.formula = c.expansion.formula;
  p.tree = "default";
  p.is_default = true;
  return p;
}

std::string describe_width(int vector_width) { return vector_width > 0 ? fmt::format("w={}", vector_width) : ""; }

}  // namespace splgen::search
