#include "generator/rewrite/strategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_set>


#include "generator/rewrite/instantiate.h"
#include "generator/rewrite/match.h"

namespace splgen::rewrite {

ChainLengths sub_chain_lengths(const std::vector<const Rule *> &rules,
                               const std::function<const Term *(const Rule &)> &pattern_of) {
  ChainLengths out{SIZE_MAX, 0};  // empty: no sub-chain is tried
  for (const Rule *r : rules) {
    const Term *p = pattern_of(*r);
    if (!p) continue;
    ChainLengths l = p->kind == SplKind::FormulaVar ? ChainLengths{} : chain_pattern_lengths(*p);
    out.min = std::min(out.min, l.min);
    out.max = std::max(out.max, l.max);
  }
  return out;
}

bool skip_at_tag(const Rule &rule, const Spl &f) {
  return f->kind == SplKind::Tagged && rule.lhs.kind != SplKind::Tagged && rule.lhs.kind != SplKind::FormulaVar;
}

namespace {

bool is_chain(const Spl &f) {
  return (f->kind == SplKind::Tensor && !f->marked) || f->kind == SplKind::Compose || f->kind == SplKind::DirectSum;
}

// The first rule of `rules` that rewrites g (as a whole) into something else.
std::optional<Spl> apply_first(const Spl &g, const std::vector<const Rule *> &rules, bool sub_chain,
                               const Spl &parent, const Rule **applied) {
  for (const Rule *rule : rules) {
    if (sub_chain ? !chain_pattern_for(rule->lhs, parent) : skip_at_tag(*rule, g)) continue;
    for (const Match &m : matches(*rule, g)) {
      Spl r;
      try {
        r = instantiate_spl(rule->rhs, m);
      } catch (const FormulaError &e) {
        throw FormulaError(fmt::format("rule {}: {}", rule->name, e.what()));
      }
      if (equal(r, g)) continue;
      if (applied) *applied = rule;
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Spl> rewrite_once(const Spl &f, const std::vector<const Rule *> &rules, const Rule **applied) {
  if (auto r = apply_first(f, rules, false, f, applied)) return r;
  const std::vector<Spl> &kids = f->children;
  if (is_chain(f) && kids.size() > 2) {
    ChainLengths lengths = sub_chain_lengths(rules, [&](const Rule &r) -> const Term * {
      return chain_pattern_for(r.lhs, f) ? &r.lhs : nullptr;
    });
    for (std::size_t len = std::min(kids.size() - 1, lengths.max); len >= std::max<std::size_t>(2, lengths.min); --len)
      for (std::size_t i = 0; i + len <= kids.size(); ++i) {
        Spl sub = with_children(f, std::vector<Spl>(kids.begin() + std::ptrdiff_t(i),
                                                    kids.begin() + std::ptrdiff_t(i + len)));
        if (auto r = apply_first(sub, rules, true, f, applied)) {
          std::vector<Spl> out(kids.begin(), kids.begin() + std::ptrdiff_t(i));
          out.push_back(*r);
          out.insert(out.end(), kids.begin() + std::ptrdiff_t(i + len), kids.end());
          return with_children(f, std::move(out));
        }
      }
  }
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (auto r = rewrite_once(kids[i], rules, applied)) {
      std::vector<Spl> out = kids;
      out[i] = *r;
      return with_children(f, std::move(out));
    }
  return std::nullopt;
}

namespace {

// Nodes of the tree of f (shared subtrees counted each time), counting stops above `cap`.
int64_t tree_size(const Spl &f, int64_t cap) {
  int64_t n = 1;
  for (const Spl &c : f->children) {
    if (n > cap) break;
    n += tree_size(c, cap - n);
  }
  return n;
}

int64_t sigma_tree_size(const Sigma &s, int64_t cap) {
  int64_t n = 1;
  for (const Sigma &c : s->children) {
    if (n > cap) break;
    n += sigma_tree_size(c, cap - n);
  }
  return n;
}

// The distinct names of the last rules applied, most frequent first: the rules that cycle.
std::string recent_rules(const std::deque<const Rule *> &recent) {
  std::map<std::string, int> count;
  for (const Rule *r : recent) ++count[r ? r->name : "?"];
  std::vector<std::pair<int, std::string>> order;
  for (const auto &[name, n] : count) order.push_back({-n, name});
  std::sort(order.begin(), order.end());
  std::string out;
  for (const auto &[n, name] : order) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

Spl rewrite_to_fixpoint(const Spl &f, const std::vector<const Rule *> &rules, int max_steps,
                        std::vector<const Rule *> *used) {
  std::vector<const Rule *> spl_rules;
  for (const Rule *r : rules)
    if (!is_sigma_term(r->rhs)) spl_rules.push_back(r);
  // Progress bounds: each step costs time in the size of the formula, so a rule set that
  // keeps growing it is stopped by size long before max_steps; one that cycles (A -> B -> A)
  // is stopped when a formula comes back; and the total work is bounded.
  const int64_t start = tree_size(f, kMaxRewriteGrowth * kMaxRewriteNodes);
  const int64_t max_nodes = std::max(kMaxRewriteNodes, kMaxRewriteGrowth * start);
  std::deque<const Rule *> recent;
  std::unordered_set<Spl, SplHash, SplEqual> seen{f};
  int64_t work = 0;
  Spl current = f;
  for (int step = 0;; ++step) {
    const Rule *applied = nullptr;
    std::optional<Spl> next = rewrite_once(current, spl_rules, &applied);
    if (!next) return current;
    if (used && std::find(used->begin(), used->end(), applied) == used->end()) used->push_back(applied);
    recent.push_back(applied);
    if (recent.size() > 32) recent.pop_front();
    if (step >= max_steps)
      throw FormulaError(fmt::format("rewriting did not reach a fixpoint after {} steps (rules {} keep applying)",
                                     max_steps, recent_rules(recent)));
    current = *next;
    const int64_t size = tree_size(current, max_nodes);
    if (size > max_nodes)
      throw FormulaError(fmt::format("rewriting does not terminate: the formula grew from {} to over {} nodes "
                                     "after {} steps (rules {} keep applying)",
                                     start, max_nodes, step + 1, recent_rules(recent)));
    if (!seen.insert(current).second)
      throw FormulaError(fmt::format("rewriting does not terminate: after {} steps the formula is one it was before "
                                     "(rules {} undo each other)",
                                     step + 1, recent_rules(recent)));
    if ((work += size) > kMaxRewriteWork)
      throw FormulaError(fmt::format("rewriting takes too long: {} steps over formulas of up to {} nodes (rules {} "
                                     "keep applying)",
                                     step + 1, max_nodes, recent_rules(recent)));
  }
}

namespace {

// The first rule that rewrites g (as a whole) into something else, instantiated in place.
std::optional<Sigma> apply_first_sigma(const Sigma &g, const std::vector<const Rule *> &rules, const SplToSigma &lower,
                                       const Rule **applied) {
  for (const Rule *rule : rules)
    for (const Match &m : matches(*rule, g)) {
      Sigma r;
      try {
        r = instantiate_sigma_in_place(rule->rhs, m, g->rows, g->cols, lower);
      } catch (const FormulaError &e) {
        throw FormulaError(fmt::format("rule {}: {}", rule->name, e.what()));
      }
      if (equal(r, g)) continue;
      if (applied) *applied = rule;
      return r;
    }
  return std::nullopt;
}

Sigma with_sigma_children(const Sigma &s, std::vector<Sigma> kids) {
  switch (s->kind) {
    case SigmaKind::Compose: return sigma_compose(std::move(kids));
    case SigmaKind::SumList: return sigma_sum_list(std::move(kids));
    case SigmaKind::Sum: return sigma_sum(s->var, kids.at(0), s->mode);
    default: return s;
  }
}

// One step: the node, then (a composition) its contiguous sub-chains, longest first, then
// its children, in pre-order.
std::optional<Sigma> rewrite_sigma_once(const Sigma &s, const std::vector<const Rule *> &rules, const SplToSigma &lower,
                                        const Rule **applied) {
  if (auto r = apply_first_sigma(s, rules, lower, applied)) return r;
  const std::vector<Sigma> &kids = s->children;
  if (s->kind == SigmaKind::Compose && kids.size() > 2) {
    ChainLengths lengths = sub_chain_lengths(rules, [](const Rule &r) -> const Term * {
      return r.lhs.kind == SplKind::Compose || r.lhs.kind == SplKind::FormulaVar ? &r.lhs : nullptr;
    });
    for (std::size_t len = std::min(kids.size() - 1, lengths.max); len >= std::max<std::size_t>(2, lengths.min); --len)
      for (std::size_t i = 0; i + len <= kids.size(); ++i) {
        Sigma sub = sigma_compose(std::vector<Sigma>(kids.begin() + std::ptrdiff_t(i), kids.begin() + std::ptrdiff_t(i + len)));
        if (auto r = apply_first_sigma(sub, rules, lower, applied)) {
          std::vector<Sigma> out(kids.begin(), kids.begin() + std::ptrdiff_t(i));
          out.push_back(*r);
          out.insert(out.end(), kids.begin() + std::ptrdiff_t(i + len), kids.end());
          return sigma_compose(std::move(out));
        }
      }
  }
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (auto r = rewrite_sigma_once(kids[i], rules, lower, applied)) {
      std::vector<Sigma> out = kids;
      out[i] = *r;
      return with_sigma_children(s, std::move(out));
    }
  return std::nullopt;
}

}  // namespace

Sigma rewrite_sigma_to_fixpoint(const Sigma &s, const std::vector<const Rule *> &rules, const SplToSigma &lower,
                                int max_steps) {
  std::vector<const Rule *> sigma_rules;
  for (const Rule *r : rules)
    if (is_sigma_rule(*r)) sigma_rules.push_back(r);
  Sigma current = renumber_loops(s);
  // The same progress bound as rewrite_to_fixpoint.
  const int64_t start = sigma_tree_size(current, kMaxRewriteGrowth * kMaxRewriteNodes);
  const int64_t max_nodes = std::max(kMaxRewriteNodes, kMaxRewriteGrowth * start);
  std::deque<const Rule *> recent;
  std::unordered_set<Sigma, SigmaHash, SigmaEqual> seen{current};
  int64_t work = 0;
  for (int step = 0;; ++step) {
    const Rule *applied = nullptr;
    std::optional<Sigma> next = rewrite_sigma_once(current, sigma_rules, lower, &applied);
    if (!next) return current;
    recent.push_back(applied);
    if (recent.size() > 32) recent.pop_front();
    if (step >= max_steps)
      throw FormulaError(fmt::format("rewriting Sigma-SPL did not reach a fixpoint after {} steps (rules {} keep applying)",
                                     max_steps, recent_rules(recent)));
    current = renumber_loops(*next);
    const int64_t size = sigma_tree_size(current, max_nodes);
    if (size > max_nodes)
      throw FormulaError(fmt::format("rewriting Sigma-SPL does not terminate: it grew from {} to over {} nodes after {} "
                                     "steps (rules {} keep applying)",
                                     start, max_nodes, step + 1, recent_rules(recent)));
    if (!seen.insert(current).second)
      throw FormulaError(fmt::format("rewriting Sigma-SPL does not terminate: after {} steps it is what it was before "
                                     "(rules {} undo each other)",
                                     step + 1, recent_rules(recent)));
    if ((work += size) > kMaxRewriteWork)
      throw FormulaError(fmt::format("rewriting Sigma-SPL takes too long: {} steps (rules {} keep applying)", step + 1,
                                     recent_rules(recent)));
  }
}

}  // namespace splgen::rewrite
