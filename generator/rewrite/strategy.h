// Strategies (declared in engine.h: rewrite_to_fixpoint, rewrite_sigma_to_fixpoint).
//
// rewrite_to_fixpoint: one step looks at the subformulas in pre-order (outermost first);
// at each it tries the whole node, then every contiguous sub-chain of a chain node
// (*, |, (x), (+); longest first, left to right) against chain patterns of that kind, and
// at each of these the rules in order; the first match whose instantiation differs from
// what it matched is applied. A tagged node is not rewritten as a whole by a rule whose
// left side is neither a tag nor a formula variable (tags are transparent to such
// patterns; the rule applies to the tagged child instead, keeping the tag). Steps repeat
// until none applies; more than max_steps rewrites, or a formula grown beyond the bound
// below, is a FormulaError naming the rules that keep applying.
//
// rewrite_sigma_to_fixpoint (used by lower_with_rules, generator/lower/lower_with_rules.h):
// the same order as rewrite_to_fixpoint, over Sigma-SPL compositions and sums; a rule's
// result is instantiated at the shape of what it matched, in place, and the whole is
// renumbered after each step.
#pragma once
#include <optional>

#include "generator/rewrite/engine.h"
#include "generator/rewrite/match.h"

namespace splgen::rewrite {

// rewrite_to_fixpoint's progress bound: the formula may grow to kMaxRewriteGrowth times its
// size, or to kMaxRewriteNodes nodes if that is more; beyond it rewriting is refused with
// the rules that were applied last (a rule set that keeps growing the formula).
inline constexpr int64_t kMaxRewriteGrowth = 16;
inline constexpr int64_t kMaxRewriteNodes = 8192;
// ... and the sum of the formula's sizes over all steps is bounded by this (each step costs
// time in the size of the formula). A formula that comes back is refused at once (a cycle).
inline constexpr int64_t kMaxRewriteWork = int64_t(1) << 24;

// One rewrite step of rewrite_to_fixpoint, or nothing when no rule applies. `applied`, if
// given, receives the rule that was applied.
std::optional<Spl> rewrite_once(const Spl &f, const std::vector<const Rule *> &rules,
                                const Rule **applied = nullptr);

// The sub-chain lengths worth trying for the rules whose pattern_of() is not null (the
// union of their chain_pattern_lengths; min > max when there is none).
ChainLengths sub_chain_lengths(const std::vector<const Rule *> &rules,
                               const std::function<const Term *(const Rule &)> &pattern_of);

// Tags are transparent to untagged patterns: such a rule applies below the tag instead.
bool skip_at_tag(const Rule &rule, const Spl &f);

}  // namespace splgen::rewrite
