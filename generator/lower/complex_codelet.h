// DFT(n, k) as one straight-line program over complex values (generator/ir/complex_codelet.h):
// the codelet algorithms of dft_algorithms.h run on a DAG whose structurally equal nodes are
// shared; +-i and negations are kept as their own operations (a swap and a sign flip in SIMD),
// constants positive. Only the values the outputs use are kept, in dependency order.
#pragma once
#include <cstdint>

#include "generator/ir/complex_codelet.h"

namespace splgen::lower {

ComplexCodelet lower_complex_codelet(int64_t n, int64_t k);

}  // namespace splgen::lower
