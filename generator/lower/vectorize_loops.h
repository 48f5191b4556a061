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
//
// Without masked remainders, the groups are the cheapest split of the extent by a cost per
// group (VectorGroupCosts, generator/target/target.h): full groups of the widths, widest first,
// then a scalar tail or, where the body reads no buffer it writes, one last group that ends at
// the extent and recomputes a few iterations before it (float DFT(60) = 15 x 4: 8 + 8 over
// iterations 7..14 rather than 8 + 4 + 3 scalar). Equal costs give the greedy split: the
// widest width that fits, the rest likewise.
#pragma once
#include <vector>

#include "generator/ir/loops.h"
#include "generator/target/target.h"

namespace splgen::lower {

// widths: real lanes per vector, widest first (vector_widths(isa, precision)); empty keeps f.
// masked_width: masked_vector_width(isa, precision), 0 for none.
// costs: the group costs that pick the split of each loop (vector_group_costs(isa)).
Function vectorize_loops(const Function &f, const std::vector<int> &widths, int masked_width = 0,
                         const VectorGroupCosts &costs = {});

}  // namespace splgen::lower
