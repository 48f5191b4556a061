#include "generator/cli/model_command.h"

#include <fmt/format.h>

#include <cmath>
#include <iostream>

#include "generator/cli/command_error.h"
#include "generator/cli/options.h"
#include "generator/driver/ranks.h"
#include "generator/driver/scale_model.h"
#include "generator/support/sizes.h"

namespace splgen::cli {

CLI::App *add_model_command(CLI::App &app, ModelArgs &a) {
  CLI::App *cmd = app.add_subcommand("model", "Predict a distributed kernel's time per stage for each rank count (docs/mpi.md)");
  cmd->add_option("SPEC", a.spec, "Transform, e.g. \"DFT(1024 x 1024 x 1024)\"")->required();
  cmd->add_option("--ranks", a.ranks, "Rank counts: A..B (A, 2A, ... B) or a comma list (default 2..4096)")->type_name("LIST");
  cmd->add_option("--node-gflops", a.node_gflops, "Pseudo-Gflop/s of one node on its local steps (splgen bench)")
      ->check(finite_range(1e-3, 1e6))->capture_default_str();
  cmd->add_option("--memory-gbs", a.memory_gbs, "GB/s of a node's memory (permutation steps)")
      ->check(finite_range(1e-3, 1e6))->capture_default_str();
  cmd->add_option("--link-gbits", a.link_gbits, "Gb/s each node sends into the network")
      ->check(finite_range(1e-3, 1e6))->capture_default_str();
  cmd->add_option("--latency-us", a.latency_us, "Microseconds per message")->check(finite_range(0, 1e6))->capture_default_str();
  add_precision_option(cmd, a.precision, "Floating-point type (double or float)");
  cmd->add_option("--decomposition", a.decomposition, "3D: slab, or pencil (each count's grid by the squarest-grid rule)")
      ->check(CLI::IsMember({"slab", "pencil"}))
      ->capture_default_str();
  return cmd;
}

int run_model(const ModelArgs &a) {
  std::vector<int64_t> counts;
  try {
    counts = support::parse_sizes(a.ranks);
  } catch (const std::exception &e) {
    throw CommandError(kExitUsage, fmt::format("--ranks: {}", e.what()));
  }
  driver::GenOptions o;
  o.target = "mpi", o.precision = precision_from_option(a.precision), o.size_limits = false;
  o.decomposition = a.decomposition == "pencil" ? lower::Decomposition::Pencil : lower::Decomposition::Slab;  // IsMember
  const driver::Machine m{a.node_gflops, a.memory_gbs, a.link_gbits / 8, a.latency_us};
  const Spl spec = driver::start(a.spec, o).spec;  // a bad spec: one line, before any output
  driver::check_distributable(spec);
  const double n = double(spec->rows);
  std::cout << fmt::format("# {}: node {} Gflop/s, memory {} GB/s, network {} Gb/s per node, latency {} us ({})\n", a.spec,
                           a.node_gflops, a.memory_gbs, a.link_gbits, a.latency_us, a.precision);
  std::cout << fmt::format("{:>6} {:>9} {:>12} {:>12} {:>12} {:>10} {:>9}  steps (ms; x = exchange)\n", "ranks",
                           "exchanges", "compute ms", "exchange ms", "total ms", "Gflop/s", "speed-up");
  // speed-up: against the first rank count listed
  double first = 0;
  for (int64_t p : counts) {
    if (p < 2 || p > (1 << 20)) throw CommandError(kExitUsage, fmt::format("--ranks: {} is not a rank count in 2..2^20", p));
    driver::Prediction r;
    try {
      r = driver::predict(a.spec, o, int(p), m);
    } catch (const FormulaError &e) {
      std::cout << fmt::format("{:>6} not distributed: {}\n", p, e.what());
      continue;
    }
    if (!first) first = r.total;
    std::string steps;
    int exchanges = 0;
    for (const driver::StepTime &s : r.steps) {
      steps += fmt::format(" {}{:.3g}", s.exchange ? "x" : "", s.seconds * 1e3);
      exchanges += s.exchange;
    }
    if (r.grid[0] > 0) steps += fmt::format("  (grid {}x{})", r.grid[0], r.grid[1]);
    std::cout << fmt::format("{:>6} {:>9} {:>12.4g} {:>12.4g} {:>12.4g} {:>10.1f} {:>9.2f} {}\n", p, exchanges,
                             r.compute * 1e3, r.exchange * 1e3, r.total * 1e3, 5 * n * std::log2(n) / r.total * 1e-9,
                             first / r.total, steps);
  }
  return 0;
}

}  // namespace splgen::cli
