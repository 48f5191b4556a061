// The search space of a DFT (SPIRAL's breakdown choices): at each node, a codelet where the
// size allows one, or any breakdown rule (rules/dft.rules and --rules files: Cooley-Tukey DIT
// and DIF with every split, Good-Thomas, Rader ...) whose children are strictly smaller DFTs;
// and the target parameters: vector widths and, with threads, mu of the smp tag.
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

// mu of smp(threads, mu) worth trying: 0 (one cache line, the default), then two and four
// lines. Franchetti et al. (SC'06, sec. 3) need mu to be a multiple of the cache line (no false
// sharing); a larger mu gives each worker fewer, longer packets in the strided stages but
// leaves fewer splits that p * mu divides. {0} when the kernel runs on one thread anyway.
std::vector<int> packet_choices(int threads, int64_t points, Precision precision);

// The target parameters searched beside the ruletree; the first is the default.
struct TargetChoice {
  int vector_width = 0;  // Plan::vector_width
  int smp_packet = 0;    // Plan::smp_packet
  auto operator<=>(const TargetChoice &) const = default;
};
// Every width with every packet, defaults first.
std::vector<TargetChoice> target_choices(Isa isa, Precision precision, int threads, int64_t points);

}  // namespace splgen::search
