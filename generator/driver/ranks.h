// Distributed kernels (docs/mpi.md): `--ranks P` asks for par(P, 1) around the spec; a target
// that consumes the par tag (--target mpi) gets the steps of each rank (lower/distribute_ranks.h)
// lowered to loop programs, one per local step.
#pragma once
#include <string>
#include <vector>

#include "generator/ir/loop_program.h"
#include "generator/ir/spl.h"
#include "generator/lower/distribute_ranks.h"

namespace splgen::driver {

// par(ranks, 1)[spec], or the spec itself when ranks <= 1 or the spec is tagged already.
// mu = 1: any packet is an MPI message; the par rules still make packets as large as they can
// (n/p points, seed 004 sec. 3.1: "we choose to maximize DMA packet size").
Spl ranked_spec(const Spl &spec, int ranks);

// FormulaError (one line) unless the spec, inside its tags, is a complex DFT(n) or
// DFT(n1 x n2 ...): the only transforms the par rules distribute.
void check_distributable(const Spl &spec);

// p of the outermost par(p, mu) tag in f; 0 when there is none.
int par_ranks(const Spl &f);

// Each step's Sigma-SPL merged (lower/merge_loops.h), as the merge stage shows them.
lower::RankProgram merge_rank_steps(const lower::RankProgram &p);

// The loop programs of the steps, named NAME_step<i>; `lower` turns one step's Sigma-SPL into
// its function (the pipeline's sigma_to_loops, vectorize, schedule, prepare).
RankLoops rank_loops(const lower::RankProgram &p, const std::string &name,
                     const std::function<Function(const Sigma &, const std::string &)> &lower);

}  // namespace splgen::driver
