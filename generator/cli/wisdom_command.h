// splgen wisdom (docs/cli.md, docs/search.md):
//   splgen wisdom show FILE             the entries, one line each (spec, target, time, plan)
//   splgen wisdom merge FILE OTHER...   merge OTHER files into FILE (the faster entry of a key wins)
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace splgen::cli {

struct WisdomArgs {
  std::string file;
  std::vector<std::string> others;
  bool formulas = false;  // show --formulas
  CLI::App *show = nullptr, *merge = nullptr;
};

CLI::App *add_wisdom_command(CLI::App &app, WisdomArgs &args);

// Runs the parsed subcommand; throws CommandError (a corrupt file: exit 2, one line with FILE:LINE:COL).
int run_wisdom(const WisdomArgs &args);

}  // namespace splgen::cli
