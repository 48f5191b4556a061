#include "generator/cli/options.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "generator/cli/command_error.h"

namespace splgen::cli {

void add_isa_option(CLI::App *cmd, std::string &isa, const std::string &help) {
  cmd->add_option("--isa", isa, help)->check(CLI::IsMember(isa_names()))->capture_default_str();
}

Isa runnable_isa(const std::string &isa) {
  const Isa parsed = *parse_isa(isa);  // add_isa_option admits only known names
  if (!host_supports(parsed))
    throw CommandError(kExitUsage, fmt::format("--isa {}: this CPU cannot run {} code (the best it runs is {})", isa,
                                               isa_name(parsed), isa_name(host_best_isa())));
  return parsed;
}

void add_precision_option(CLI::App *cmd, std::string &precision, const std::string &help) {
  cmd->add_option("--precision", precision, help)->check(CLI::IsMember({"double", "float"}))->capture_default_str();
}

Precision precision_from_option(const std::string &precision) {
  return precision == "float" ? Precision::Float : Precision::Double;
}

void add_rules_option(CLI::App *cmd, std::vector<std::string> &rule_files) {
  cmd->add_option("--rules", rule_files, "Extra rule file, tried before the shipped rules (repeatable)")
      ->type_name("FILE");
}

void add_rule_selection_options(CLI::App *cmd, bool &prefer_rules, std::vector<std::string> &only_rules) {
  cmd->add_flag("--prefer-rules", prefer_rules,
                "Rank the breakdown rules of the --rules files first wherever one applies");
  cmd->add_option("--only-rules", only_rules,
                  "The only breakdown rules the expansion may use, comma-separated (codelets stay leaves)")
      ->delimiter(',')
      ->type_name("NAMES");
}

void add_threads_options(CLI::App *cmd, int &threads, std::string &threading) {
  cmd->add_option("--threads", threads, "Workers inside the kernel (smp(P, mu) around the spec; docs/threads.md)")
      ->check(CLI::Range(1, 256))
      ->type_name("P");
  cmd->add_option("--threading", threading, "How a threaded kernel runs its workers: openmp, or team (runtime/thread_team.h)")
      ->check(CLI::IsMember({"openmp", "team"}))
      ->capture_default_str();
}

void add_ranks_options(CLI::App *cmd, int &ranks, std::string &distribution) {
  cmd->add_option("--ranks", ranks, "MPI ranks of a distributed kernel (par(P, 1) around the spec; --target mpi, docs/mpi.md)")
      ->check(CLI::Range(1, 1 << 20))
      ->type_name("P");
  cmd->add_option("--distribution", distribution,
                  "How x and y are spread over the ranks: block (FFTW-MPI's), or cyclic (packets; fewer exchanges)")
      ->check(CLI::IsMember({"block", "cyclic"}))
      ->capture_default_str();
}

void add_decomposition_options(CLI::App *cmd, std::string &decomposition, std::string &grid, int &overlap) {
  cmd->add_option("--decomposition", decomposition,
                  "3D distributed kernels: slab (ranks split the first dimension) or pencil (a p0 x p1 grid of ranks)")
      ->check(CLI::IsMember({"slab", "pencil"}))
      ->capture_default_str();
  cmd->add_option("--grid", grid, "--decomposition pencil: the grid of ranks (default: the squarest that fits)")
      ->type_name("P0xP1");
  cmd->add_option("--overlap", overlap,
                  "distributed kernels (1D, slab, pencil): each exchange in K chunks (MPI_Ialltoall), overlapping the compute on the others")
      ->check(CLI::Range(1, 1024))
      ->type_name("K");
}

std::array<int, 2> parse_grid(const std::string &grid) {
  if (grid.empty()) return {0, 0};
  int p0 = 0, p1 = 0;
  char x = 0, extra = 0;
  if (std::sscanf(grid.c_str(), "%d%c%d%c", &p0, &x, &p1, &extra) != 3 || x != 'x' || p0 < 1 || p1 < 1 || p0 > (1 << 20) ||
      p1 > (1 << 20))
    throw CommandError(kExitUsage, fmt::format("--grid {}: not P0xP1 (two rank counts, such as 2x4)", grid));
  return {p0, p1};
}

void add_stream_options(CLI::App *cmd, int &buffers, int64_t &local_memory, std::string &dma, std::string &layout,
                        bool &stream) {
  cmd->add_flag("--stream", stream,
                "Stream the spec: stream(s)[SPEC] with the fewest chunks s whose buffers fit --local-memory");
  cmd->add_option("--layout", layout,
                  "tiled(k)/cubic(k) specs: natural (row-major in and out), block (the block layout in and out), "
                  "to-block or from-block (the layout conversion kernels)")
      ->check(CLI::IsMember({"natural", "block", "to-block", "from-block"}))
      ->capture_default_str();
  cmd->add_option("--buffers", buffers, "Streamed loops (stream tag): chunks in flight, >= 1 (docs/streaming.md)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--local-memory", local_memory, "Streamed loops: the local memory in bytes their buffers must fit")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 40))
      ->type_name("BYTES");
  cmd->add_option("--dma", dma, "Streamed loops: the DMA engine NAME(y, x) uses: thread (a copy thread) or sync")
      ->check(CLI::IsMember({"thread", "sync"}))
      ->capture_default_str();
}

void add_codelet_knobs(CLI::App *cmd, int64_t &codelet_max, int64_t &top_codelet_max) {
  cmd->add_option("--codelet-max", codelet_max, "Expansion knob: largest DFT emitted as one unrolled codelet")
      ->check(CLI::Range(int64_t(1), int64_t(64)));
  cmd->add_option("--top-codelet-max", top_codelet_max, "Expansion knob: a spec above this size is always split")
      ->check(CLI::Range(int64_t(1), int64_t(64)));
}

void add_masked_remainders_flag(CLI::App *cmd, bool &masked) {
  cmd->add_flag("--masked-remainders", masked,
                "AVX-512: a loop's last iterations as one masked vector, not narrower vectors and a scalar tail");
}

CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string &value) -> std::string {
        char *end = nullptr;
        double v = std::strtod(value.c_str(), &end);
        bool number = !value.empty() && end == value.c_str() + value.size();
        if (number && std::isfinite(v) && v >= lo && v <= hi) return "";
        return fmt::format("'{}' is not a number in [{}, {}]", value, lo, hi);
      },
      fmt::format("FLOAT in [{} - {}]", lo, hi));
}

namespace {

// --inembed / --onembed "A x B": a value that is no list of dimensions is a usage error.
void add_embed_option(CLI::App *cmd, const std::string &name, std::vector<int64_t> &embed, const char *side) {
  auto parse = [&embed, name](const std::string &v) {
    try {
      embed = driver::parse_embed(v);
    } catch (const FormulaError &e) {
      throw CLI::ValidationError(name, e.what());
    }
  };
  cmd->add_option_function<std::string>(name, parse,
                                        fmt::format("FFTW's {}: the dimensions of the array each transform's {} is a "
                                                    "subarray of (default: the transform's, dense)", name.substr(2), side))
      ->type_name("\"A x B\"");
}

}  // namespace

void add_io_layout_options(CLI::App *cmd, driver::IoLayoutOptions &io, std::string &format) {
  cmd->add_option("--batch", io.batch, "Transforms per call (FFTW's howmany): I(N) (x) SPEC")->type_name("N");
  cmd->add_option("--istride", io.istride, "Elements between consecutive inputs of one transform")->type_name("S");
  cmd->add_option("--idist", io.idist, "Elements between the first inputs of consecutive transforms (default: size * istride)")
      ->type_name("D");
  cmd->add_option("--ostride", io.ostride, "Elements between consecutive outputs of one transform")->type_name("S");
  cmd->add_option("--odist", io.odist, "Elements between the first outputs of consecutive transforms (default: size * ostride)")
      ->type_name("D");
  add_embed_option(cmd, "--inembed", io.inembed, "input");
  add_embed_option(cmd, "--onembed", io.onembed, "output");
  cmd->add_flag("--in-place", io.in_place, "One buffer, NAME(xy): the output overwrites the input");
  cmd->add_option("--format", format, "Complex data: interleaved (re, im pairs) or split (NAME(yr, yi, xr, xi))")
      ->check(CLI::IsMember({"interleaved", "split"}))
      ->capture_default_str();
}

driver::IoLayoutOptions with_format(driver::IoLayoutOptions io, const std::string &format) {
  io.split = format == "split";
  return io;
}

void add_gpu_knobs_option(CLI::App *cmd, std::string &knobs) {
  cmd->add_option("--gpu-knobs", knobs,
                  "--target cuda: the GPU form's parameters, e.g. \"block=256,staging=sector\" (block, grid_block, "
                  "staging, stores, padding, table, factor, shared; docs/cuda.md)")
      ->type_name("K=V,...");
}

void add_arch_option(CLI::App *cmd, std::string &arch, const std::string &help) {
  cmd->add_option("--arch", arch, help)->type_name("sm_XX");
}

GpuKnobs gpu_knobs_from(const std::string &arch, const std::string &knobs) {
  try {
    GpuKnobs k;
    if (!arch.empty() && arch != "native") k.shared_bytes = gpu_arch_shared_bytes(arch);
    return knobs.empty() ? k : parse_gpu_knobs(knobs, k);
  } catch (const std::invalid_argument &e) {
    throw CommandError(kExitUsage, e.what());
  }
}

void add_compiler_options(CLI::App *cmd, std::string &compiler, std::string &flags) {
  cmd->add_option("--compiler", compiler, "C++ compiler for the kernels (default $CXX, else c++)")->type_name("CXX");
  cmd->add_option("--flags", flags, "Compiler flags for the kernels; write --flags=\"...\"")->capture_default_str();
}

}  // namespace splgen::cli
