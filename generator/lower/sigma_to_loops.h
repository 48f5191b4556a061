// Sigma-SPL -> loop IR. Gathers and scatters become the addressing of the innermost
// kernel loads and stores (index functions composed down the loop nest); Diag factors next
// to a kernel are multiplied into its loads or stores; compositions of stages write
// intermediates into the output when the later stages can run in place, else into local
// temporaries; small DFT kernels are unrolled codelets, large prime ones O(n^2) loops.
#pragma once
#include <string>

#include "generator/ir/loops.h"
#include "generator/ir/sigma.h"

namespace splgen::lower {

Function sigma_to_loops(const Sigma &s, const std::string &name);

}  // namespace splgen::lower
