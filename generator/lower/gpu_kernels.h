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

#include "generator/ir/gpu_program.h"

namespace splgen::lower {

struct GpuKnobs {
  // Shared memory a block may use: 96 KiB, what every GPU from Volta (sm_70) on grants a block
  // that asks (Volta 96, Ampere sm_86/89 99, A100 163, H100/H200 227 KiB; CUDA programming
  // guide, "Compute capabilities"); beyond 48 KiB the kernel asks with cudaFuncSetAttribute.
  int64_t shared_bytes = 96 * 1024;
  // Threads a block aims at when groups are small: 4 warps, the smallest block that keeps an
  // SM's schedulers busy with several blocks resident (CUDA best-practices guide, occupancy).
  int block_threads = 128;
  // Threads per block of a kernel whose groups are single lanes.
  int grid_block_threads = 256;
  int real_bytes = 8;  // 4 for float
};

// Throws FormulaError for what the GPU form does not take (vector or streamed loops, real or
// split data, in place).
GpuProgram lower_to_gpu(const Function &f, const GpuKnobs &knobs);

}  // namespace splgen::lower
