#include "generator/prove/size_tuples.h"

namespace splgen::prove {

namespace {

struct Walk {
  int64_t max_tuples;
  const std::function<bool(const std::vector<int64_t> &)> &visit;
  std::vector<int64_t> cur;
  int64_t visited = 0;
  bool stopped = false;

  // The remaining `parts` entries sum to `sum`, their product is at most `bound`. Every branch
  // taken has a completion: parts entries with sum s have product at least s - parts + 1
  // (one large entry, the others 1), so the walk costs O(length) per tuple.
  void go(std::size_t parts, int64_t sum, int64_t bound) {
    if (stopped) return;
    if (parts == 1) {
      cur.push_back(sum);
      ++visited;
      if (!visit(cur) || visited >= max_tuples) stopped = true;
      cur.pop_back();
      return;
    }
    const int64_t rest_parts = int64_t(parts) - 1;
    for (int64_t v = 1; v <= sum - rest_parts && v <= bound && !stopped; ++v) {
      const int64_t rest_sum = sum - v, rest_bound = bound / v;
      if (rest_sum - rest_parts + 1 > rest_bound) continue;
      cur.push_back(v);
      go(parts - 1, rest_sum, rest_bound);
      cur.pop_back();
    }
  }
};

}  // namespace

int64_t for_each_size_tuple(std::size_t length, int64_t bound, int64_t max_tuples,
                            const std::function<bool(const std::vector<int64_t> &)> &visit) {
  if (max_tuples <= 0) return 0;
  if (length == 0) {
    visit({});
    return 1;
  }
  if (bound < 1) return 0;
  Walk walk{max_tuples, visit, {}, 0, false};
  // The largest sum: one entry `bound`, the others 1.
  const int64_t n = int64_t(length);
  for (int64_t sum = n; sum <= bound + n - 1 && !walk.stopped; ++sum) walk.go(length, sum, bound);
  return walk.visited;
}

}  // namespace splgen::prove
