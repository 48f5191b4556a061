#include "generator/cli/search_cuda_command.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/cli/wisdom_plan.h"
#include "generator/ir/print.h"
#include "generator/measure/machine.h"
#include "generator/parse/formula_parser.h"
#include "generator/measure/cuda_bench.h"
#include "generator/search/cuda_search.h"
#include "generator/search/wisdom.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen::cli {

namespace {

// Candidates a GPU search times when --max-candidates is left alone: the neighbours of the
// default (one knob changed) and most pairs; each is an nvcc build of several seconds.
constexpr int kCudaCandidates = 64;

void check_cuda_search_options(const SearchArgs &a) {
  const SearchArgs d;
  if (a.isa != d.isa || !a.rule_files.empty() || a.strategy != d.strategy || a.keep != d.keep || a.splits != d.splits || a.seed != d.seed ||
      !a.compiler.empty() || a.flags != d.flags || a.threads != d.threads || a.threading != d.threading)
    throw CommandError(kExitUsage, "search --target cuda: --isa, --rules, --strategy, --keep, --splits, --seed, --compiler, --flags "
                                   "and --threads are the CPU's; the GPU search varies the codelet size and --gpu-knobs");
  if (a.no_run && a.keep_dir.empty()) throw CommandError(kExitUsage, "--no-run needs --keep-dir DIR: it only writes the files there");
  if (!a.wisdom.empty() && a.no_run)
    throw CommandError(kExitUsage, "--wisdom with --no-run: nothing is timed here; give --wisdom with --results FILE");
  if (!a.results.empty() && (!a.keep_dir.empty() || a.no_run || !a.budget.empty()))
    throw CommandError(kExitUsage, "--results FILE reads a finished run: no --keep-dir, --no-run or --budget");
}

driver::GenOptions cuda_gen_options(const SearchArgs &a) {
  driver::GenOptions g;
  g.target = "cuda";
  g.precision = precision_from_option(a.precision);
  g.inverse = a.inverse;
  g.codelet_max = a.codelet_max;
  g.gpu = gpu_knobs_from(a.arch, a.gpu_knobs);
  return g;
}

measure::CudaBenchOptions cuda_bench_options(const SearchArgs &a) {
  measure::CudaBenchOptions o;
  if (a.batch == "auto") {
    o.batch = 0;
  } else {
    char *end = nullptr;
    o.batch = std::strtoll(a.batch.c_str(), &end, 10);
    if (a.batch.empty() || *end != '\0' || o.batch < 1)
      throw CommandError(kExitUsage, fmt::format("--batch {}: give a count of at least 1, or auto", a.batch));
  }
  o.arch = a.arch, o.keep = a.keep_dir, o.no_run = a.no_run, o.jobs = a.jobs;
  o.repetitions = a.reps;
  o.budget_seconds = budget_seconds(a);
  return o;
}

// The table, fastest against cuFFT first, failures last, and the winner as gen's options.
void print_table(const SearchArgs &a, const measure::CudaBenchResult &r, std::optional<std::size_t> best) {
  std::vector<std::size_t> order(r.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto ratio = [&](std::size_t i) { return r.rows[i].failure.empty() ? r.rows[i].cufft_ns / r.rows[i].splgen_ns : -1.0; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return ratio(x) > ratio(y); });
  const std::string spec = r.rows.empty() ? a.spec : r.rows[0].spec;
  std::cout << fmt::format("search {} batch {} (cuda, {}, {}) on {}: {} candidates\n", spec, r.rows.empty() ? 0 : r.rows[0].batch,
                           a.precision, a.inverse ? "inverse" : "forward", r.gpu.empty() ? "unknown GPU" : r.gpu, r.rows.size());
  std::cout << fmt::format("{:>5}  {:>11}  {:>11}  {:>8}  {:>9}  {}\n", "rank", "splgen", "cuFFT", "vs cuFFT", "error", "kernel");
  int rank = 0;
  for (std::size_t i : order) {
    const measure::CudaBenchRow &row = r.rows[i];
    if (++rank > a.show) break;
    if (!row.failure.empty())
      std::cout << fmt::format("{:>5}  {:>11}  {:>11}  {:>8}  {:>9}  {}  ({})\n", rank, "failed", "-", "-", "-", row.variant,
                               row.failure.substr(0, 120));
    else
      std::cout << fmt::format("{:>5}  {:>11}  {:>11}  {:>7.2f}x  {:>9.1e}  {}{}\n", rank, format_time(row.splgen_ns),
                               format_time(row.cufft_ns), ratio(i), row.error, row.variant, i == 0 ? "  (default)" : "");
  }
  if (int(r.rows.size()) > a.show) std::cout << fmt::format("  ... {} more (--show N)\n", int(r.rows.size()) - a.show);
  if (!best) throw CommandError(kExitInternal, "search --target cuda: no candidate ran correctly");
  const measure::CudaVariant v = measure::parse_cuda_variant(r.rows[*best].variant);
  std::cout << fmt::format("best: {}--gpu-knobs \"{}\"  {:.2f}x cuFFT (default {:.2f}x)\n",
                           v.codelet_max > 0 ? fmt::format("--codelet-max {} ", v.codelet_max) : "", to_string(v.knobs),
                           ratio(*best), ratio(0) > 0 ? ratio(0) : 0.0);
}

measure::CudaBenchResult read_results(const SearchArgs &a) {
  std::ifstream in(a.results, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw CommandError(kExitUsage, fmt::format("--results: cannot read {}", a.results));
  measure::CudaBenchOptions o;
  try {
    measure::CudaBenchResult r = measure::read_cuda_results(text.str(), o);
    if ((o.precision == Precision::Float) != (a.precision == "float") || o.inverse != a.inverse)
      throw std::runtime_error(fmt::format("the candidates are {} {}; give --precision and --inverse as searched",
                                           o.precision == Precision::Float ? "float" : "double", o.inverse ? "inverse" : "forward"));
    for (const measure::CudaBenchRow &row : r.rows) {
      if (print(parse::parse_formula(row.spec)) != print(parse::parse_formula(a.spec)))
        throw std::runtime_error(fmt::format("the candidates are of {}, not {}", row.spec, a.spec));
      if (row.variant.empty()) throw std::runtime_error("a spec without a KNOBS line: this is bench's output, not search's");
      if (row.spec != r.rows[0].spec || row.batch != r.rows[0].batch) throw std::runtime_error("candidates of more than one spec");
      measure::parse_cuda_variant(row.variant);
    }
    return r;
  } catch (const std::exception &e) {
    throw CommandError(kExitUsage, fmt::format("--results {}: {}", a.results, e.what()));
  }
}

// --wisdom FILE: the winner, keyed by the spec, precision, direction, batch and GPU; gen
// --target cuda --wisdom FILE takes its codelet size and knobs (docs/search.md).
void store_wisdom(const SearchArgs &a, const driver::GenOptions &gen, const measure::CudaBenchResult &r, std::size_t best) {
  const measure::CudaBenchRow &row = r.rows[best];
  driver::GenOptions g = gen;
  g.io.batch = row.batch;
  search::WisdomEntry e;
  e.key = search::wisdom_key(row.spec, g);
  e.key.compiler = "nvcc -arch=" + a.arch, e.key.cpu = r.gpu.empty() ? "unknown GPU" : r.gpu;
  e.formula = e.key.spec;  // the expansion stays gen's; the entry is its parameters
  e.tree = "cuda";
  e.gpu = row.variant;
  e.ns = row.splgen_ns;
  e.default_ns = r.rows[0].failure.empty() ? r.rows[0].splgen_ns : 0;
  e.strategy = "cuda";
  e.date = measure::utc_timestamp();
  e.splgen_version = SPLGEN_VERSION;
  search::WisdomUpdate u;
  try {
    u = search::update_wisdom(a.wisdom, {e});
  } catch (const search::WisdomError &ex) {
    throw CommandError(kExitOutput, ex.what());
  }
  if (!u.left_out.empty()) throw CommandError(kExitInternal, fmt::format("wisdom {}: {} is not stored", a.wisdom, u.left_out.front()));
  std::cout << "wisdom: " << a.wisdom << "\n";
}

}  // namespace

void add_cuda_search_options(CLI::App *cmd, SearchArgs &a) {
  cmd->add_option("--target", a.target, "cpp, or cuda: GPU kernels' codelet size and --gpu-knobs timed against cuFFT (docs/cuda.md)")
      ->check(CLI::IsMember({"cpp", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--batch", a.batch, "--target cuda: transforms per call, or auto (x and y fill 256 MiB)")->type_name("N|auto");
  add_arch_option(cmd, a.arch, "--target cuda: nvcc's -arch (sm_90 ...; native: this machine's GPU), and the kernels' shared memory");
  add_gpu_knobs_option(cmd, a.gpu_knobs);
  cmd->add_option("--codelet-max", a.codelet_max, "--target cuda: the codelet size the candidates start from")
      ->check(CLI::Range(int64_t(1), int64_t(64)));
  cmd->add_option("--keep-dir", a.keep_dir, "--target cuda: write each candidate's files into DIR/<index>/ and DIR/run_all.sh")
      ->type_name("DIR");
  cmd->add_flag("--no-run", a.no_run, "--target cuda with --keep-dir DIR: only write the files (no nvcc, no GPU needed)");
  cmd->add_option("--results", a.results, "--target cuda: pick the best of what DIR/run_all.sh printed on a GPU machine")
      ->type_name("FILE");
}

void check_no_cuda_search_options(const SearchArgs &a) {
  const SearchArgs d;
  if (a.batch != d.batch || a.arch != d.arch || !a.gpu_knobs.empty() || a.codelet_max || !a.keep_dir.empty() || a.no_run ||
      !a.results.empty())
    throw CommandError(kExitUsage, "--batch, --arch, --gpu-knobs, --codelet-max, --keep-dir, --no-run and --results need --target cuda");
}

int run_cuda_search_command(const SearchArgs &a) {
  check_cuda_search_options(a);
  const driver::GenOptions gen = cuda_gen_options(a);
  if (!a.wisdom.empty()) {  // a corrupt or unwritable file is an error before the search, not after
    load_wisdom_file(a.wisdom);
    check_writable("--wisdom", a.wisdom);
  }
  measure::CudaBenchResult result;
  if (!a.results.empty()) {
    result = read_results(a);
  } else {
    const measure::CudaBenchOptions bench = cuda_bench_options(a);
    const int limit = a.max_candidates == SearchArgs{}.max_candidates ? kCudaCandidates : a.max_candidates;
    bool line_open = false;  // progress comes in pieces; an error must not start mid-line
    auto progress = [&](const std::string &text) {
      if (a.quiet) return;
      std::cerr << text << std::flush;
      line_open = !text.empty() && text.back() != '\n';
    };
    try {
      result = search::run_cuda_search(a.spec, gen, bench, limit, progress).bench;
    } catch (...) {
      if (line_open) std::cerr << std::endl;
      try {
        throw;
      } catch (const measure::CudaUnavailable &e) {  // "bench --target cuda: WHY": the search's words
        std::string why = e.what();
        if (why.rfind("bench --target cuda: ", 0) == 0) why = why.substr(21);
        throw CommandError(kExitUsage, "search --target cuda: " + why);
      } catch (const measure::CudaKeepError &e) {
        throw CommandError(kExitOutput, e.what());
      }
    }
    if (bench.no_run) {
      std::cout << fmt::format("wrote {} candidates to {}: run {} on the GPU machine, then splgen search --target cuda "
                               "--results FILE with what it printed\n",
                               result.kept.size() - 1, a.keep_dir, result.kept.back());
      check_stdout();
      return 0;
    }
  }
  const std::optional<std::size_t> best = search::best_cuda_row(result.rows, gen.precision);
  print_table(a, result, best);
  if (!a.wisdom.empty() && !a.no_run) store_wisdom(a, gen, result, *best);
  check_stdout();
  return 0;
}

}  // namespace splgen::cli
