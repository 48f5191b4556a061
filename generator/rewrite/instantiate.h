// Instantiating rule right sides (declared in engine.h: instantiate_spl, instantiate_sigma,
// is_sigma_term).
//
// instantiate_sigma infers the shapes of gathers and scatters from where they stand: in a
// composition F1 * ... * Fk of shape R x C, rows(F1) = R, cols(Fk) = C and cols(Fi) =
// rows(Fi+1); SPL factors and nested sums/compositions fix what they can; a gather's domain
// is its rows and its range its columns (a scatter the other way round). A range that
// nothing fixes is the tightest one: one past the largest index the function reaches over
// all loop values (Sum(j<mu) S(h(j*m, 1)) A_m G(h(j*m, 1)) is m*mu x m*mu).
//
// Sum(j < n) binds j as a loop variable (extent n); size expressions that mention loop
// variables must be affine in them once the other variables are evaluated (k*n*m/p with k
// a loop variable is fine); they become the Affine bases of h and q. Loop variables are
// created with ids from kRuleLoopVarBase, above those of lower_to_sigma (numbered from 0
// per call), and the result is renumbered 0, 1, ... in pre-order (renumber_loops), so it
// composes with lower_to_sigma, merge_loops and sigma_to_loops.
#pragma once
#include "generator/rewrite/engine.h"

namespace splgen::rewrite {

constexpr int kRuleLoopVarBase = 1000000;

// instantiate_sigma without the final renumbering: loops the left side bound keep their ids
// (the Sigma-SPL rewrite splices the result into the formula it matched in, then renumbers
// the whole).
Sigma instantiate_sigma_in_place(const Term &t, const Match &m, int64_t rows, int64_t cols,
                                 const std::function<Sigma(const Spl &)> &lower);

// The same Sigma-SPL with its Sum variables renamed 0, 1, 2 ... in pre-order (references
// resolved to the innermost enclosing Sum of that id, so nested parts built independently
// may reuse ids as long as no id is reused along one nesting path).
Sigma renumber_loops(const Sigma &s);

}  // namespace splgen::rewrite
