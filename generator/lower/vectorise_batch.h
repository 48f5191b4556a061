// A batch of small transforms vectorised across the batch (SPIRAL's vector rules: Franchetti &
// Pueschel, IPDPS 2002, the rule vec_i_tensor_a of rules/vector.rules; docs/transforms.md,
// "Batches vectorised across the batch"). With nu lanes,
//
//   I(b) (x) A  ->  (I(b/nu) (x) (L(n nu, nu) (A (x) I(nu)) L(n nu, n)))  (+)  (I(b mod nu) (x) A)
//
// so that lane l of every vector holds element j of transform (k nu + l): A (x) I(nu) is A on
// whole vectors (spl_to_sigma.cpp puts the loop over I(nu) innermost in every stage of A, and
// vectorize_loops runs it as one vector), and the two stride permutations are no passes:
// merge_loops folds them into the first stage's gathers and the last stage's scatters, where
// the vector backend reads and writes the lanes' elements (backends/simd). The rest of the
// batch, fewer than nu transforms, goes the same way at the next narrower width that fits it,
// and what no width fits stays I(r) (x) A (vectorised inside A, or scalar).
#pragma once
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::lower {

// `formula`: an expanded formula; where it is I(b) (x) A, the form above with the widest of
// `widths` (real lanes per vector, widest first) that b reaches; anything else unchanged.
Spl vectorise_batch(const Spl &formula, const std::vector<int> &widths);

}  // namespace splgen::lower
