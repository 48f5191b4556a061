// One rank's slice of its twiddle tables (docs/mpi.md): in a local step of a distributed kernel
// (one parallel loop, iteration k rank k's), a table computed from its recipe whose every load
// is C k + (an index in [0, C)) is cut to those C entries: the rank builds and keeps N/p of
// the twiddles, not all N (1 GiB of double for N = 2^26). The loads become the index in [0, C),
// the buffer's Recipe::worker_stride is C; tables with other loads are left whole.
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

// workers_per_rank > 1 (chunk workers, lower/distribute_ranks.h RankStep::chunk_workers): the
// parallel loop's workers k W .. k W + W - 1 are rank k's chunks, and the buffer's
// Recipe::workers_per_rank says so, so that the rank computes its W slices together, once.
Function slice_rank_tables(const Function &f, int workers_per_rank = 1);

}  // namespace splgen::lower
