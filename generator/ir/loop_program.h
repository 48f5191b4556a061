// The loop program: the last stage before a backend prints source. It is the kernel's loop IR,
// and, for a kernel that is one DFT codelet on a vector target, the complex straight-line form
// a backend prints instead (generator/lower/complex_codelet.h). docs/design.md, "Data flow".
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "generator/ir/complex_codelet.h"
#include "generator/ir/gpu_program.h"
#include "generator/ir/loops.h"

namespace splgen {

// A distributed kernel (par(p, mu) on a target that consumes it, docs/mpi.md): the steps each of
// `ranks` ranks runs on its local part of the vectors, in order. A local step is a function on
// `local` points with at most one parallel loop, whose iteration k is rank k's work; an
// exchange is an all-to-all of local/size points between every pair of ranks of a group
// (RankGroup). x and y are spread over the ranks in blocks, cyclically in packets of x_packet
// (y_packet) points, or, for a pencil kernel, as its grid says.
struct RankShape {
  int ranks = 0;
  int64_t points = 0, local = 0, x_packet = 0, y_packet = 0;
  // A pencil kernel (docs/mpi.md, "Pencils"): grid[0] > 0, the points an m x n x r array (dims)
  // and the ranks a p0 x p1 grid, rank k = a p1 + b. x: rank (a, b) holds the rows
  // [a m/p0, (a+1) m/p0) x [b n/p1, (b+1) n/p1) x [0, r); y: [0, m) x [a n/p0, ..) x [b r/p1, ..);
  // both row-major.
  std::array<int64_t, 3> dims{};
  std::array<int, 2> grid{};
  // An uneven slab kernel (docs/mpi.md, "Uneven slabs"): slab_rows = m > 0 rows of row_points =
  // R points, rank k holding rows [k a0, min(m, (k+1) a0)) in x and y, a0 = row_block =
  // ceil(m/P) (FFTW-MPI's default distribution; the last ranks fewer rows, maybe none). `local`
  // is then the padded part every step works on (P a0 C', C' = ceil(R/P)), of which x and y
  // are the first a0 R points, the rows past the rank's own padding.
  int64_t slab_rows = 0, row_block = 0, row_points = 0;
  int64_t rows_of(int64_t k) const;  // rank k's rows of m (uneven slabs)
};

// What an exchange's ranks send each other: whole blocks of local/size points, or (an uneven
// slab kernel's MPI_Alltoallv) only the valid rows of each padded block, rows_of(the sender) or
// rows_of(the receiver) rows of local/(size row_block) points, the rest of a block padding.
enum class ExchangeCounts { Blocks, SenderRows, ReceiverRows };
// For the dumps: "" for whole blocks, else which rows go (", the sender's rows of each block (MPI_Alltoallv)").
std::string counts_text(ExchangeCounts counts);

// The ranks of an exchange: those whose index differs from rank k's only in the digit
// (k / stride) % size, that digit being the rank's place in the group (size 0: all ranks;
// a row of a pencil grid: stride 1, size p1; a column: stride p1, size p0).
struct RankGroup {
  int size = 0;
  int stride = 1;
  ExchangeCounts counts = ExchangeCounts::Blocks;
};

struct RankLoops : RankShape {
  struct Step {
    bool exchange = false;
    Function local;
    RankGroup group;  // an exchange's
    int chunks = 1;   // > 1 (--overlap): run on each of `chunks` consecutive slices (docs/mpi.md, "Overlap")
    int64_t column_offset = 0;  // > 0: chunk c reads the whole input from point c * column_offset on (lower::RankStep)
    bool chunk_workers = false;  // chunk c of rank k runs the parallel loop's iteration k * chunks + c (lower::RankStep)
  };
  std::vector<Step> steps;
};

// Where point o of rank k's part of x (input) or y lies in the whole vector; -1 for padding
// (an uneven slab kernel's rows past the rank's own and points past a0 R).
int64_t global_index(const RankShape &shape, bool input, int64_t k, int64_t o);

// What `steps` steps of a distributed kernel do to the whole vector x: x spread over the
// ranks, step i an exchange in the group exchange(i) where it returns one, else
// local(i, rank, rank's part); each on chunks(i) consecutive slices of the rank's part, one
// after another (an exchange of a slice: its block d to the group's rank d, or of an uneven
// slab kernel its valid rows, the rest of the receive buffer NaN so that any use of padding
// shows in the result; x's padding is NaN too); a local step with
// column_offset(i) > 0 reads, for chunk c, its whole input from point c * column_offset(i) on.
// local's second argument is the worker: the rank k, or k * chunks(i) + c where chunk_workers(i).
std::vector<cplx> run_on_ranks(const RankShape &shape, std::size_t steps,
                               const std::function<std::optional<RankGroup>(std::size_t)> &exchange,
                               const std::function<std::vector<cplx>(std::size_t, int64_t, const std::vector<cplx> &)> &local,
                               const std::vector<cplx> &x, const std::function<int(std::size_t)> &chunks,
                               const std::function<int64_t(std::size_t)> &column_offset,
                               const std::function<bool(std::size_t)> &chunk_workers);

struct LoopProgram {
  Function loops;                         // the loop IR (its dense meaning is the formula's)
  std::optional<ComplexCodelet> codelet;  // set: the kernel is this codelet, printed as such
  // set: a distributed kernel, these steps (loops is then only the kernel's name and shape)
  std::optional<RankLoops> ranks;
  // set: the GPU form of `loops` for a backend that prints one (--target cuda, docs/cuda.md)
  std::optional<GpuProgram> gpu;
  const std::string &name() const { return loops.name; }
};

// What the ranks' steps do to the whole vector x (natural order): the distributed kernel's meaning.
std::vector<cplx> interpret(const RankLoops &r, const std::vector<cplx> &x);

// The program's meaning: the codelet's when there is one, else the loop IR's.
std::vector<cplx> interpret(const LoopProgram &p, const std::vector<cplx> &x);
Matrix to_dense(const LoopProgram &p);

// What --dump-after loops prints: the form a backend prints (the codelet when there is one).
std::string to_string(const LoopProgram &p);

}  // namespace splgen
