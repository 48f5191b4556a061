// The spec a GPU target expands (docs/cuda.md, "Large sizes"): a DFT too large for one thread
// block's shared memory becomes the four-step (Cooley-Tukey, rules/dft.rules dft_ct_dit)
//   DFT(mk) = (DFT(m) (x) I(k)) T(mk, k) (I(m) (x) DFT(k)) L(mk, m),
// k the largest divisor of n up to factor_max (GpuKnobs::factor_max, 1024 by default), DFT(m) split again while it is too large. Each
// stage is then a batch of transforms that fit in shared memory: one kernel each, reading and
// writing columns through the block's shared memory (the memory-constrained paper's four-step;
// the GPU paper's two-kernel large FFT).
#pragma once
#include <cstdint>

#include "generator/ir/spl.h"

namespace splgen::driver {

// spec with each DFT(n), n > factor_max, alone or in a batch I(b) (x) DFT(n), so rewritten;
// a DFT(n) with no divisor in (1, factor_max] (a large prime) stays, for the expansion.
Spl gpu_spec(const Spl &spec, int64_t factor_max);

}  // namespace splgen::driver
