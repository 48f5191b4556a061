// A model of a DFT's run time, in flop-equivalents, for the choice between algorithm families
// that the split heuristics of expand.cpp cannot make: Cooley-Tukey / Good-Thomas on the
// divisors of n against Rader (p - 1) and Bluestein (a smooth M >= 2n - 1) beyond them.
// It only has to order those families right; the splits within a family keep their measured
// knobs (SplitKnobs), and the search times what the model guesses.
#pragma once
#include <cstdint>
#include <vector>

namespace splgen::expand {

// The estimated cost of DFT(n) with the best family at every level.
double estimated_dft_cost(int64_t n);

// The estimated cost of one choice for DFT(n) whose right side holds DFTs of these sizes:
// a factorisation (their product is n: each child runs n / size times, one pass per stage)
// or not (each child runs once, with a pass over each child and over n for the permutations,
// diagonals and padding around them, as in Rader's and Bluestein's rules).
double estimated_choice_cost(int64_t n, const std::vector<int64_t> &children);

}  // namespace splgen::expand
