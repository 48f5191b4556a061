#include "generator/lower/lower_with_rules.h"

#include <fmt/format.h>

#include "generator/lower/spl_to_sigma.h"
#include "generator/rewrite/instantiate.h"
#include "generator/rewrite/match.h"
#include "generator/rewrite/strategy.h"

namespace splgen::lower {

using rewrite::Match;
using rewrite::renumber_loops;

Sigma lower_rule_part(const Spl &part) { return lower_to_sigma(part, LoweringHook{}, 2 * rewrite::kRuleLoopVarBase); }

Sigma lower_with_rules(const Spl &f, const std::vector<const Rule *> &rules, const Blocking &blocking) {
  std::vector<const Rule *> sigma_rules;
  for (const Rule *r : rules)
    if (rewrite::is_sigma_term(r->rhs) && !rewrite::is_sigma_rule(*r)) sigma_rules.push_back(r);
  // Rule sums are numbered from rewrite::kRuleLoopVarBase and the parts they contain are renumbered
  // from 0, so the identities' own loops start above both: ids never clash along a nest.
  constexpr int kIdentityLoopVarBase = 2 * rewrite::kRuleLoopVarBase;
  int depth = 0;
  LoweringHook hook;
  auto lower_part = [&](const Spl &part) { return renumber_loops(lower_to_sigma(part, hook, kIdentityLoopVarBase, blocking)); };
  // The first rule that lowers g as a whole; for a sub-chain only rules whose left side is
  // a chain of the kind of `chain` (under the tag of g, if g is tagged).
  auto lower_by_rule = [&](const Spl &g, const Spl *chain) -> std::optional<Sigma> {
    for (const Rule *rule : sigma_rules) {
      if (chain) {
        const bool tagged = g->kind == SplKind::Tagged;
        const Term &pattern = tagged ? rule->lhs.children.front() : rule->lhs;
        if (tagged && (rule->lhs.kind != SplKind::Tagged || rule->lhs.tag != g->tag.kind)) continue;
        if (!rewrite::chain_pattern_for(pattern, *chain)) continue;
      } else if (rewrite::skip_at_tag(*rule, g)) {
        continue;
      }
      std::vector<Match> ms = rewrite::matches(*rule, g);
      if (ms.empty()) continue;
      if (++depth > 10000) throw FormulaError("lower_with_rules: the rules recurse without end");
      struct Leave {
        int &d;
        ~Leave() { --d; }
      } leave{depth};
      try {
        return rewrite::instantiate_sigma(rule->rhs, ms.front(), g->rows, g->cols, lower_part);
      } catch (const FormulaError &e) {
        throw FormulaError(fmt::format("rule {}: {}", rule->name, e.what()));
      }
    }
    return std::nullopt;
  };
  hook = [&](const Spl &g) -> std::optional<Sigma> {
    if (auto s = lower_by_rule(g, nullptr)) return s;
    // Contiguous sub-chains of a composition (longest first, left to right); under a tag,
    // of the tagged composition, every part keeping the tag.
    const bool tagged = g->kind == SplKind::Tagged;
    const Spl &chain = tagged ? g->children.front() : g;
    if (chain->kind != SplKind::Compose || chain->marked || chain->children.size() < 3) return std::nullopt;
    const std::vector<Spl> &kids = chain->children;
    auto piece = [&](std::size_t from, std::size_t to) {
      Spl x = to - from == 1 ? kids[from]
                             : with_children(chain, std::vector<Spl>(kids.begin() + std::ptrdiff_t(from),
                                                                     kids.begin() + std::ptrdiff_t(to)));
      return tagged ? make_tagged(g->tag, x) : x;
    };
    // Only lengths some rule's chain pattern can match (piece() copies: O(k) each).
    rewrite::ChainLengths lengths = rewrite::sub_chain_lengths(sigma_rules, [&](const Rule &r) -> const Term * {
      if (tagged && (r.lhs.kind != SplKind::Tagged || r.lhs.tag != g->tag.kind)) return nullptr;
      const Term &pattern = tagged ? r.lhs.children.front() : r.lhs;
      return rewrite::chain_pattern_for(pattern, chain) ? &pattern : nullptr;
    });
    for (std::size_t len = std::min(kids.size() - 1, lengths.max); len >= std::max<std::size_t>(2, lengths.min); --len)
      for (std::size_t i = 0; i + len <= kids.size(); ++i) {
        std::optional<Sigma> middle = lower_by_rule(piece(i, i + len), &chain);
        if (!middle) continue;
        std::vector<Sigma> parts;
        if (i > 0) parts.push_back(lower_part(piece(0, i)));
        parts.push_back(*middle);
        if (i + len < kids.size()) parts.push_back(lower_part(piece(i + len, kids.size())));
        return sigma_compose(std::move(parts));
      }
    return std::nullopt;
  };
  Sigma lowered = renumber_loops(lower_to_sigma(f, sigma_rules.empty() ? LoweringHook{} : hook, kIdentityLoopVarBase, blocking));
  return rewrite::rewrite_sigma_to_fixpoint(lowered, rules, lower_rule_part);
}

}  // namespace splgen::lower
