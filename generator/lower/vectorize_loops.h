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
// of narrower vectors or, below the narrowest width, as a scalar loop. Where the ISA masks
// lanes (AVX-512), a rest of two or more iterations that no width fits exactly runs instead
// as one group of masked_width lanes with the lanes past the extent masked off, as does a
// whole loop below masked_width that no width fits (DFT(60) = 15 x 4: 8 + masked 7 rather
// than 8 + 4 + 2 + 1 copies of the body).
#pragma once
#include <vector>

#include "generator/ir/loops.h"

namespace splgen::lower {

// widths: real lanes per vector, widest first (vector_widths(isa, precision)); empty keeps f.
// masked_width: masked_vector_width(isa, precision), 0 for none.
Function vectorize_loops(const Function &f, const std::vector<int> &widths, int masked_width = 0);

}  // namespace splgen::lower
