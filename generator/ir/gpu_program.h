// The GPU form of a loop program (docs/cuda.md): kernels launched one after another, each a grid
// of thread blocks. A block holds groups_per_block groups (the batch's transforms, or the
// iterations of a stage that needs no neighbour); a group runs its stages in order with a
// barrier (__syncthreads) between, its threads sharing out each stage's lanes. Temp buffers a
// kernel keeps in shared memory are one copy per group (the SPE local store of the Cell paper,
// sec. 3; a thread block's shared memory in the GPU paper); the others live in global memory,
// allocated per call. The meaning is the sequential loops': every group, then every stage, then
// every lane, in any order (interpret() can run them backwards to show that no order matters).
#pragma once
#include <string>
#include <vector>

#include "generator/ir/gpu_knobs.h"
#include "generator/ir/loops.h"

namespace splgen {

struct GpuStage {
  // The lanes: these loop variables' iterations, flattened (the last the fastest: consecutive
  // threads take consecutive values of it, the coalescing order). None: one lane.
  std::vector<LoopVar> lanes;
  // The block's groups and lanes together are shared out over all the block's threads (a
  // coalesced copy of a whole block's contiguous data, the GPU paper's first step).
  bool cooperative = false;
  // Cooperative: consecutive threads take consecutive groups (a column of groups side by side
  // in memory), else consecutive lanes.
  bool groups_fastest = false;
  Stmt body;
};

struct GpuKernel {
  // The groups: these loop variables' iterations flattened, the last the fastest.
  std::vector<LoopVar> groups;
  int groups_per_block = 1;   // blockDim.y
  int threads_per_group = 1;  // blockDim.x
  std::vector<GpuStage> stages;
  std::vector<int> shared;  // Temp buffers in shared memory, one copy per group
  int64_t group_count() const;
  // One stage of one lane per group and nothing shared: a grid-stride loop over the groups,
  // the block's threads along x (otherwise lanes are x and the block's groups y).
  bool grid_stride() const;
};

struct GpuProgram {
  // Name, shape, buffers (x, y, temps, tables) and scalars; its body is the sequential program.
  Function function;
  std::vector<GpuKernel> kernels;
  std::vector<int> scratch;  // Temp buffers in global memory (several kernels touch them)
  GpuKnobs knobs;            // what it was made with (the backend prints by them too)
};

// The iterations of these loop variables together (1 for none).
int64_t iterations(const std::vector<LoopVar> &vars);
int64_t lane_count(const GpuStage &s);
// Complex elements a group's copy of a shared buffer of `size` takes: with knobs.padding,
// rounded up to whole bank rows (8 double2 or 16 float2 span the 32 four-byte banks once) for
// the swizzle the backend applies, plus one, so that rows of consecutive groups start in
// different banks; without, `size`.
int64_t shared_row_elements(int64_t size, const GpuKnobs &knobs);
// The sequential loops a kernel's threads run together (its meaning), groups and lanes
// backwards when `reversed`.
Stmt sequential_body(const GpuKernel &k, bool reversed = false);
// The program's meaning on x; `reversed` runs every parallel dimension backwards.
std::vector<cplx> interpret(const GpuProgram &p, const std::vector<cplx> &x, bool reversed = false);
// Human-readable dump (--dump-after=loops for a GPU target).
std::string to_string(const GpuProgram &p);

}  // namespace splgen
