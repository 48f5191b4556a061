#include "generator/cli/search_command.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <iostream>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/cli/search_cuda_command.h"
#include "generator/cli/wisdom_plan.h"
#include "generator/ir/print.h"
#include "generator/measure/compile.h"
#include "generator/measure/machine.h"
#include "generator/search/duration.h"
#include "generator/search/search.h"
#include "generator/search/wisdom.h"
#include "generator/target/target.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen::cli {

namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_sigint(int) { interrupted = true; }

// Ctrl-C stops the search (the best so far is kept); a second Ctrl-C kills splgen as usual.
struct SigintGuard {
  struct sigaction old {};
  SigintGuard() {
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old);
  }
  ~SigintGuard() { sigaction(SIGINT, &old, nullptr); }
};

std::string plan_label(const search::Plan &p) {
  std::string w = search::describe_target(p.vector_width, p.smp_packet);
  return p.tree + (w.empty() ? "" : " " + w);
}

// The progress bar: "[#######-------------]  37/120  best 1.23 us dit(32,32)  12.3 s  DFT(64)".
class ProgressBar {
 public:
  explicit ProgressBar(bool quiet) : quiet_(quiet), tty_(::isatty(2) != 0) {}
  void operator()(const search::SearchProgress &p) {
    if (quiet_) return;
    int width = 24;
    int filled = p.planned > 0 ? std::min(width, int(std::lround(double(width) * p.done / p.planned))) : 0;
    std::string bar = std::string(std::size_t(filled), '#') + std::string(std::size_t(width - filled), '-');
    std::string line = fmt::format("[{}] {:>4}/{:<4} best {} {}  {:.1f} s  {}", bar, p.done, p.planned,
                                   format_time(p.best_ns), p.best_tree, p.elapsed, p.phase);
    if (tty_) {
      std::cerr << "\r" << line << "\033[K" << std::flush;
      open_ = true;
    } else if (p.done != last_done_ || p.phase != last_phase_) {
      std::cerr << line << "\n" << std::flush;
    }
    last_done_ = p.done;
    last_phase_ = p.phase;
  }
  void finish() {
    if (open_) std::cerr << "\n" << std::flush;
    open_ = false;
  }

 private:
  bool quiet_, tty_, open_ = false;
  int last_done_ = -1;
  std::string last_phase_;
};

}  // namespace

double budget_seconds(const SearchArgs &a) {
  if (a.budget.empty()) return 0;
  try {
    return search::parse_duration(a.budget);
  } catch (const search::DurationError &e) {
    throw CommandError(kExitUsage, std::string("--budget: ") + e.what());
  }
}

CLI::App *add_search_command(CLI::App &app, SearchArgs &a) {
  CLI::App *cmd = app.add_subcommand("search", "Time candidate plans for SPEC, keep the fastest (and store it with --wisdom)");
  cmd->add_option("SPEC", a.spec, "Transform to search, e.g. \"DFT(1024)\"")->required();
  add_isa_option(cmd, a.isa, "Instruction set of the kernels (native: the best this CPU runs)");
  add_precision_option(cmd, a.precision, "Floating-point type of the kernels (double or float)");
  cmd->add_flag("--inverse", a.inverse, "Search the inverse (unnormalised) transform: DFT(n) becomes DFT(n,-1)");
  cmd->add_option("--rules", a.rule_files, "Rule file whose breakdown rules join the search space (repeatable)")
      ->type_name("FILE");
  cmd->add_option("--strategy", a.strategy, search::describe_strategies())
      ->check(CLI::IsMember(search::strategy_names()))
      ->capture_default_str();
  cmd->add_option("--budget", a.budget, "Wall-time bound, e.g. 60s, 2m, 500ms: the best plan found by then wins")
      ->type_name("DURATION");
  cmd->add_option("--keep", a.keep, "dp: plans kept per subproblem")->check(CLI::Range(1, 16))->capture_default_str();
  cmd->add_option("--splits", a.splits, "dp: splits of a node timed, the best by their children's times (0: all)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", a.seed, "random: seed of the sampler")->capture_default_str();
  cmd->add_option("--max-candidates", a.max_candidates, "random, exhaustive: plans timed at most")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--jobs", a.jobs, "Compilers run at once (default: the available cores)")->check(CLI::Range(1, 256));
  cmd->add_option("--wisdom", a.wisdom, "Store the best plan in FILE (JSON; merged with what it holds)")->type_name("FILE");
  add_compiler_options(cmd, a.compiler, a.flags);
  add_threads_options(cmd, a.threads, a.threading);
  cmd->add_option("--reps", a.reps, "Timed rounds per candidate; the median counts")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--show", a.show, "Rows of the candidate table")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_flag("--quiet", a.quiet, "No progress bar on standard error");
  add_cuda_search_options(cmd, a);
  return cmd;
}

int run_search(const SearchArgs &a) {
  if (a.target == "cuda") return run_cuda_search_command(a);
  check_no_cuda_search_options(a);
  const Isa isa = runnable_isa(a.isa);
  search::SearchOptions o;
  o.spec = a.spec;
  o.eval.gen.isa = isa;
  o.eval.gen.precision = precision_from_option(a.precision);
  o.eval.gen.inverse = a.inverse;
  o.eval.gen.rule_files = a.rule_files;
  o.eval.gen.threads = a.threads;
  o.eval.gen.threading = *parse_threading(a.threading);  // checked by CLI::IsMember
  o.eval.compiler = a.compiler;
  o.eval.flags = a.flags;
  if (a.threads > 1) {  // every candidate runs its workers; wisdom keys carry the count
    o.eval.flags += " " + measure::threading_flags(o.eval.gen.threading);
    if (o.eval.gen.threading == Threading::OpenMP) measure::keep_openmp_loaded();
  }
  o.eval.jobs = a.jobs;
  o.eval.repetitions = a.reps;
  o.strategy = a.strategy;
  o.budget_seconds = budget_seconds(a);
  o.keep = a.keep;
  o.model_splits = a.splits;
  o.seed = a.seed;
  o.max_candidates = a.max_candidates;
  if (!a.wisdom.empty()) {  // a corrupt or unwritable file is an error before the search, not after
    load_wisdom_file(a.wisdom);
    check_writable("--wisdom", a.wisdom);
  }

  ProgressBar bar(a.quiet);
  search::SearchResult r;
  {
    SigintGuard guard;
    try {
      r = search::run_search(o, [&](const search::SearchProgress &p) { bar(p); }, &interrupted);
    } catch (const std::invalid_argument &e) {
      bar.finish();
      throw CommandError(kExitUsage, e.what());
    } catch (...) {
      bar.finish();
      throw;
    }
    bar.finish();
  }

  // The table: plans of the whole transform, fastest first.
  const bool estimate = !search::find_strategy(a.strategy)->timed;  // a model's costs, no times
  std::cout << fmt::format("search {} ({}, {}, {}): {} candidates {} in {:.1f} s{}\n", r.spec, isa_name(isa), a.precision,
                           a.strategy, estimate ? int(r.candidates.size()) : r.done, estimate ? "estimated" : "timed", r.seconds,
                           r.stopped.empty() ? "" : fmt::format(" (stopped: {})", r.stopped));
  if (estimate) {
    std::cout << fmt::format("{:>5}  {:>12}  {}\n", "rank", "op estimate", "plan");
  } else {
    std::cout << fmt::format("{:>5}  {:>11}  {:>10}  {}\n", "rank", "time", "vs default", "plan");
  }
  int shown = 0, rank = 0;
  for (const search::Candidate &c : r.candidates) {
    ++rank;
    if (shown >= a.show) continue;
    ++shown;
    if (estimate) {
      std::cout << fmt::format("{:>5}  {:>12.0f}  {}\n", rank, c.estimate, plan_label(c.plan));
    } else if (c.eval.status == search::Evaluation::Status::Ok) {
      std::string ratio = r.default_ns > 0 ? fmt::format("{:.2f}x", r.default_ns / c.eval.ns) : "-";
      std::cout << fmt::format("{:>5}  {:>11}  {:>10}  {}\n", rank, format_time(c.eval.ns), ratio, plan_label(c.plan));
    } else {
      std::cout << fmt::format("{:>5}  {:>11}  {:>10}  {}  ({}: {})\n", rank, search::status_name(c.eval.status), "-",
                               plan_label(c.plan), search::status_name(c.eval.status), c.eval.message.substr(0, 120));
    }
  }
  if (rank > shown) std::cout << fmt::format("  ... {} more (--show N)\n", rank - shown);
  if (estimate)
    std::cout << fmt::format("best: {}\n", plan_label(r.best));
  else
    std::cout << fmt::format("best: {}  {} (default {}, {})\n", plan_label(r.best), format_time(r.best_ns),
                             format_time(r.default_ns),
                             r.default_ns > 0 && r.best_ns > 0 ? fmt::format("{:.2f}x", r.default_ns / r.best_ns) : "-");
  std::cout << "formula: " << print_brief(r.best.formula) << "\n";

  if (!a.wisdom.empty()) {
    driver::GenOptions g = o.eval.gen;
    search::WisdomEntry e;
    e.key = search::wisdom_key(a.spec, g, a.compiler);
    e.formula = print(r.best.formula);  // wisdom holds formulas as text
    e.tree = r.best.tree;
    e.vector_width = r.best.vector_width;
    e.smp_packet = r.best.smp_packet;
    e.ns = estimate ? 0 : r.best_ns;
    e.default_ns = estimate ? 0 : r.default_ns;
    e.strategy = a.strategy;
    e.date = measure::utc_timestamp();
    e.splgen_version = SPLGEN_VERSION;
    e.rule_files = search::plan_rule_files(r.best, a.rule_files);  // a later change of them makes it stale
    search::WisdomUpdate u;
    try {
      u = search::update_wisdom(a.wisdom, {e});
    } catch (const search::WisdomError &ex) {
      throw CommandError(kExitOutput, ex.what());
    }
    if (!u.left_out.empty())  // the search checked its plan: this would be a bug
      throw CommandError(kExitInternal, fmt::format("wisdom {}: {} is not stored", a.wisdom, u.left_out.front()));
    std::cout << "wisdom: " << a.wisdom << "\n";
  }
  check_stdout();
  return 0;
}

}  // namespace splgen::cli
