// Distributed-memory lowering (docs/mpi.md): the Sigma-SPL of a par(p, mu) formula, a product of
// Sum_par stages made by rules/par.rules (Chellappa, Franchetti & Pueschel, ICS 2009, eqs.
// (6)-(8)), as the steps that one of p ranks runs on its local part of each vector: local
// stages and all-to-all exchanges.
//
// Between stages a vector of N points is block-distributed: rank k holds the N/p points from
// k N/p on. A stage's gather (scatter) is either the rank's own block, h(k N/p, 1), or the
// rank's packets q(k, p, nu) (packet k of every row of p nu points), which other ranks own:
// an all-to-all exchange. Packing the send buffer is folded into the stage before the
// exchange (its scatter writes in send order) and unpacking into the stage after it (its
// gather reads in receive order); only where no stage is there (the kernel's x and y, or two
// exchanges in a row) does a permutation of its own remain.
#pragma once
#include <string>
#include <vector>

#include "generator/ir/loop_program.h"
#include "generator/ir/sigma.h"

namespace splgen::lower {

// How the kernel's x and y are spread over the ranks. Block: rank k holds points
// [k N/p, (k+1) N/p), as FFTW-MPI's local_0_start / local_n0. Cyclic: rank k holds the
// packets k, k + p, k + 2p, ... of `packet` points (the block-cyclic distribution of seed 004,
// sec. 3.1.1, under which the first and last exchanges of a 1D DFT disappear).
enum class Distribution { Block, Cyclic };
const std::string &distribution_name(Distribution d);  // "block", "cyclic"

struct RankStep {
  // An all-to-all: each rank sends block r (of local/p points) of its buffer to rank r and
  // receives rank r's block k into block r.
  bool exchange = false;
  RankGroup group;  // an exchange's ranks: all, or a row or column of a pencil grid
  // Not an exchange: a local x local Sigma-SPL, one Sum_par over the ranks whose iteration k
  // is rank k's work; its other loop variables and index functions are local.
  Sigma local;
  // > 1 (--overlap, docs/mpi.md "Overlap"): the step runs on each of `chunks` consecutive slices
  // of the rank's part (`local` is one slice's), an exchange slice by slice
  int chunks = 1;
  // > 0 (a chunked local step of a slab kernel's second half): chunk c reads columns of the
  // whole input, from point c * column_offset on, not a slice; it runs once all of the exchange
  // before it has arrived
  int64_t column_offset = 0;
  // true (a chunked step whose chunks differ, as the twiddles of a 1D kernel's chunks of
  // columns do): `local`'s Sum_par runs over ranks * chunks workers, chunk c of rank k being
  // worker k * chunks + c, so each chunk's index functions are those of its own worker
  bool chunk_workers = false;
};

// N points, N / ranks per rank (an uneven slab kernel: `local` its padded part, RankShape);
// x_packet (y_packet): the packet of x's (y's) cyclic distribution, 0 for blocks.
struct RankProgram : RankShape {
  std::vector<RankStep> steps;
  int exchanges() const;
};

// The steps; a FormulaError (one line) when the Sigma-SPL is not a product of Sum_par stages over
// `ranks` ranks whose gathers and scatters are blocks or packets, or when the cyclic distribution
// does not fit its first and last stages.
RankProgram distribute_ranks(const Sigma &sigma, int ranks, Distribution distribution);

// What every rank's steps do to x (the whole vector, in natural order): for checks and `verify`.
std::vector<cplx> simulate_ranks(const RankProgram &program, const std::vector<cplx> &x);

std::string print(const RankProgram &program);  // the --dump-after=merge text

}  // namespace splgen::lower
