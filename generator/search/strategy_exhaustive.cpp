// The exhaustive strategy: every ruletree at every vector width; refused beyond max_candidates.
#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

#include "generator/search/strategies.h"

namespace splgen::search {

namespace {

// How many ruletrees the node has (a node with none counts once: the default expansion).
double count_trees(Searcher &searcher, const Spl &node, SplMap<double> &memo) {
  if (auto it = memo.find(node); it != memo.end()) return it->second;
  double count = codelet_allowed(node) ? 1 : 0;
  for (const Split &s : searcher.splits_of(node)) {
    double product = 1;
    for (const Spl &c : s.children) product *= count_trees(searcher, c, memo);
    count += product;
  }
  if (count == 0) count = 1;  // left to the default expansion
  memo[node] = count;
  return count;
}

// Every ruletree of the node: its formula and its tree in short.
std::vector<std::pair<Spl, std::string>> all_trees(Searcher &searcher, const Spl &node) {
  std::vector<std::pair<Spl, std::string>> out;
  if (codelet_allowed(node)) out.push_back({node, std::to_string(node->rows)});
  for (const Split &s : searcher.splits_of(node)) {
    std::vector<std::vector<std::pair<Spl, std::string>>> lists;
    for (const Spl &c : s.children) lists.push_back(all_trees(searcher, c));
    std::vector<std::size_t> pick(lists.size(), 0);
    for (;;) {
      std::vector<Spl> kids;
      std::vector<std::string> trees;
      for (std::size_t j = 0; j < pick.size(); ++j) kids.push_back(lists[j][pick[j]].first), trees.push_back(lists[j][pick[j]].second);
      out.push_back({substitute(s.rhs, kids), join_trees(s.rule, trees)});
      std::size_t j = 0;
      while (j < pick.size() && ++pick[j] == lists[j].size()) pick[j++] = 0;
      if (j == pick.size()) break;
    }
  }
  if (out.empty()) out.push_back({node, fmt::format("{}*", node->rows)});
  return out;
}

void run_exhaustive(Searcher &s) {
  const SearchOptions &o = s.options();
  SplMap<double> memo;
  std::vector<TargetChoice> choices = s.root_choices();
  double count = count_trees(s, s.root(), memo) * double(choices.size());
  if (count > double(o.max_candidates))
    throw std::invalid_argument(fmt::format(
        "exhaustive: {} has {:.0f} plans (ruletrees x vector widths x smp packets), more than --max-candidates {}; use "
        "--strategy dp or random, or raise --max-candidates",
        s.result().spec, count, o.max_candidates));
  std::vector<Plan> plans;
  SplMap<std::set<TargetChoice>> seen;  // formula: target parameters
  seen[s.default_plan().formula].insert(TargetChoice{});  // timed already, as the default
  for (auto &[f, tree] : all_trees(s, s.root()))
    for (TargetChoice c : choices) {
      Plan p = Searcher::make_plan(f, tree, c);
      if (seen[p.formula].insert(c).second) plans.push_back(p);
    }
  s.add_planned(int(plans.size()) + o.final_round + 1);
  s.time_root(plans, "exhaustive");
}

}  // namespace

StrategyInfo exhaustive_strategy() { return {"exhaustive", "small sizes", true, run_exhaustive}; }

}  // namespace splgen::search
