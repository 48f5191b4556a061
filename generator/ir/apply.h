// Applying an SPL formula to a vector without building its dense matrix: the meaning of
// to_dense(f) * x, in O(n log n) for DFTs (radix-2, and Bluestein for other sizes) and in
// the size of the data for permutations, diagonals and the operators. The rule checker
// uses it to compare both sides of a rule at sizes far beyond dense matrices
// (generator/prove/checker.h).
#pragma once
#include <vector>

#include "generator/ir/dense.h"
#include "generator/ir/spl.h"

namespace splgen {

// to_dense(f) * x (widely linear: the real transforms through a DFT, docs/transforms.md),
// computed in double; FormulaError when x.size() != f->cols.
std::vector<cplx> apply_spl(const Spl &f, const std::vector<cplx> &x);

// The widely linear matrix of f computed by apply_spl on unit vectors (probe_matrix): its
// meaning a second way, independent of to_dense (splgen verify, the real transforms' tests).
Matrix apply_dense(const Spl &f);

}  // namespace splgen
