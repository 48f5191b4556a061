#include "generator/cli/rules_stats_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/driver/pipeline.h"
#include "generator/lower/count_operations.h"
#include "generator/support/sizes.h"

namespace splgen::cli {

namespace {

struct KernelStats {
  lower::OperationCount count;
  std::string plan;  // the root's rule and choice: "radix4_dit(k=1, m=16)"
};

KernelStats kernel_stats(int64_t n, const driver::GenOptions &options) {
  driver::Compilation c = driver::start(fmt::format("DFT({})", n), options);
  driver::run_until(c, driver::Stage::Loops);
  KernelStats s{lower::count_operations(c.program.loops), "-"};
  if (!c.expansion.trees.empty())
    s.plan = fmt::format("{}({})", c.expansion.trees.front()->rule, c.expansion.trees.front()->choice);
  return s;
}

std::string row(int64_t n, const char *rules, const KernelStats &s) {
  const lower::OperationCount &c = s.count;
  return fmt::format("{:>8}  {:<7}  {:>10}  {:>10}  {:>10}  {:>10}  {:>6.3g}  {}\n", n, rules, c.adds, c.muls, c.loads,
                     c.stores, c.passes, s.plan);
}

}  // namespace

CLI::App *add_rules_stats_command(CLI::App *rules, RulesStatsArgs &a) {
  CLI::App *cmd = rules->add_subcommand(
      "stats", "Operation counts and memory passes of DFT(n) with and without the files' rules preferred");
  cmd->add_option("FILE", a.rule_files, "Rule files (or directories) whose breakdown rules are preferred")->required();
  cmd->add_option("--sizes", a.sizes, "Sizes of DFT(n): A..B (A, 2A, 4A, ... B), a comma list, or both; e.g. 2^6..2^12")
      ->required()
      ->type_name("LIST");
  add_isa_option(cmd, a.isa, "Instruction set of the kernels counted");
  add_precision_option(cmd, a.precision, "Floating-point type of the kernels (double or float)");
  return cmd;
}

int run_rules_stats(const RulesStatsArgs &a) {
  std::vector<int64_t> sizes;
  try {
    sizes = support::parse_sizes(a.sizes);
  } catch (const support::SizesError &e) {
    throw CommandError(kExitUsage, std::string("--sizes: ") + e.what());
  }
  driver::GenOptions shipped;
  shipped.isa = *parse_isa(a.isa);  // checked by CLI::IsMember
  shipped.precision = precision_from_option(a.precision);
  driver::GenOptions preferred = shipped;
  preferred.rule_files = a.rule_files;
  preferred.prefer_rules = true;
  driver::rules_with_files(a.rule_files);  // a false or unreadable rule is an error before any output
  std::cout << fmt::format("rules stats {}: DFT(n), {}, {}; per transform: real adds, real muls, real loads and "
                           "stores, passes over memory\n",
                           fmt::join(a.rule_files, " "), a.isa, a.precision);
  std::cout << fmt::format("{:>8}  {:<7}  {:>10}  {:>10}  {:>10}  {:>10}  {:>6}  {}\n", "n", "rules", "adds", "muls",
                           "loads", "stores", "passes", "plan");
  for (int64_t n : sizes) {
    std::cout << row(n, "without", kernel_stats(n, shipped));
    std::cout << row(n, "with", kernel_stats(n, preferred));
  }
  check_stdout();
  return kExitOk;
}

}  // namespace splgen::cli
