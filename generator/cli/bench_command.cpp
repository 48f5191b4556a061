#include "generator/cli/bench_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "generator/cli/bench_cuda_command.h"
#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/cli/wisdom_plan.h"
#include "generator/measure/bench.h"
#include "generator/measure/bench_layout.h"
#include "generator/measure/compile.h"
#include "generator/measure/mpi_bench.h"
#include "generator/measure/plot.h"
#include "generator/measure/report.h"
#include "generator/driver/size_limits.h"
#include "generator/measure/sizes.h"
#include "generator/target/target.h"

namespace splgen::cli {

namespace {

// The text's form, up to the GPU's largest size; the CPU's limit is checked when the target is known.
CLI::Validator sizes_validator() {
  return CLI::Validator(
      [](std::string &value) -> std::string {
        try {
          measure::parse_sizes(value, driver::kMaxGpuPoints);
          return "";
        } catch (const measure::SizesError &e) {
          return e.what();
        }
      },
      "");
}

// "RDFT(n)", "DFT(n)": with --sizes, the transform timed at each size; "" if SPEC is not of that form.
std::string size_template_kind(const std::string &spec) {
  if (spec.size() < 4 || spec.compare(spec.size() - 3, 3, "(n)") != 0) return "";
  std::string kind = spec.substr(0, spec.size() - 3);
  if (kind == "DFT") return kind;
  for (const RealKindInfo &k : kRealKinds)
    if (kind == k.name) return kind;
  return "";
}

measure::BenchOptions bench_options(const BenchArgs &a, Isa isa) {
  measure::BenchOptions o;
  o.spec = a.spec;
  if (!a.sizes.empty() && !size_template_kind(a.spec).empty()) o.kind = size_template_kind(a.spec), o.spec.clear();
  try {
    if (!a.sizes.empty()) o.sizes = measure::parse_sizes(a.sizes);
  } catch (const measure::SizesError &e) {
    throw CommandError(kExitUsage, std::string("--sizes: ") + e.what());
  }
  o.precision = precision_from_option(a.precision);
  o.isa = isa;
  o.inverse = a.inverse;
  o.rule_files = a.rule_files;
  o.compare_default = a.compare == "default";
  o.prefer_rules = a.prefer_rules || o.compare_default;  // --compare default times the rules preferred
  o.only_rules = a.only_rules;
  o.scalar_baseline = !o.compare_default;
  o.patient = !a.no_patient;
  o.repetitions = a.reps;
  o.min_sample_seconds = a.min_time_ms * 1e-3;
  o.compiler = a.compiler;
  o.flags = a.flags;
  o.codelet_max = a.codelet_max;
  o.top_codelet_max = a.top_codelet_max;
  o.masked_remainders = a.masked_remainders;
  o.threads = a.threads;
  o.threading = *parse_threading(a.threading);  // checked by CLI::IsMember
  return o;
}

// Flag combinations that make no sense are refused before anything runs.
void check_rule_options(const BenchArgs &a) {
  const bool selects = a.prefer_rules || !a.only_rules.empty();
  if (!a.compare.empty() && a.rule_files.empty())
    throw CommandError(kExitUsage, "--compare default needs --rules FILE: it times the kernels made with those rules "
                                   "against the default ones");
  if (a.prefer_rules && a.rule_files.empty())
    throw CommandError(kExitUsage, "--prefer-rules needs --rules FILE: it ranks the rules of those files first");
  if ((!a.compare.empty() || selects) && !a.wisdom.empty())
    throw CommandError(kExitUsage, "--wisdom and rule selection (--compare, --prefer-rules, --only-rules): a stored "
                                   "plan replaces the expansion they steer; give one of them");
  if (!a.compare.empty() && a.threads > 1)
    throw CommandError(kExitUsage, "--compare and --threads: one comparison per run (the threads one compares "
                                   "P workers with 1)");
}

}  // namespace

CLI::App *add_bench_command(CLI::App &app, BenchArgs &a) {
  CLI::App *cmd = app.add_subcommand("bench", "Time the kernel for SPEC, or DFT(n) for each of --sizes, against FFTW3");
  cmd->add_option("SPEC", a.spec, "Transform to benchmark, e.g. \"DFT(1024)\" or \"RDFT(4096)\" (or give --sizes; "
                                  "with --sizes, \"KIND(n)\" times that kind: \"RDFT(n)\", \"DCT2(n)\" ...)");
  cmd->add_option("--sizes", a.sizes, "Sizes to benchmark DFT(n) at: A..B (A, 2A, 4A, ... B), a comma list, or both; "
                                      "any size may be written b^k, e.g. 2..2^20,12,60")
      ->check(sizes_validator())
      ->type_name("LIST");
  add_isa_option(cmd, a.isa, "Instruction set of the splgen kernel (native: the best this CPU runs)");
  add_precision_option(cmd, a.precision, "Floating-point type of the kernels and FFTW plans (double or float)");
  cmd->add_flag("--inverse", a.inverse, "Benchmark the inverse (unnormalised) transform against FFTW_BACKWARD");
  add_rules_option(cmd, a.rule_files);
  add_rule_selection_options(cmd, a.prefer_rules, a.only_rules);
  cmd->add_option("--compare", a.compare,
                  "default: time the kernels made with --rules (preferred) against the default kernels and FFTW")
      ->check(CLI::IsMember({"default"}))
      ->type_name("default");
  cmd->add_option("--reps", a.reps, "Timed repetitions per size; the median is reported (default 31, fewer above 2^14)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--min-time-ms", a.min_time_ms, "Each timed sample repeats the transform for at least this long")
      ->check(finite_range(0.001, 10000.0))
      ->capture_default_str();
  cmd->add_flag("--no-patient", a.no_patient, "Skip the FFTW_PATIENT plans (their planning takes long)");
  add_compiler_options(cmd, a.compiler, a.flags);
  cmd->add_option("--csv", a.csv, "Also write the results as CSV to FILE")->type_name("FILE");
  cmd->add_option("--json", a.json, "Also write the results and metadata as JSON to FILE")->type_name("FILE");
  cmd->add_option("--plot", a.plot, "Also write an SVG plot of Gflop/s against log2(n) to FILE")->type_name("FILE");
  cmd->add_flag("--quiet", a.quiet, "No progress on standard error");
  add_threads_options(cmd, a.threads, a.threading);
  add_codelet_knobs(cmd, a.codelet_max, a.top_codelet_max);
  add_masked_remainders_flag(cmd, a.masked_remainders);
  add_io_layout_options(cmd, a.io, a.format);
  cmd->add_option("--target", a.target, "cpp; mpi: distributed kernels on --ranks processes against FFTW-MPI; cuda: "
                                        "GPU kernels against cuFFT (docs/cuda.md)")
      ->check(CLI::IsMember({"cpp", "mpi", "cuda"}))
      ->capture_default_str();
  cmd->add_option("--ranks", a.ranks, "--target mpi: MPI processes (mpirun -np P on this machine)")
      ->check(CLI::Range(2, 1024))
      ->type_name("P");
  add_decomposition_options(cmd, a.decomposition, a.grid, a.overlap);
  cmd->add_option("--wisdom", a.wisdom,
                  "Time the plans `splgen search` stored in FILE (the default kernel is timed beside them)")
      ->type_name("FILE");
  add_cuda_bench_options(cmd, a);
  return cmd;
}

namespace {

// bench --target mpi: the specs (SPEC, or DFT(n) for each of --sizes) against FFTW-MPI.
int run_mpi_bench(const BenchArgs &a, Isa isa) {
  if (a.ranks < 2) throw CommandError(kExitUsage, "bench --target mpi needs --ranks P (P >= 2)");
  if (!with_format(a.io, a.format).plain())
    throw CommandError(kExitUsage, "bench --target mpi: --batch, strides, --in-place and --format split are not built for "
                                   "distributed kernels yet");
  if (a.threads > 1 || !a.rule_files.empty() || !a.wisdom.empty() || !a.compare.empty() || !a.csv.empty() ||
      !a.json.empty() || !a.plot.empty())
    throw CommandError(kExitUsage, "bench --target mpi: --threads, --rules, --wisdom, --compare, --csv, --json and "
                                   "--plot are not built for distributed kernels yet");
  measure::MpiBenchOptions o;
  try {  // a rank holds up to driver::kMaxRankPoints
    if (!a.sizes.empty())
      for (int64_t n : measure::parse_sizes(a.sizes, std::min(driver::kMaxGpuPoints, driver::kMaxRankPoints * a.ranks)))
        o.specs.push_back(fmt::format("DFT({})", n));
    else
      o.specs.push_back(a.spec);
  } catch (const measure::SizesError &e) {
    throw CommandError(kExitUsage, std::string("--sizes: ") + e.what());
  }
  o.ranks = a.ranks, o.precision = precision_from_option(a.precision), o.isa = isa, o.inverse = a.inverse;
  o.decomposition = a.decomposition == "pencil" ? lower::Decomposition::Pencil : lower::Decomposition::Slab;  // IsMember
  o.grid = parse_grid(a.grid), o.overlap = a.overlap;
  if (a.reps > 0) o.repetitions = a.reps;
  o.flags = a.flags;
  auto progress = [&](const std::string &text) {
    if (!a.quiet) std::cerr << text << std::flush;
  };
  std::vector<measure::MpiBenchRow> rows;
  try {
    rows = measure::run_mpi_bench(o, progress);
  } catch (const measure::CompileError &e) {
    throw CommandError(kExitInternal, fmt::format("cannot compile the MPI benchmark: {}: {}", e.command, e.first_error()));
  } catch (const std::runtime_error &e) {
    if (dynamic_cast<const FormulaError *>(&e)) throw;
    throw CommandError(kExitInternal, e.what());
  }
  std::cout << measure::format_mpi_table(o, rows);
  check_stdout();
  return 0;
}

}  // namespace

int run_bench(const BenchArgs &a) {
  if (a.spec.empty() && a.sizes.empty() && a.results.empty())
    throw CommandError(kExitUsage, "bench needs SPEC or --sizes (see 'splgen bench --help')");
  if (a.target == "cuda") return run_cuda_bench(a);
  check_no_cuda_options(a);
  if (a.target == "mpi") return run_mpi_bench(a, runnable_isa(a.isa));
  if (a.ranks > 1) throw CommandError(kExitUsage, "--ranks needs --target mpi");
  if (a.decomposition != "slab" || !a.grid.empty() || a.overlap > 1)
    throw CommandError(kExitUsage, "--decomposition, --grid and --overlap need --target mpi");
  if (!a.spec.empty() && !a.sizes.empty() && size_template_kind(a.spec).empty())
    throw CommandError(kExitUsage, "bench takes SPEC or --sizes, not both (or KIND(n) with --sizes, e.g. \"RDFT(n)\")");
  check_rule_options(a);
  const Isa isa = runnable_isa(a.isa);
  measure::BenchOptions options = bench_options(a, isa);
  if (!a.wisdom.empty()) {
    load_wisdom_file(a.wisdom);  // a corrupt file is an error before anything runs
    options.default_baseline = true;
    const FallbackNote note = a.quiet ? FallbackNote::None : FallbackNote::AfterProgress;
    options.tune = [&a, note](const std::string &spec, driver::GenOptions g) {
      return with_wisdom_plan(a.wisdom, spec, g, a.compiler, note);
    };
  }
  // A typo in --csv should not cost a long run: the files must be writable before it starts.
  const std::vector<std::pair<std::string, std::string>> outputs{{"--csv", a.csv}, {"--json", a.json}, {"--plot", a.plot}};
  check_distinct_outputs(outputs);
  for (const auto &[option, path] : outputs) check_writable(option, path);

  // Progress comes in pieces of one line per size; an error must not start mid-line.
  bool line_open = false;
  measure::BenchProgress progress = [&](const std::string &text) {
    if (a.quiet) return;
    std::cerr << text << std::flush;
    line_open = !text.empty() && text.back() != '\n';
  };
  measure::BenchResult result;
  try {
    const driver::IoLayoutOptions io = with_format(a.io, a.format);
    driver::IoLayoutOptions rest = io;  // a streamed spec in place: the in-place large 1D DFT
    rest.in_place = false;
    options.in_place = io.in_place && rest.plain() && !options.spec.empty() && measure::streamed_spec(options.spec);
    result = io.plain() || options.in_place ? measure::run_bench(options, progress)
                                            : measure::run_layout_bench(options, io, progress);
  } catch (const measure::CompileError &e) {
    if (line_open) std::cerr << std::endl;
    // With the user's compiler or flags the fault is likely theirs; with ours, it is a bug.
    bool users = !a.compiler.empty() || a.flags != BenchArgs{}.flags;
    throw CommandError(users ? kExitUsage : kExitInternal,
                       fmt::format("cannot compile the kernels: {}: {}", e.command, e.first_error()));
  } catch (...) {
    if (line_open) std::cerr << std::endl;
    throw;
  }

  std::cout << measure::format_table(result);
  std::vector<std::pair<std::string, std::string>> files;  // written together, or none of them
  if (!a.csv.empty()) files.emplace_back(a.csv, measure::format_csv(result));
  if (!a.json.empty()) files.emplace_back(a.json, measure::format_json(result));
  if (!a.plot.empty()) files.emplace_back(a.plot, measure::format_svg(result));
  write_files(files);
  check_stdout();
  return 0;
}

}  // namespace splgen::cli
