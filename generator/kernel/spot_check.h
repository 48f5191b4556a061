// A check of a transform's output that never holds the data in memory: y at a few bins
// against O(N) sums over x in long double, both read from external stores (files) in blocks.
// For `run-file` (out of core: no reference FFT fits), as FFTW's bench checks single outputs.
#pragma once
#include <cstdint>
#include <vector>

#include "generator/target/target.h"
#include "runtime/dma.h"

namespace splgen::kernel {

struct SpotCheck {
  std::vector<int64_t> bins;   // row-major positions of y checked
  double max_error = 0;        // max over the bins of |y[b] - sum| / ||x||_2
  double tolerance = 0;        // default_tolerance (selftest.h) of N and the precision
  bool ok = false;
};

// y = DFT(dims, sign) x (row-major, interleaved complex of `precision`, unnormalised; sign -1
// forward) at `count` bins: 0, N-1, and bins spread by a fixed hash (the same every run).
SpotCheck spot_check(runtime::external_store &x, runtime::external_store &y, const std::vector<int64_t> &dims,
                     int sign, Precision precision, int count = 4);

}  // namespace splgen::kernel
