#include "generator/cli/wisdom_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <vector>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/wisdom_plan.h"
#include "generator/search/plan.h"
#include "generator/search/wisdom.h"

namespace splgen::cli {

namespace {

search::Wisdom load(const std::string &path, bool must_exist) {
  std::error_code ec;
  if (must_exist && !std::filesystem::exists(path, ec))
    throw CommandError(kExitUsage, fmt::format("{}: no such wisdom file", path));
  return load_wisdom_file(path);
}

int show(const WisdomArgs &a) {
  search::Wisdom w = load(a.file, true);
  std::cout << fmt::format("{}: {} entr{}\n", a.file, w.entries.size(), w.entries.size() == 1 ? "y" : "ies");
  if (w.entries.empty()) return 0;
  std::cout << fmt::format("{:<16} {:<7} {:<9} {:<8} {:>10} {:>10}  {:<10}  {}\n", "spec", "isa", "precision",
                           "direction", "time", "vs default", "strategy", "plan");
  std::string machine;
  for (const search::WisdomEntry &e : w.entries) {
    std::string m = e.key.compiler + " on " + e.key.cpu;
    if (m != machine) std::cout << "# " << m << "\n", machine = m;
    std::string ratio = e.ns > 0 && e.default_ns > 0 ? fmt::format("{:.2f}x", e.default_ns / e.ns) : "-";
    std::string width = search::describe_target(e.vector_width, e.smp_packet);
    std::cout << fmt::format("{:<16} {:<7} {:<9} {:<8} {:>10} {:>10}  {:<10}  {}{}\n", e.key.spec, e.key.isa,
                             e.key.precision, e.key.direction, format_time(e.ns), ratio, e.strategy,
                             e.gpu.empty() ? e.tree : fmt::format("batch {} {}", e.key.batch, e.gpu), width.empty() ? "" : " " + width);
    if (a.formulas) std::cout << "    " << e.formula << "\n";
  }
  return 0;
}

// Every entry of the OTHER files is proved before it is merged (search::entry_problem); one that
// does not hold is left out with a line naming its file, and never replaces a good one.
int merge(const WisdomArgs &a) {
  load(a.file, false);  // a corrupt or unwritable target is reported before anything is proved
  check_writable("wisdom merge", a.file);
  std::vector<search::WisdomEntry> in;
  for (const std::string &other : a.others) {
    for (const search::WisdomEntry &e : load(other, true).entries) {
      std::string problem = search::entry_problem(e);
      if (problem.empty())
        in.push_back(e);
      else
        std::cerr << fmt::format("splgen: wisdom {}: the entry for {} is left out: {}\n", other,
                                 search::describe_entry(e.key), problem);
    }
  }
  search::WisdomUpdate u;
  try {
    u = search::update_wisdom(a.file, in);  // proved already: nothing more is left out
  } catch (const search::WisdomError &e) {
    throw CommandError(kExitOutput, e.what());
  }
  std::size_t n = u.wisdom.entries.size();
  std::cout << fmt::format("{}: {} entr{}\n", a.file, n, n == 1 ? "y" : "ies");
  return 0;
}

}  // namespace

CLI::App *add_wisdom_command(CLI::App &app, WisdomArgs &a) {
  CLI::App *cmd = app.add_subcommand("wisdom", "Show or merge wisdom files (the plans `splgen search` found)");
  cmd->require_subcommand(1);
  a.show = cmd->add_subcommand("show", "List the entries of a wisdom file");
  a.show->add_option("FILE", a.file, "Wisdom file")->required();
  a.show->add_flag("--formulas", a.formulas, "Also print each entry's formula");
  a.merge = cmd->add_subcommand("merge", "Merge wisdom files into FILE (the faster entry of a key wins)");
  a.merge->add_option("FILE", a.file, "Wisdom file to update (created if missing)")->required();
  a.merge->add_option("OTHER", a.others, "Wisdom files to merge in")->required();
  return cmd;
}

int run_wisdom(const WisdomArgs &a) {
  if (a.show && a.show->parsed()) return show(a);
  return merge(a);
}

}  // namespace splgen::cli
