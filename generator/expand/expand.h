// Expansion: every DFT non-terminal of a formula is broken down by breakdown rules until
// only leaves remain. The terminal rules (codelets, direct loops) are C++
// (generator/expand/breakdown.h); the others are rule-file rules (rules/dft.rules and any
// --rules file) whose left side is a DFT and whose right side is SPL with smaller DFTs.
#pragma once
#include <vector>

#include "generator/expand/ruletree.h"
#include "generator/rewrite/engine.h"

namespace splgen {

struct Expansion {
  Spl formula;                      // fully expanded
  std::vector<RuletreePtr> trees;   // one per non-terminal expanded, in formula order
};

// The breakdown rules among a library's rules, in order: left side DFT(...) and an SPL right side.
std::vector<const rules::Rule *> breakdown_rules(const rules::RuleLibrary &library);
// The shipped rules (default_rules_dir()), loaded once.
const rules::RuleLibrary &shipped_rules();

Expansion expand(const Spl &formula);  // with breakdown_rules(shipped_rules())
Expansion expand(const Spl &formula, const std::vector<const rules::Rule *> &breakdown);

}  // namespace splgen
