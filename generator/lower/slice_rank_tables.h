// One rank's slice of its twiddle tables (docs/mpi.md): in a local step of a distributed kernel
// (one parallel loop, iteration k rank k's), a table computed from its recipe whose every load
// is C k + (an index in [0, C)) is cut to those C entries: the rank builds and keeps N/p of
// the twiddles, not all N (1 GiB of double for N = 2^26). The loads become the index in [0, C),
// the buffer's Recipe::worker_stride is C; tables with other loads are left whole.
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

Function slice_rank_tables(const Function &f);

}  // namespace splgen::lower
