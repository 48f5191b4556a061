// The values of Rader's and Bluestein's Diags (generator/ir/diag_recipe.h), computed in long
// double and rounded to double once: the literals the C++ backend prints for small tables and
// what backends/cpp/computed_diag.cpp computes, operation for operation, in the kernel for
// large ones.
#pragma once
#include <vector>

#include "generator/ir/spl.h"
#include "generator/rewrite/long_dft.h"

namespace splgen::rewrite {

// Rounds to double; a part below the long double rounding noise of |v| (far below double
// precision) is an exact zero (real or imaginary entries print as such).
cplx to_double(lcplx v);

// Every entry of the Diag the recipe describes, in O(n log n).
std::vector<cplx> recipe_values(const DiagRecipe &r);

// The Diag: its values now up to kMaxPrintedDiag entries, else a lazy Diag whose values are
// computed only if asked for (the kernel computes its own).
Spl recipe_diag(const DiagRecipe &r);

}  // namespace splgen::rewrite
