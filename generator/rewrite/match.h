// Matching rule left sides against SPL formulas (docs/rule-language.md, "Matching").
// Declared in engine.h: match(), conditions_hold(), matches(). The semantics:
//  - Sizes are solved (size_expr.h): DFT(m*n) against DFT(12) gives every factorisation.
//    Root exponents compare modulo the size: the pattern DFT(n, k) binds k to the formula's
//    normalised exponent in [0, n); DFT(n) (no k) matches only k == 1 (mod n); DFT(n, -1)
//    matches the inverse. T(N, n[, k]) and DFT(n1 x ... [, k]) likewise modulo N.
//  - A formula variable matches any formula; A[m] only m x m ones, A[r, c] only r x c ones.
//    A variable met twice must meet equal formulas.
//  - A chain pattern (x), *, |, (+) of k operands matches the whole node by partitioning its
//    children into k contiguous non-empty groups; a group of several children is rebuilt
//    with with_children (so `A * B` against X*Y*Z gives A = X, B = Y*Z and A = X*Y, B = Z).
//    A formula that is not such a chain counts as a chain of one child.
//  - Tensor chains also split identities: adjacent pattern operands I(e1) (x) I(e2) act as
//    one I(e1*e2); a pattern identity I(e) takes any divisor d of an identity child I(N)
//    of the formula (d = 1 included), the rest I(N/d) staying for the next operands; a
//    group of another operand may begin with such a rest and may end with a leading part
//    I(d) of an identity child. `I(m) (x) A` against `I(6) (x) DFT(2)` gives m = 6, 3, 2, 1
//    with A = DFT(2), I(2) (x) DFT(2), I(3) (x) DFT(2), I(6) (x) DFT(2) (in that order:
//    whole children first); `A (x) I(n)` against `DFT(2) (x) I(6)` gives n = 6, 3, 2.
//  - P' matches f when P matches the transpose of f.
//  - A tag in a pattern matches only that tag with equal parameters (solved like sizes).
//    A Tagged formula is transparent to a pattern node that is neither a tag nor a formula
//    variable: the pattern is matched against the tagged child.
//  - @name(args) in a pattern matches the formula the function returns for its (bound) args.
//  - Sums, gathers, scatters and diagonals never match SPL (Sigma-SPL patterns are matched
//    against Sigma-SPL: match_sigma.h).
#pragma once
#include <cstdint>

#include "generator/rewrite/engine.h"

namespace splgen::rewrite {

// True when the rule's left side is a chain pattern of the kind of f's node (Compose for
// `*`, Fence for `|`, Tensor for `(x)`, DirectSum for `(+)`), so that contiguous sub-chains
// of f's children are candidates for it (rewrite strategies).
bool chain_pattern_for(const Term &pattern, const Spl &f);

// Whether an operand of a chain pattern of kind `chain` can only match one child of the
// formula's chain, never a group of several (a group is a node of the chain's kind, which
// only a formula variable, a transpose, a call or a chain of that kind can match).
bool matches_one_child(const Term &operand, SplKind chain);

// How many children of a chain a chain pattern (*, |, (+); its operands flattened) can
// match: at least `min`, at most `max` (SIZE_MAX when an operand may take a group). Tensor
// patterns split identities, so any length: {1, SIZE_MAX}. The strategies try only
// sub-chains of these lengths (a chain of k children has O(k^2) sub-chains).
struct ChainLengths {
  std::size_t min = 1, max = SIZE_MAX;
};
ChainLengths chain_pattern_lengths(const Term &pattern);

// Two matches with the same bindings.
bool same_match(const Match &x, const Match &y);

}  // namespace splgen::rewrite
