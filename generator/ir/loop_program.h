// The loop program: the last stage before a backend prints source. It is the kernel's loop IR,
// and, for a kernel that is one DFT codelet on a vector target, the complex straight-line form
// a backend prints instead (generator/lower/complex_codelet.h). docs/design.md, "Data flow".
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "generator/ir/complex_codelet.h"
#include "generator/ir/loops.h"

namespace splgen {

// A distributed kernel (par(p, mu) on a target that consumes it, docs/mpi.md): the steps each of
// `ranks` ranks runs on its local part of the vectors, in order. A local step is a function on
// `local` points with at most one parallel loop, whose iteration k is rank k's work; an
// exchange is an all-to-all of local/ranks points between every pair of ranks. x and y are
// spread over the ranks in blocks, or cyclically in packets of x_packet (y_packet) points.
struct RankShape {
  int ranks = 0;
  int64_t points = 0, local = 0, x_packet = 0, y_packet = 0;
};
struct RankLoops : RankShape {
  struct Step {
    bool exchange = false;
    Function local;
  };
  std::vector<Step> steps;
};

// What `steps` steps of a distributed kernel do to the whole vector x: x spread over the
// ranks, step i an exchange where is_exchange(i), else local(i, rank, rank's part).
std::vector<cplx> run_on_ranks(const RankShape &shape, std::size_t steps, const std::function<bool(std::size_t)> &is_exchange,
                               const std::function<std::vector<cplx>(std::size_t, int64_t, const std::vector<cplx> &)> &local,
                               const std::vector<cplx> &x);

struct LoopProgram {
  Function loops;                         // the loop IR (its dense meaning is the formula's)
  std::optional<ComplexCodelet> codelet;  // set: the kernel is this codelet, printed as such
  // set: a distributed kernel, these steps (loops is then only the kernel's name and shape)
  std::optional<RankLoops> ranks;
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
