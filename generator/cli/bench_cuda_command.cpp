#include "generator/cli/bench_cuda_command.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/measure/compile.h"
#include "generator/measure/cuda_bench.h"
#include "generator/driver/size_limits.h"
#include "generator/measure/sizes.h"
#include "generator/parse/formula_parser.h"

namespace splgen::cli {

namespace {

// What bench --target cuda does not take: the CPU's options, and layouts other than a batch.
void check_cuda_options(const BenchArgs &a) {
  if (a.ranks > 1 || a.decomposition != "slab" || !a.grid.empty() || a.overlap > 1)
    throw CommandError(kExitUsage, "--ranks, --decomposition, --grid and --overlap need --target mpi");
  driver::IoLayoutOptions io = with_format(a.io, a.format);
  io.batch = 1;
  if (!io.plain())
    throw CommandError(kExitUsage, "bench --target cuda: strides, --in-place and --format split are not built for GPU "
                                   "kernels; --batch N and --batch auto are");
  if (a.threads > 1 || !a.rule_files.empty() || !a.wisdom.empty() || !a.compare.empty() || !a.csv.empty() ||
      !a.json.empty() || !a.plot.empty() || a.isa != BenchArgs{}.isa || a.top_codelet_max || a.masked_remainders)
    throw CommandError(kExitUsage, "bench --target cuda: --isa, --threads, --rules, --wisdom, --compare, --csv, --json, "
                                   "--plot, --top-codelet-max and --masked-remainders are not built for GPU kernels");
  if (a.no_run && a.keep.empty()) throw CommandError(kExitUsage, "--no-run needs --keep DIR: it only writes the files there");
  if (!a.spec.empty() && !a.sizes.empty() && a.spec != "DFT(n)")
    throw CommandError(kExitUsage, "bench takes SPEC or --sizes, not both (or \"DFT(n)\" with --sizes)");
}

measure::CudaBenchOptions cuda_options(const BenchArgs &a) {
  measure::CudaBenchOptions o;
  if (!a.sizes.empty())
    for (int64_t n : measure::parse_sizes(a.sizes, driver::kMaxGpuPoints)) o.specs.push_back(fmt::format("DFT({})", n));
  else
    o.specs.push_back(a.spec);
  o.batch = a.batch_auto ? 0 : a.io.batch;
  if (o.batch < 0 || (o.batch == 0 && !a.batch_auto))
    throw CommandError(kExitUsage, fmt::format("--batch {}: give a count of at least 1, or auto", a.io.batch));
  o.precision = precision_from_option(a.precision), o.inverse = a.inverse;
  if (a.reps > 0) o.repetitions = a.reps;
  if (a.min_time_ms != BenchArgs{}.min_time_ms) o.min_sample_seconds = a.min_time_ms * 1e-3;  // else the GPU's 20 ms
  o.arch = a.arch, o.keep = a.keep, o.no_run = a.no_run;
  o.kernel.codelet_max = a.codelet_max;
  o.kernel.knobs = gpu_knobs_from(a.arch, a.gpu_knobs);
  return o;
}

}  // namespace

void add_cuda_bench_options(CLI::App *cmd, BenchArgs &a) {
  // "auto" becomes 1 for the integer --batch, and remembered (the other targets refuse it).
  cmd->get_option("--batch")
      ->transform(CLI::Validator(
          [&a](std::string &value) {
            if (value == "auto") a.batch_auto = true, value = "1";
            return std::string();
          },
          ""))
      ->type_name("N|auto")
      ->description("Transforms per call (FFTW's howmany): I(N) (x) SPEC; --target cuda also takes auto: the fewest "
                    "whose x and y fill 256 MiB");
  cmd->add_option("--arch", a.arch, "--target cuda: nvcc's -arch for the kernels (sm_90 ...; native: this machine's GPU)")
      ->capture_default_str();
  cmd->add_option("--keep", a.keep, "--target cuda: write each spec's kernel.cu, bench.cu and build_and_run.sh into "
                                    "DIR/<index>/, and DIR/run_all.sh, and keep them")
      ->type_name("DIR");
  add_gpu_knobs_option(cmd, a.gpu_knobs);
  cmd->add_flag("--no-run", a.no_run, "--target cuda with --keep DIR: only write the files (no nvcc, no GPU needed)");
  cmd->add_option("--results", a.results, "--target cuda: the table of what DIR/run_all.sh printed on a GPU machine, "
                                          "saved to FILE (nothing is generated or run)")
      ->type_name("FILE");
}

void check_no_cuda_options(const BenchArgs &a) {
  if (a.batch_auto) throw CommandError(kExitUsage, "--batch auto needs --target cuda");
  if (a.arch != BenchArgs{}.arch || !a.keep.empty() || a.no_run || !a.results.empty() || !a.gpu_knobs.empty())
    throw CommandError(kExitUsage, "--arch, --gpu-knobs, --keep, --no-run and --results need --target cuda");
}

namespace {

// --results FILE: the run happened elsewhere; its lines become the table here.
int print_results(const BenchArgs &a) {
  if (!a.spec.empty() || !a.sizes.empty() || !a.keep.empty() || a.no_run)
    throw CommandError(kExitUsage, "--results FILE makes the table of a finished run: no SPEC, --sizes, --keep or --no-run");
  std::ifstream in(a.results, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw CommandError(kExitUsage, fmt::format("--results: cannot read {}", a.results));
  measure::CudaBenchOptions o;
  measure::CudaBenchResult result;
  try {
    result = measure::read_cuda_results(text.str(), o);
  } catch (const FormulaError &) {
    throw;
  } catch (const parse::ParseError &) {
    throw;
  } catch (const std::runtime_error &e) {
    throw CommandError(kExitUsage, fmt::format("--results {}: {}", a.results, e.what()));
  }
  std::cout << measure::format_cuda_table(o, result);
  check_stdout();
  return 0;
}

}  // namespace

int run_cuda_bench(const BenchArgs &a) {
  check_cuda_options(a);
  if (!a.results.empty()) return print_results(a);
  const measure::CudaBenchOptions o = cuda_options(a);
  bool line_open = false;  // progress comes in pieces; an error must not start mid-line
  auto progress = [&](const std::string &text) {
    if (a.quiet) return;
    std::cerr << text << std::flush;
    line_open = !text.empty() && text.back() != '\n';
  };
  measure::CudaBenchResult result;
  try {
    result = measure::run_cuda_bench(o, progress);
  } catch (...) {
    if (line_open) std::cerr << std::endl;
    try {
      throw;
    } catch (const measure::CompileError &e) {
      throw CommandError(kExitInternal, fmt::format("cannot compile the CUDA benchmark: {}: {}", e.command,
                                                    e.first_error()));
    } catch (const measure::CudaUnavailable &e) {
      throw CommandError(kExitUsage, e.what());
    } catch (const measure::CudaKeepError &e) {
      throw CommandError(kExitOutput, e.what());
    } catch (const FormulaError &) {
      throw;
    } catch (const parse::ParseError &) {
      throw;
    } catch (const std::runtime_error &e) {  // the program failed: the kernel's fault, or the card's
      throw CommandError(kExitInternal, e.what());
    }
  }
  if (o.no_run)
    std::cout << fmt::format("wrote {} spec(s) to {}: run {} on the GPU machine\n", o.specs.size(), o.keep,
                             result.kept.back());
  else
    std::cout << measure::format_cuda_table(o, result);
  check_stdout();
  return 0;
}

}  // namespace splgen::cli
