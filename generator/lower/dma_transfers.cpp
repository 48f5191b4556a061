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
  if (!runs.strided) runs.groups = 1, runs.stride = 0;
  for (int64_t g = runs.count / 2; !runs.strided && g >= 2; --g) {  // the fewest groups of equally spaced runs
    if (runs.count % g) continue;
    env[chunk.id] = 0;
    const int64_t stride = eval(f, block, env) - eval(f, 0, env);
    bool ok = stride >= block;
    for (int64_t k = 0; k < chunk.extent && ok; ++k) {
      env[chunk.id] = k;
      for (int64_t j = 0; j < runs.count / g && ok; ++j) {
        const int64_t first = eval(f, j * g * block, env);
        for (int64_t r = 1; r < g && ok; ++r) ok = eval(f, (j * g + r) * block, env) == first + r * stride;
      }
    }
    if (ok) runs.groups = runs.count / g, runs.stride = stride;
    if (ok) break;
  }
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
  if (runs.groups > 1) {  // a loop over the groups, one list each
    const int64_t per = runs.count / runs.groups;
    LoopVar group{row_var_id, runs.groups};
    Idx first = idx_affine(Affine::var(group, per * runs.block));
    t.local_index = idx_add(local_index, first), t.count = per, t.stride = runs.stride;
    return make_for(group, make_dma(external, apply_index(f, first), t));
  }
  LoopVar row{row_var_id, runs.count};
  Idx first = idx_affine(Affine::var(row, runs.block));
  t.local_index = idx_add(local_index, first), t.count = 1;
  return make_for(row, make_dma(external, apply_index(f, first), t));
}

}  // namespace splgen::lower
