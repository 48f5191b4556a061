// The spec a GPU target expands (docs/cuda.md, "Large sizes"): a DFT too large for one thread
// block's shared memory becomes the four-step (Cooley-Tukey, rules/dft.rules dft_ct_dit)
//   DFT(mk) = (DFT(m) (x) I(k)) T(mk, k) (I(m) (x) DFT(k)) L(mk, m),
// k the largest divisor of n up to factor_max, DFT(m) split again while it is too large. Each
// stage is then a batch of transforms that fit in shared memory: one kernel each, reading and
// writing columns through the block's shared memory (the memory-constrained paper's four-step;
// the GPU paper's two-kernel large FFT).
#pragma once
#include <cstdint>

#include "generator/ir/spl.h"

namespace splgen::driver {

// The largest transform a GPU group holds (complex points): 1024, so that 2^20 is two passes
// and the input and output rows of 2 (double) or 4 (float) groups fit the backend's 96 KiB of
// shared memory (lower/gpu_kernels.h), 32 bytes of each column per block read at a time. Not
// yet timed against other choices (docs/cuda.md).
constexpr int64_t kGpuFactorMax = 1024;

// spec with each DFT(n), n > factor_max, alone or in a batch I(b) (x) DFT(n), so rewritten;
// a DFT(n) with no divisor in (1, factor_max] (a large prime) stays, for the expansion.
Spl gpu_spec(const Spl &spec, int64_t factor_max);

}  // namespace splgen::driver
