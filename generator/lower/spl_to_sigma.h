// SPL -> Sigma-SPL with the tensor identities of DESIGN.md:
//   I(n) (x) A_m = Sum(j<n) S(h(j*m, 1)) A_m G(h(j*m, 1))
//   A_m (x) I(n) = Sum(j<n) S(h(j, n))   A_m G(h(j, n))
//   A (x) B      = (A (x) I) (I (x) B)
//   A (+) B      = S(h(0,1)) A G(h(0,1)) + S(h(m,1)) B G(h(m,1))
// permutations become gathers, diagonals Diag nodes, DFT leaves kernels. Tags are passed
// through (their rewriting belongs to the tag rules).
#pragma once
#include <functional>
#include <optional>

#include "generator/ir/sigma.h"

namespace splgen {

// Consulted at every node before the identities: the node's Sigma-SPL, or nothing to lower
// it by the identities (lower_with_rules passes the rules with Sigma-SPL right sides).
using LoweringHook = std::function<std::optional<Sigma>(const Spl &)>;

// Loop variables are numbered from first_var.
Sigma lower_to_sigma(const Spl &formula, const LoweringHook &hook = {}, int first_var = 0);

}  // namespace splgen
