// splgen rules stats (docs/cli.md): what a rule file changes in the kernels before anything is
// timed. For each size, DFT(n) is generated twice, with the shipped rules and with the files'
// rules preferred (--prefer-rules), and the loop programs are counted (generator/lower/
// count_operations.h): real adds, muls, loads, stores and passes over memory per transform.
//   splgen rules stats FILE... --sizes LIST [--isa ISA] [--precision double|float]
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace splgen::cli {

struct RulesStatsArgs {
  std::vector<std::string> rule_files;
  std::string sizes;
  std::string isa = "scalar";
  std::string precision = "double";
};

// Adds `stats` under `rules`, its options stored into args.
CLI::App *add_rules_stats_command(CLI::App *rules, RulesStatsArgs &args);

// Prints the table; throws support::SizesError, parse::RuleSyntaxError or FormulaError on bad input.
int run_rules_stats(const RulesStatsArgs &args);

}  // namespace splgen::cli
