// Loop merging (Franchetti, Voronenko, Pueschel, "Formal loop merging for signal
// transforms", PLDI 2005): permutations and diagonals next to a sum move into the sum's
// gathers and scatters, so no kernel copies data just to permute it.
//   Sum(S(g) A G(h)) * G(f)  = Sum(S(g) A G(f o h))
//   G(p) * Sum(S(g) A G(h))  = Sum(S(p^-1 o g) A G(h))        (p a permutation)
//   Sum(S(g) A G(h)) * Diag(d) = Sum(S(g) A Diag(d o h) G(h))
//   Diag(d) * Sum(S(g) A G(h)) = Sum(S(g) Diag(d o g) A G(h))
//   G(f) * G(g) = G(g o f),  S(f) * S(g) = S(f o g)
#pragma once
#include "generator/ir/sigma.h"

namespace splgen::lower {

Sigma merge_loops(const Sigma &s);

}  // namespace splgen::lower
