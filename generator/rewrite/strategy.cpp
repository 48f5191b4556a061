#include "generator/rewrite/strategy.h"

#include <fmt/format.h>

#include <unordered_map>

#include "generator/lower/spl_to_sigma.h"
#include "generator/rewrite/instantiate.h"
#include "generator/rewrite/match.h"

namespace splgen::rules {

namespace {

// Tags are transparent to untagged patterns; such a rule applies below the tag instead.
bool skip_at_tag(const Rule &rule, const Spl &f) {
  return f->kind == SplKind::Tagged && rule.lhs.kind != TermKind::Tagged && rule.lhs.kind != TermKind::FormulaVar;
}

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

class Lowerer {
 public:
  explicit Lowerer(std::vector<const Rule *> rules) : rules_(std::move(rules)) {}

  Sigma lower(const Spl &f) {
    if (++depth_ > 10000) throw FormulaError("lower_with_rules: the rules recurse without end");
    struct Leave {
      int &d;
      ~Leave() { --d; }
    } leave{depth_};
    for (const Rule *rule : rules_) {
      if (skip_at_tag(*rule, f)) continue;
      std::vector<Match> ms = matches(*rule, f);
      if (ms.empty()) continue;
      try {
        return instantiate_sigma(rule->rhs, ms.front(), f->rows, f->cols,
                                 [this](const Spl &g) { return renumber_loops(lower(g)); });
      } catch (const FormulaError &e) {
        throw FormulaError(fmt::format("rule {}: {}", rule->name, e.what()));
      }
    }
    if (!matches_below(f)) return lower_to_sigma(f);
    switch (f->kind) {
      case SplKind::Tagged: return lower(f->children.front());
      case SplKind::Compose: {
        std::vector<Sigma> factors;
        for (const Spl &c : f->children) factors.push_back(lower(c));
        return sigma_compose(std::move(factors));
      }
      case SplKind::Tensor: {
        const Spl &a = f->children.front();
        Spl b = make_tensor(std::vector<Spl>(f->children.begin() + 1, f->children.end()));
        return lower_tensor(a, b);
      }
      case SplKind::DirectSum: {
        std::vector<Sigma> terms;
        int64_t r = 0, c = 0;
        for (const Spl &t : f->children) {
          terms.push_back(sigma_compose({sigma_scatter(fn_h(t->rows, f->rows, Affine::constant(r), 1)), lower(t),
                                         sigma_gather(fn_h(t->cols, f->cols, Affine::constant(c), 1))}));
          r += t->rows, c += t->cols;
        }
        return sigma_sum_list(std::move(terms));
      }
      default: return lower_to_sigma(f);
    }
  }

 private:
  std::vector<const Rule *> rules_;
  std::unordered_map<const SplNode *, bool> below_;
  int next_var_ = kRuleLoopVarBase;
  int depth_ = 0;

  LoopVar fresh(int64_t extent) { return LoopVar{next_var_++, extent}; }

  bool matches_below(const Spl &f) {
    if (auto it = below_.find(f.get()); it != below_.end()) return it->second;
    bool any = false;
    for (const Rule *rule : rules_)
      if (!skip_at_tag(*rule, f) && !matches(*rule, f).empty()) {
        any = true;
        break;
      }
    for (std::size_t i = 0; !any && i < f->children.size(); ++i) any = matches_below(f->children[i]);
    below_[f.get()] = any;
    return any;
  }

  // The identities of lower_to_sigma, with the parts lowered by lower().
  Sigma lower_tensor(const Spl &a, const Spl &b) {
    if (is_identity(a)) {  // I(n) (x) B
      LoopVar j = fresh(a->a);
      return sigma_sum(j, sigma_compose({sigma_scatter(fn_h(b->rows, a->a * b->rows, Affine::var(j, b->rows), 1)),
                                         lower(b),
                                         sigma_gather(fn_h(b->cols, a->a * b->cols, Affine::var(j, b->cols), 1))}));
    }
    if (is_identity(b)) {  // A (x) I(n)
      int64_t n = b->a;
      LoopVar j = fresh(n);
      return sigma_sum(j, sigma_compose({sigma_scatter(fn_h(a->rows, a->rows * n, Affine::var(j), n)), lower(a),
                                         sigma_gather(fn_h(a->cols, a->cols * n, Affine::var(j), n))}));
    }
    // A (x) B = (A (x) I(rows B)) * (I(cols A) (x) B)
    return sigma_compose({lower_tensor(a, make_identity(b->rows)), lower_tensor(make_identity(a->cols), b)});
  }
};

}  // namespace

std::optional<Spl> rewrite_once(const Spl &f, const std::vector<const Rule *> &rules, const Rule **applied) {
  if (auto r = apply_first(f, rules, false, f, applied)) return r;
  const std::vector<Spl> &kids = f->children;
  if (is_chain(f) && kids.size() > 2) {
    for (std::size_t len = kids.size() - 1; len >= 2; --len)
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

Spl rewrite_to_fixpoint(const Spl &f, const std::vector<const Rule *> &rules, int max_steps) {
  std::vector<const Rule *> spl_rules;
  for (const Rule *r : rules)
    if (!is_sigma_term(r->rhs)) spl_rules.push_back(r);
  Spl current = f;
  for (int step = 0;; ++step) {
    const Rule *applied = nullptr;
    std::optional<Spl> next = rewrite_once(current, spl_rules, &applied);
    if (!next) return current;
    if (step >= max_steps)
      throw FormulaError(fmt::format("rewriting did not reach a fixpoint after {} steps (rule {} still applies)",
                                     max_steps, applied ? applied->name : "?"));
    current = *next;
  }
}

Sigma lower_with_rules(const Spl &f, const std::vector<const Rule *> &rules) {
  std::vector<const Rule *> sigma_rules;
  for (const Rule *r : rules)
    if (is_sigma_term(r->rhs)) sigma_rules.push_back(r);
  Lowerer lowerer(std::move(sigma_rules));
  return renumber_loops(lowerer.lower(f));
}

}  // namespace splgen::rules
