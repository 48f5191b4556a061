// The local computes of a sequence of streamed passes (layout_passes, inplace_passes), each
// lowered with loop variables numbered after the previous one's, so the passes' own chunk
// loops can take the ids from `next` on.
#pragma once
#include <algorithm>
#include <functional>
#include <vector>

#include "generator/ir/sigma.h"

namespace splgen::lower {

template <class Pass>
std::vector<Sigma> lower_pass_computes(const std::vector<Pass> &passes,
                                       const std::function<Sigma(const Spl &, int)> &lower_compute, int &next) {
  std::vector<Sigma> computes;
  for (const Pass &p : passes) {
    computes.push_back(lower_compute(p.compute, next));
    next = std::max(next, max_sum_var(computes.back()) + 1);
  }
  return computes;
}

}  // namespace splgen::lower
