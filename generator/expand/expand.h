// Expansion: every DFT non-terminal of a formula is broken down by the breakdown rules
// (generator/expand/breakdown.h) with the default choice, until only codelet leaves remain.
#pragma once
#include <vector>

#include "generator/expand/ruletree.h"

namespace splgen {

struct Expansion {
  Spl formula;                      // fully expanded
  std::vector<RuletreePtr> trees;   // one per non-terminal expanded, in formula order
};

Expansion expand(const Spl &formula);

}  // namespace splgen
