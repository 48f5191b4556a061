#include "generator/lower/dma_transfers.h"

#include <numeric>

namespace splgen::lower {

DmaRuns dma_runs(const IndexFn &f, const LoopVar &chunk) {
  const int64_t C = f->domain;
  int64_t block = C;  // gcd of every break between consecutive elements, and C
  std::vector<std::vector<int64_t>> starts;
  Env env;
  for (int64_t k = 0; k < chunk.extent; ++k) {
    env[chunk.id] = k;
    int64_t previous = eval(f, 0, env);
    for (int64_t i = 1; i < C && block > 1; ++i) {
      int64_t v = eval(f, i, env);
      if (v != previous + 1) block = std::gcd(block, i);
      previous = v;
    }
  }
  DmaRuns runs{block, C / block, 0, true};
  for (int64_t k = 0; k < chunk.extent && runs.strided; ++k) {
    env[chunk.id] = k;
    int64_t first = eval(f, 0, env);
    if (runs.count > 1 && k == 0) runs.stride = eval(f, block, env) - first;
    for (int64_t r = 1; r < runs.count && runs.strided; ++r)
      runs.strided = eval(f, r * block, env) == first + r * runs.stride;
  }
  if (runs.count > 1 && runs.stride < block) runs.strided = false;  // overlapping or backwards
  return runs;
}

Stmt dma_transfer(bool get, int external, const IndexFn &f, const LoopVar &chunk, int local, const Idx &local_index,
                  const Idx &tag, int row_var_id) {
  DmaRuns runs = dma_runs(f, chunk);
  DmaTransfer t;
  t.get = get, t.local = local, t.tag = tag, t.block = runs.block;
  if (runs.strided) {
    t.local_index = local_index, t.count = runs.count, t.stride = runs.stride;
    return make_dma(external, apply_index(f, idx_const(0)), t);
  }
  LoopVar row{row_var_id, runs.count};
  Idx first = idx_affine(Affine::var(row, runs.block));
  t.local_index = idx_add(local_index, first), t.count = 1;
  return make_for(row, make_dma(external, apply_index(f, first), t));
}

}  // namespace splgen::lower
