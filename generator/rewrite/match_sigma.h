// Matching Sigma-SPL left sides against Sigma-SPL (docs/rule-language.md, "Sigma-SPL left
// sides"). Declared in engine.h: match(const Term &, const Sigma &), matches(rule, Sigma).
//  - Sum(j < n), Sum_par, Sum_stream match a sum of that mode; n is solved against its
//    extent and j is bound to its loop variable (Match::loops), which index functions below
//    it may name and the right side reuses (so what a formula variable captured keeps
//    referring to the right loop).
//  - G, S, G_dma, S_dma match gathers and scatters of that kind (DMA or not) with an index
//    function of the same form: h(b, s) and q(b, s, mu) solve s and mu against the
//    function's, and the base b, an expression in size variables and bound loop variables,
//    against its affine base (at the origin and one step along each loop the base names).
//    A base that depends on a loop the pattern does not name does not match.
//  - Diag(D o f) matches a diagonal: D (an SPL pattern, usually a formula variable) against
//    its diagonal, f against its index function.
//  - A composition pattern matches contiguous non-empty groups of a composition's factors
//    (a group of several is rebuilt as a composition), as in the SPL matcher.
//  - A formula variable matches any Sigma-SPL of its shape (Match::sigmas); met twice, equal
//    Sigma-SPL (printed the same).
//  - Another SPL pattern matches a kernel whose formula it matches.
// Domains and ranges are not part of a pattern: they follow from where a term stands, and
// the right side is instantiated at the matched term's shape.
#pragma once
#include "generator/rewrite/engine.h"
