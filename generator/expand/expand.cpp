#include "generator/expand/expand.h"

#include <cmath>
#include <stdexcept>

#include "generator/expand/breakdown.h"

namespace splgen {

namespace {

// The default choice among Cooley-Tukey splits m x n. Up to kBalancedMax points the divisor
// closest to sqrt(N) (both halves stay cache-resident); beyond, the largest m <= kRadixMax,
// so the twiddle stage (DFT(m) (x) I(n)) touches few cache lines per iteration and
// neighbouring iterations share them (FFTW's decimation-in-time structure).
struct SplitKnobs {
  static constexpr int64_t kBalancedMax = 1024;
  static constexpr int64_t kRadixMax = 32;
};

std::size_t default_choice(const std::vector<BreakdownChoice> &choices, int64_t N) {
  std::size_t best = 0;
  double best_distance = 1e300;
  double target = N <= SplitKnobs::kBalancedMax ? std::sqrt(double(N)) : double(SplitKnobs::kRadixMax);
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i].children.empty()) continue;
    double m = double(choices[i].children[0]->a);
    if (N > SplitKnobs::kBalancedMax && m > target) continue;
    double d = std::abs(m - target);
    if (d < best_distance - 1e-9) best = i, best_distance = d;
  }
  return best;
}

RuletreePtr expand_nonterminal(const Spl &node) {
  for (const BreakdownRule &rule : dft_breakdown_rules()) {
    if (!rule.applicable(node)) continue;
    std::vector<BreakdownChoice> choices = rule.choices(node);
    const BreakdownChoice &choice = choices[default_choice(choices, node->a)];
    auto tree = std::make_shared<Ruletree>();
    tree->node = node;
    tree->rule = rule.name;
    tree->choice = choice.label;
    std::vector<Spl> expanded;
    for (const Spl &child : choice.children) {
      tree->children.push_back(expand_nonterminal(child));
      expanded.push_back(tree->children.back()->expanded);
    }
    tree->expanded = rule.apply(node, choice, expanded);
    return tree;
  }
  throw FormulaError("no breakdown rule applies to " + std::to_string(node->a));
}

Spl expand_all(const Spl &f, std::vector<RuletreePtr> &trees) {
  if (f->kind == SplKind::DFT) {
    trees.push_back(expand_nonterminal(f));
    return trees.back()->expanded;
  }
  if (f->children.empty()) return f;
  std::vector<Spl> kids;
  for (const Spl &c : f->children) kids.push_back(expand_all(c, trees));
  return with_children(f, std::move(kids));
}

}  // namespace

Expansion expand(const Spl &formula) {
  Expansion e;
  e.formula = expand_all(formula, e.trees);
  return e;
}

}  // namespace splgen
