// Vectorisation at loop level (SPIRAL's vec(nu) applied where the loop IR exposes it):
// an innermost loop whose iterations are independent runs its iterations in SIMD groups.
//
// A loop over A (x) I(n) (the twiddle stage of Cooley-Tukey) reads and writes consecutive
// complex elements in consecutive iterations: the groups load and store whole vectors.
// I(m) (x) A with a stride permutation reads consecutive elements and writes with a stride:
// the backend gathers/scatters whole complex elements per lane (the in-register
// transposes L(2nu, 2) / L(2nu, nu) of split complex format happen in its load/store helpers).
//
// The widest width that fits the extent is used; the rest of the iterations run as a loop
// of narrower vectors or, below the narrowest width, as a scalar loop.
#pragma once
#include <vector>

#include "generator/ir/loops.h"

namespace splgen::lower {

// widths: real lanes per vector, widest first (vector_widths(isa, precision)); empty keeps f.
Function vectorize_loops(const Function &f, const std::vector<int> &widths);

}  // namespace splgen::lower
