// Lowering with rules: SPL -> Sigma-SPL where rules (rules/*.rules with Sigma-SPL right
// sides, e.g. the par/stream/smp tag rules) say how, lower_to_sigma's identities elsewhere.
//
// lower_with_rules: at each node (outermost first) the first rule with a Sigma-SPL right
// side that matches lowers it, its formula variables and SPL parts lowered the same way;
// failing that, the first contiguous sub-chain of a composition (longest first, left to
// right; under a tag, of the tagged composition, with the rules for that tag) that a chain
// rule matches is lowered by it, the factors before and after (tagged again) on their own;
// a subtree no rule matches anywhere goes to lower_to_sigma as a whole; otherwise tags are
// passed through and *, (x), (+) lowered with lower_to_sigma's identities around the
// children. The loop variables of the result are numbered 0, 1, ... (renumber_loops).
// Then the rules with Sigma-SPL left sides rewrite the result (rewrite_sigma_to_fixpoint,
// generator/rewrite/strategy.h).
#pragma once
#include <vector>

#include "generator/ir/rule.h"
#include "generator/ir/sigma.h"
#include "generator/lower/spl_to_sigma.h"

namespace splgen::lower {

// Lowers f to Sigma-SPL; a tagged subformula (or any subformula) matched by a rule with a
// Sigma-SPL right side is lowered by that rule, the rest by lower_to_sigma's identities.
// Then the rules with Sigma-SPL left sides are applied to the result until none applies.
// blocking: lower_to_sigma's (a GPU target passes kNoBlocking points, or, with
// GpuKnobs::columns, blocks of that many columns that become thread-block groups:
// lower/gpu_kernels.h).
Sigma lower_with_rules(const Spl &f, const std::vector<const Rule *> &rules, const Blocking &blocking = {});
constexpr int64_t kNoBlocking = int64_t(1) << 60;

// How the SPL parts of a Sigma-SPL rule's right side are lowered when the rule rewrites
// Sigma-SPL (the SplToSigma that rewrite_sigma_to_fixpoint takes): loops numbered above the
// rule's own (kRuleLoopVarBase).
Sigma lower_rule_part(const Spl &part);

}  // namespace splgen::lower
