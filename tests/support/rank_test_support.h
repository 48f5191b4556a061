// What the distributed-kernel unit tests share: random inputs and the largest difference.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "generator/ir/dense.h"

namespace splgen::driver::testing {

// n complex values uniform in [-1, 1]^2, the same for the same n and seed.
inline std::vector<cplx> random_vector(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(uint64_t(n) * seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cplx> x(static_cast<std::size_t>(n));
  for (cplx &v : x) v = cplx(u(rng), u(rng));
  return x;
}

inline double max_error(const std::vector<cplx> &a, const std::vector<cplx> &b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

}  // namespace splgen::driver::testing
