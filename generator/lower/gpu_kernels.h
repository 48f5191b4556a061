// Splitting a sequential loop program into GPU kernels (generator/ir/gpu_program.h,
// docs/cuda.md). Every top-level loop of a Sigma-SPL program is a sum whose iterations write
// disjoint outputs (Sum_par of the par rules), so its iterations are the threads' lanes; the
// statements between are the stages a barrier separates. A program whose one top-level loop
// holds several stages (a batch, I(b) (x) A) makes its iterations the groups.
//
// When a group's temporaries fit in shared memory, one kernel runs all the stages, a block
// holding one or more groups (the Cell paper's local store, the GPU paper's shared-memory
// staging). A global buffer a group reads or writes as a row or a column, uncoalesced (fewer
// lanes than a warp, no unit stride) or read back, goes through shared memory too, with a
// cooperative copy that makes the global accesses coalesced. Otherwise
// each stage is a kernel of its own over every group's lanes, the temporaries in global memory
// (one slice per group): the multi-kernel four-step of the memory-constrained paper.
#pragma once
#include <cstdint>

#include "generator/ir/gpu_knobs.h"
#include "generator/ir/gpu_program.h"

namespace splgen::lower {


// Throws FormulaError for what the GPU form does not take (vector or streamed loops, real or
// split data, in place).
GpuProgram lower_to_gpu(const Function &f, const GpuKnobs &knobs);

}  // namespace splgen::lower
