// The search space of a DFT (SPIRAL's breakdown choices): at each node, a codelet where the
// size allows one, or any breakdown rule (rules/dft.rules and --rules files: Cooley-Tukey DIT
// and DIF with every split, Good-Thomas, Rader ...) whose children are strictly smaller DFTs;
// and the vector widths of the target.
#pragma once
#include <string>
#include <vector>

#include "generator/ir/spl.h"
#include "generator/rewrite/engine.h"
#include "generator/target/target.h"

namespace splgen::search {

// One way to break a DFT down: the rule's right side, with its DFT non-terminals in formula order.
struct Split {
  std::string rule;             // "dft_ct_dit"
  std::string label;            // "dit(4,8)": rule short name and child sizes
  Spl rhs;                      // the right side, children not yet expanded
  std::vector<Spl> children;    // its DFT non-terminals, in order (pre-order, left to right)
};

// Whether the node may be a leaf codelet (a DFT up to ExpansionKnobs::kCodeletMax).
bool codelet_allowed(const Spl &dft);

// Every split of the node by the breakdown rules, in rule order then match order.
std::vector<Split> splits(const Spl &dft, const std::vector<const Rule *> &breakdown);

// The rule's right side with its DFT non-terminals replaced, in order, by `children`.
Spl substitute(const Spl &rhs, const std::vector<Spl> &children);

// "dit", "dif", "gt", "rader" ...: the short name of a rule for plan descriptions.
std::string short_rule_name(const std::string &rule);

// The vector widths worth trying for a target: 0 (the widest) and each narrower one; {0} for scalar.
std::vector<int> width_choices(Isa isa, Precision precision);

}  // namespace splgen::search
