// What a kernel is generated for: the floating-point type and the instruction set.
// One place for the facts about each ISA that the vectoriser and the backends need.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace splgen {

enum class Precision { Double, Float };

// Scalar is portable C++; the others add intrinsics (x86-64) and need the CPU feature to run.
enum class Isa { Scalar, Sse2, Avx2, Avx512 };

// "scalar", "sse2", "avx2", "avx512" (the --isa spellings).
const std::string &isa_name(Isa isa);
// Parses an --isa value; "native" picks host_best_isa(). nullopt for an unknown name.
std::optional<Isa> parse_isa(const std::string &name);
const std::vector<std::string> &isa_names();  // {"scalar", "sse2", "avx2", "avx512", "native"}

// How a kernel with parallel loops runs its workers: an OpenMP parallel region (the default,
// as FFTW's and MKL's threaded builds), or the header-only thread team of runtime/
// (persistent std::thread workers) for builds without OpenMP. docs/threads.md. Spmd: each
// worker is a process of its own (an MPI rank, docs/mpi.md) that runs the kernel with its
// number as a parameter; the MPI backend's local steps, never chosen with --threading.
enum class Threading { OpenMP, Team, Spmd };
const std::string &threading_name(Threading t);            // "openmp", "team", "spmd"
std::optional<Threading> parse_threading(const std::string &name);
// The DMA engine a streamed kernel uses when called as NAME(y, x) (docs/streaming.md):
// transfers by a copy thread (overlapped with compute) or done at once by the caller.
enum class DmaEngine { Thread, Sync };
const std::string &dma_engine_name(DmaEngine e);              // "thread", "sync"
std::optional<DmaEngine> parse_dma_engine(const std::string &name);

// Complex elements of the precision per cache line: mu of smp(p, mu), so the blocks the
// threads own never share a line (64-byte lines on every x86-64 CPU, Intel and AMD alike).
int cache_line_complex(Precision precision);

// Real lanes per vector register, widest first (AVX2 double: {4, 2}); {} for Scalar.
std::vector<int> vector_widths(Isa isa, Precision precision);
// The width whose loads, stores and arithmetic take lane masks (AVX-512F: the 512-bit one), so
// a loop remainder runs as one masked group; 0 where there are none.
int masked_vector_width(Isa isa, Precision precision);
// What one group of a vectorised loop costs, in scalar iterations of its body, by register
// width; the vectoriser (generator/lower/vectorize_loops.h) splits each loop's extent into the
// cheapest groups. overlap_max_bits: the widest group that may end a loop over iterations done
// before (out-of-place bodies only), 0 for none. The defaults (all 1, no overlap) give the
// greedy split: the widest width that fits, the rest likewise.
struct VectorGroupCosts {
  double scalar = 1, v128 = 1, v256 = 1, v512 = 1;
  int overlap_max_bits = 0;
};
VectorGroupCosts vector_group_costs(Isa isa);
// Whether the ISA has fused multiply-add (AVX2 here means AVX2 + FMA, as on every AVX2 CPU).
bool has_fma(Isa isa);

// Whether this process's CPU can run kernels of the ISA (cpuid), and the best one it can.
bool host_supports(Isa isa);
Isa host_best_isa();

}  // namespace splgen
