// The random strategy: random ruletrees (each node a uniform pick among its codelet and splits)
// and vector widths, no plan twice, until the budget, max_candidates or the space runs out.
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <set>

#include "generator/search/strategies.h"

namespace splgen::search {

namespace {

// A random ruletree of the node: its formula and its tree in short.
std::pair<Spl, std::string> random_tree(Searcher &searcher, const Spl &node, std::mt19937_64 &rng) {
  const std::vector<Split> &ss = node->kind == SplKind::DFT ? searcher.splits_of(node) : std::vector<Split>{};
  std::size_t options = ss.size() + (codelet_allowed(node) ? 1 : 0);
  if (options == 0) return {node, fmt::format("{}*", node->rows)};
  std::size_t pick = std::uniform_int_distribution<std::size_t>(0, options - 1)(rng);
  if (codelet_allowed(node) && pick == options - 1) return {node, std::to_string(node->rows)};
  const Split &s = ss[pick];
  std::vector<Spl> kids;
  std::vector<std::string> trees;
  for (const Spl &c : s.children) {
    auto [f, t] = random_tree(searcher, c, rng);
    kids.push_back(f);
    trees.push_back(t);
  }
  return {substitute(s.rhs, kids), join_trees(s.rule, trees)};
}

void run_random(Searcher &s) {
  const SearchOptions &o = s.options();
  std::mt19937_64 rng(o.seed);
  std::vector<TargetChoice> choices = s.root_choices();
  SplMap<std::set<TargetChoice>> seen;  // formula: target parameters
  seen[s.default_plan().formula].insert(TargetChoice{});
  s.add_planned(o.max_candidates + o.final_round + 1);
  const std::size_t chunk = std::size_t(s.eval_options(s.root()->rows).max_per_unit * s.jobs());
  int given = 0;
  while (given < o.max_candidates && !s.stop()) {
    std::vector<Plan> plans;
    int attempts = 0;
    while (plans.size() < chunk && given + int(plans.size()) < o.max_candidates && attempts++ < 200 * int(chunk)) {
      auto [f, tree] = random_tree(s, s.root(), rng);
      TargetChoice c = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng)];
      Plan p = Searcher::make_plan(f, tree, c);
      if (seen[p.formula].insert(c).second) plans.push_back(p);
    }
    if (plans.empty()) break;  // the space is exhausted
    given += int(plans.size());
    s.time_root(plans, "random");
  }
  s.set_planned(std::min(s.planned(), s.done() + o.final_round + 1));
}

}  // namespace

StrategyInfo random_strategy() { return {"random", "", true, run_random}; }

}  // namespace splgen::search
