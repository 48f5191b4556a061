// splgen bench --target mpi (docs/mpi.md): distributed kernels against FFTW-MPI on the same
// ranks, under mpirun. Each spec's kernel is generated, compiled with mpicxx beside a timing
// program (mpi_bench_program.cpp's text) and run on `ranks` processes; that program times the
// kernel and fftw_mpi_plan_dft (FFTW_MEASURE, the same block distribution) interleaved, each
// sample the slowest rank's time, and reports the medians.
#pragma once
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "generator/lower/distribute_ranks.h"
#include "generator/lower/pencil_ranks.h"
#include "generator/target/target.h"

namespace splgen::measure {

struct MpiBenchOptions {
  std::vector<std::string> specs;  // "DFT(1048576)", "DFT(256 x 256 x 256)"
  int ranks = 2;
  Precision precision = Precision::Double;
  Isa isa = Isa::Scalar;
  bool inverse = false;
  lower::Decomposition decomposition = lower::Decomposition::Slab;  // 3D: slabs or pencils
  std::array<int, 2> grid{};                                          // pencils: {0, 0}, the rule's
  int overlap = 1;                                                    // pencils: exchanges in chunks
  int repetitions = 11;
  double min_sample_seconds = 0.02;
  std::string flags = "-O3 -march=native";
};

struct MpiBenchRow {
  std::string spec;
  int64_t points = 0;
  int exchanges = 0;
  double splgen_ns = 0, fftw_ns = 0;  // medians, the slowest rank each time
  double error = 0;                   // relative RMS of splgen's y against FFTW-MPI's
  double exchange_ns = 0;             // one MPI_Alltoall of the kernel's blocks (the model's network)
  // The model's node and memory (docs/mpi.md, "The model"), measured in the same run with every
  // rank at it at once, as the kernel's ranks share the machine: the sequential DFT of a rank's
  // N/p points, and a copy of a rank's part (x to a buffer of its size).
  double node_ns = 0, copy_ns = 0;
  // GB/s a rank sends into the others in that exchange ((p-1)/p of its part).
  double exchange_gbytes(int ranks, Precision precision) const;
  double node_gflops(int ranks) const;                       // 5 (N/p) log2 (N/p) / node_ns
  double copy_gbytes(int ranks, Precision precision) const;  // bytes read + written / copy_ns
};

// Throws FormulaError for a spec the ranks cannot share, CompileError, or std::runtime_error
// with the program's output when mpirun fails.
std::vector<MpiBenchRow> run_mpi_bench(const MpiBenchOptions &options, const std::function<void(const std::string &)> &progress);

// The table (Gflop/s = 5 N log2 N / ns; the ratio is FFTW-MPI's time over splgen's).
std::string format_mpi_table(const MpiBenchOptions &options, const std::vector<MpiBenchRow> &rows);

// The timing program's source (its macros: KERNEL, NODE (the sequential kernel), SPLGEN_FLOAT, DIMS, GRID, SIGN).
const std::string &mpi_bench_program();

}  // namespace splgen::measure
