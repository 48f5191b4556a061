// The block transfers of one G_dma or S_dma (Cell paper sec. 3.2, eqs. (9), (10)): the index
// function f of a chunk is cut into the longest runs of consecutive elements that every chunk
// shares ("maximise the packet size", eq. (10)): adjacent rows merge into one block wherever
// f allows. Equally spaced runs are one strided transfer (a DMA list); runs in groups that are
// each equally spaced, one list per group; otherwise one transfer per run, in a loop.
//
// Precondition: f uses no loop variable but `chunk` (a Sum_stream at the top of the nest).
#pragma once
#include "generator/ir/index_fn.h"
#include "generator/ir/loops.h"

namespace splgen::lower {

struct DmaRuns {
  int64_t block = 0;      // elements per run
  int64_t count = 0;      // runs per chunk
  int64_t stride = 0;     // between run starts, when `strided`
  bool strided = false;   // run r starts at f(0) + r * stride for every chunk
  // Not strided as a whole: `groups` > 1 groups of count / groups runs, each equally spaced by
  // `stride` (one DMA list per group: the tiles of the in-place transposes, k rows each).
  int64_t groups = 1;
};

// The runs of f (domain C) over every value of the chunk variable; enumerates C * extent points.
DmaRuns dma_runs(const IndexFn &f, const LoopVar &chunk);

// The statement(s) moving the chunk f of `external` to or from `local` at local_index, tagged
// `tag`; `row` is a fresh loop variable (extent ignored) for the per-run loop when not strided.
Stmt dma_transfer(bool get, int external, const IndexFn &f, const LoopVar &chunk, int local, const Idx &local_index,
                  const Idx &tag, int row_var_id);

}  // namespace splgen::lower
