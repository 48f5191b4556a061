// The dp strategy (SPIRAL's dynamic programming): every subproblem bottom-up, smallest first,
// each timed on its own; the `keep` best plans of each are combined in its parents.
#include <fmt/format.h>

#include <algorithm>

#include "generator/ir/print.h"
#include "generator/search/strategies.h"

namespace splgen::search {

namespace {

// Per subproblem: its fastest plans, fastest first.
using KeptPlans = SplMap<std::vector<Sub>>;

// The candidates of a node from the kept plans of its children: for each split first the
// combination of the best children, then (after every split's best) those with one child
// replaced by one of its alternates. A child with no kept plan stays a DFT, expanded by default.
std::vector<std::pair<Spl, std::string>> dp_candidates(Searcher &searcher, const KeptPlans &kept, const Spl &node) {
  std::vector<std::pair<Spl, std::string>> firsts, alternates;
  if (codelet_allowed(node)) firsts.push_back({node, std::to_string(node->rows)});
  for (const Split &s : searcher.splits_of(node)) {
    std::vector<std::vector<Sub>> lists;
    for (const Spl &c : s.children) {
      auto it = kept.find(c);
      if (it != kept.end() && !it->second.empty())
        lists.push_back(it->second);
      else
        lists.push_back({Sub{c, codelet_allowed(c) ? std::to_string(c->rows) : fmt::format("{}*", c->rows), 0}});
    }
    auto build = [&](const std::vector<std::size_t> &pick) {
      std::vector<Spl> kids;
      std::vector<std::string> trees;
      for (std::size_t j = 0; j < pick.size(); ++j) kids.push_back(lists[j][pick[j]].formula), trees.push_back(lists[j][pick[j]].tree);
      return std::make_pair(substitute(s.rhs, kids), join_trees(s.rule, trees));
    };
    std::vector<std::size_t> base(lists.size(), 0);
    firsts.push_back(build(base));
    for (std::size_t j = 0; j < lists.size(); ++j)
      for (std::size_t r = 1; r < lists[j].size(); ++r) {
        std::vector<std::size_t> pick = base;
        pick[j] = r;
        alternates.push_back(build(pick));
      }
  }
  firsts.insert(firsts.end(), alternates.begin(), alternates.end());
  std::vector<std::pair<Spl, std::string>> out;
  SplSet formulas;
  for (auto &c : firsts)
    if (formulas.insert(c.first).second) out.push_back(c);
  return out;
}

// Candidates planned for a node, as if each child kept `keep` plans.
int planned_count(Searcher &searcher, const Spl &node, int keep) {
  int count = codelet_allowed(node) ? 1 : 0;
  int k = std::max(1, keep);
  for (const Split &s : searcher.splits_of(node)) count += 1 + (k - 1) * int(s.children.size());
  return count;
}

void run_dp(Searcher &s) {
  const SearchOptions &o = s.options();
  KeptPlans kept;
  std::vector<Spl> subs = s.subproblems();
  // Planned: every subproblem's candidates as if each child kept `keep` plans, and the root's.
  for (const Spl &node : subs) s.add_planned(planned_count(s, node, o.keep));
  const int other_choices = int(s.root_choices().size()) - 1;
  s.add_planned(planned_count(s, s.root(), o.keep) + o.keep * other_choices + o.final_round + 1);
  for (const Spl &node : subs) {
    if (s.stop()) return;
    // Half the budget goes to subproblems at most: the root's candidates are what count.
    if (o.budget_seconds > 0 && s.elapsed() > 0.5 * o.budget_seconds) break;
    int64_t before = s.done();
    auto cands = dp_candidates(s, kept, node);
    std::vector<Plan> plans;
    for (auto &[f, tree] : cands) plans.push_back(Searcher::make_plan(f, tree));
    std::vector<Evaluation> e = s.time_plans(node, plans, print(node));
    std::vector<Sub> ok;
    for (std::size_t i = 0; i < plans.size(); ++i)
      if (e[i].status == Evaluation::Status::Ok) ok.push_back({cands[i].first, cands[i].second, e[i].ns});
    std::stable_sort(ok.begin(), ok.end(), [](const Sub &a, const Sub &b) { return a.ns < b.ns; });
    const std::size_t keep = std::size_t(std::max(1, o.keep));
    // A codelet runs vectorised across its parent's loop iterations, which timing it alone
    // does not show: where the node may be a codelet, the codelet stays among the kept plans.
    auto codelet = std::find_if(ok.begin(), ok.end(), [&](const Sub &sub) { return equal(sub.formula, node); });
    if (codelet != ok.end() && std::size_t(codelet - ok.begin()) >= keep) {
      Sub c = *codelet;
      ok.resize(keep);
      ok.back() = c;
    }
    if (ok.size() > keep) ok.resize(keep);
    kept[node] = ok;
    s.add_planned(int(s.done() - before) - planned_count(s, node, o.keep));  // the estimate becomes the count
  }
  if (s.stop()) return;
  // The root: every candidate at the default target parameters (widest vectors, mu one cache
  // line), the default plan among them (same round) ...
  auto cands = dp_candidates(s, kept, s.root());
  std::vector<Plan> plans = {s.default_plan()};
  for (auto &[f, tree] : cands)
    if (!equal(f, s.default_plan().formula)) plans.push_back(Searcher::make_plan(f, tree));  // the default is there already
  std::vector<Evaluation> e = s.time_root(plans, print(s.root()));
  // ... then the best few with the other target parameters (narrower vectors, longer packets).
  std::vector<TargetChoice> choices = s.root_choices();
  if (choices.size() > 1 && !s.stop()) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < plans.size(); ++i)
      if (e[i].status == Evaluation::Status::Ok) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return e[a].ns < e[b].ns; });
    if (order.size() > std::size_t(std::max(1, o.keep))) order.resize(std::size_t(std::max(1, o.keep)));
    std::vector<Plan> narrow;
    for (std::size_t i : order)
      for (std::size_t c = 1; c < choices.size(); ++c) {
        Plan p = plans[i];
        p.vector_width = choices[c].vector_width;
        p.smp_packet = choices[c].smp_packet;
        p.is_default = false;  // the default plan's formula with other parameters
        narrow.push_back(p);
      }
    s.time_root(narrow, print(s.root()) + " target parameters");
  }
}

}  // namespace

StrategyInfo dp_strategy() { return {"dp", "dynamic programming", true, run_dp}; }

}  // namespace splgen::search
