// SPL -> Sigma-SPL with the tensor identities of DESIGN.md:
//   I(n) (x) A_m = Sum(j<n) S(h(j*m, 1)) A_m G(h(j*m, 1))
//   A_m (x) I(n) = Sum(j<n) S(h(j, n))   A_m G(h(j, n))
//   A (x) B      = (A (x) I) (I (x) B)
//   A (+) B      = S(h(0,1)) A G(h(0,1)) + S(h(m,1)) B G(h(m,1))
// permutations become gathers, diagonals Diag nodes, DFT leaves kernels. Tags are passed
// through (their rewriting belongs to the tag rules).
#pragma once
#include "generator/ir/sigma.h"

namespace splgen {

Sigma lower_to_sigma(const Spl &formula);

}  // namespace splgen
