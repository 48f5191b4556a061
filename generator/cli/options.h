// Options that several subcommands take, added to their command lines and read the same way
// (docs/cli.md). The help text stays the caller's where the meaning differs by subcommand.
#pragma once
#include <array>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "generator/driver/io_layout.h"
#include "generator/ir/gpu_knobs.h"
#include "generator/target/target.h"

namespace splgen::cli {

// --isa ISA, one of isa_names(); the help shows the variable's value as the default.
void add_isa_option(CLI::App *cmd, std::string &isa, const std::string &help);

// --isa for commands that run what they generate (bench, search): the ISA, if this CPU runs it;
// else CommandError.
Isa runnable_isa(const std::string &isa);

// --precision double|float.
void add_precision_option(CLI::App *cmd, std::string &precision, const std::string &help);
Precision precision_from_option(const std::string &precision);  // a value the option admitted

// --rules FILE (repeatable).
void add_rules_option(CLI::App *cmd, std::vector<std::string> &rule_files);
// --prefer-rules (the --rules files' breakdown rules first wherever one applies) and
// --only-rules NAME,... (the only breakdown rules the expansion may use).
void add_rule_selection_options(CLI::App *cmd, bool &prefer_rules, std::vector<std::string> &only_rules);

// --threads P (1..256; the kernel runs P workers, smp(P, mu)) and --threading openmp|team.
void add_threads_options(CLI::App *cmd, int &threads, std::string &threading);
// --ranks P (a distributed kernel, par(P, 1)) and --distribution block|cyclic (docs/mpi.md).
void add_ranks_options(CLI::App *cmd, int &ranks, std::string &distribution);
// --decomposition slab|pencil, --grid P0xP1 and --overlap K (3D distributed kernels, docs/mpi.md).
void add_decomposition_options(CLI::App *cmd, std::string &decomposition, std::string &grid, int &overlap);
// "P0xP1" as {P0, P1}; {0, 0} for ""; CommandError (usage) otherwise.
std::array<int, 2> parse_grid(const std::string &grid);
// --buffers, --local-memory, --dma, and --layout (block data layouts, docs/streaming.md)
// and --stream (s chosen from --local-memory)
void add_stream_options(CLI::App *cmd, int &buffers, int64_t &local_memory, std::string &dma, std::string &layout,
                        bool &stream);

// The expansion knobs --codelet-max N and --top-codelet-max N (1..64; left 0 when absent).
void add_codelet_knobs(CLI::App *cmd, int64_t &codelet_max, int64_t &top_codelet_max);
void add_masked_remainders_flag(CLI::App *cmd, bool &masked);

// A check for a floating-point option: a finite number in [lo, hi]. CLI::Range lets "nan"
// through (every comparison with NaN is false), and a NaN time made `bench` loop for ever.
CLI::Validator finite_range(double lo, double hi);

// --batch N, --istride S, --idist D, --ostride S, --odist D, --inembed "A x B", --onembed
// (FFTW's advanced interface), --in-place and --format interleaved|split (docs/transforms.md, "Layouts"). The values are
// checked by driver::check_io_layout (one line, exit 2), after the spec is known.
void add_io_layout_options(CLI::App *cmd, driver::IoLayoutOptions &io, std::string &format);
driver::IoLayoutOptions with_format(driver::IoLayoutOptions io, const std::string &format);

// --gpu-knobs "k=v,..." (GPU targets: generator/ir/gpu_knobs.h). Bench and search add their
// own --arch (it is nvcc's there too); gen takes it from add_arch_option.
void add_gpu_knobs_option(CLI::App *cmd, std::string &knobs);
void add_arch_option(CLI::App *cmd, std::string &arch, const std::string &help);
// The knobs of --arch (its shared memory per block; "" or "native": the default 96 KiB) and
// --gpu-knobs (which win); CommandError(kExitUsage), one line, for a bad name, key or value.
GpuKnobs gpu_knobs_from(const std::string &arch, const std::string &knobs);

// --compiler CXX and --flags=FLAGS, for commands that compile kernels (bench, search).
void add_compiler_options(CLI::App *cmd, std::string &compiler, std::string &flags);

}  // namespace splgen::cli
