// Expansion: every DFT non-terminal of a formula is broken down by breakdown rules until
// only leaves remain. The terminal rules (codelets, direct loops) are C++
// (generator/expand/breakdown.h); the others are rule-file rules (rules/dft.rules and any
// --rules file) whose left side is a DFT and whose right side is SPL with smaller DFTs.
#pragma once
#include <vector>

#include "generator/expand/breakdown.h"
#include "generator/expand/ruletree.h"
#include "generator/rewrite/engine.h"

namespace splgen::expand {

struct Expansion {
  Spl formula;                      // fully expanded
  std::vector<RuletreePtr> trees;   // one per non-terminal expanded, in formula order
  std::vector<std::string> notes;   // choices a tag asked for that could not be made
};

// The breakdown rules among a library's rules, in order: left side DFT(...) and an SPL right side.
std::vector<const Rule *> breakdown_rules(const rewrite::RuleLibrary &library);
// The shipped rules (default_rules_dir()), loaded once.
const rewrite::RuleLibrary &shipped_rules();

// Tuning of the default choice (the search overrides choices one by one).
struct ExpandOptions {
  // Largest DFT emitted as one unrolled codelet; the spec itself is split above top_codelet_max
  // (vector targets need loops to vectorise: a lone codelet stays scalar code).
  int64_t codelet_max = ExpansionKnobs::kCodeletMax;
  int64_t top_codelet_max = ExpansionKnobs::kCodeletMax;
  // A spec that is a multiple of this (and larger) is split even when it could be a codelet;
  // 0: none.
  int64_t top_split_multiple = 0;
  // Splits for vector loops (expand.cpp, SplitKnobs): from 2048 to 32768 points the codelet
  // or radix stage goes where loops over adjacent columns vectorise best.
  bool vector_target = false;
  // Lanes of a vector of up to 256 bits (AVX2/AVX-512 double 4, float 8; 0 for scalar code):
  // the columns of DFT(m) (x) I(n) that run as whole vectors (expand.cpp, choice_cost).
  int64_t vector_lanes = 0;
  // Vector registers of the ISA (16 for SSE2/AVX2, 32 for AVX-512).
  int vector_registers = 16;
  // --prefer-rules: wherever one of these rules applies, its choices come before all others
  // (the ranking above decides among them); elsewhere the usual choice.
  std::vector<const Rule *> preferred;
  // --only-rules: the breakdown rules are a closed set; a DFT above the codelet size that none
  // of them splits is a FormulaError instead of an O(n^2) loop (DFT_Direct).
  bool closed = false;
};

Expansion expand(const Spl &formula, const ExpandOptions &options = {});  // with breakdown_rules(shipped_rules())
Expansion expand(const Spl &formula, const std::vector<const Rule *> &breakdown, const ExpandOptions &options = {});

}  // namespace splgen::expand
