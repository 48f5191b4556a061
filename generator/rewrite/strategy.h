// Strategies (declared in engine.h: rewrite_to_fixpoint, lower_with_rules).
//
// rewrite_to_fixpoint: one step looks at the subformulas in pre-order (outermost first);
// at each it tries the whole node, then every contiguous sub-chain of a chain node
// (*, |, (x), (+); longest first, left to right) against chain patterns of that kind, and
// at each of these the rules in order; the first match whose instantiation differs from
// what it matched is applied. A tagged node is not rewritten as a whole by a rule whose
// left side is neither a tag nor a formula variable (tags are transparent to such
// patterns; the rule applies to the tagged child instead, keeping the tag). Steps repeat
// until none applies; more than max_steps rewrites is a FormulaError naming the rule that
// keeps applying.
//
// lower_with_rules: at each node (outermost first) the first rule with a Sigma-SPL right
// side that matches lowers it, its formula variables and SPL parts lowered the same way;
// failing that, the first contiguous sub-chain of a composition (longest first, left to
// right; under a tag, of the tagged composition, with the rules for that tag) that a chain
// rule matches is lowered by it, the factors before and after (tagged again) on their own;
// a subtree no rule matches anywhere goes to lower_to_sigma as a whole; otherwise tags are
// passed through and *, (x), (+) lowered with lower_to_sigma's identities around the
// children. The loop variables of the result are numbered 0, 1, ... (renumber_loops).
// Then the rules with Sigma-SPL left sides rewrite the result (rewrite_sigma_to_fixpoint:
// the same order as rewrite_to_fixpoint, over Sigma-SPL compositions and sums; a rule's
// result is instantiated at the shape of what it matched, in place, and the whole is
// renumbered after each step).
#pragma once
#include <optional>

#include "generator/rewrite/engine.h"

namespace splgen::rules {

// One rewrite step of rewrite_to_fixpoint, or nothing when no rule applies. `applied`, if
// given, receives the rule that was applied.
std::optional<Spl> rewrite_once(const Spl &f, const std::vector<const Rule *> &rules,
                                const Rule **applied = nullptr);

}  // namespace splgen::rules
