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

// A candidate of a node: its formula and tree, and the split it comes from (-1: the codelet).
struct Cand {
  Spl formula;
  std::string tree;
  int split = -1;
};

// The splits worth timing (a flag per split): the `count` best by a model of the children's
// measured times, each child's best time once per run (n / c runs of a child of c points in a
// factorisation, one run otherwise). A split with a child not timed (no kept plan) is always
// tried; count <= 0: every split.
std::vector<bool> promising_splits(const std::vector<Split> &splits, const KeptPlans &kept, int64_t n, int count) {
  std::vector<bool> out(splits.size(), true);
  if (count <= 0 || int(splits.size()) <= count) return out;
  std::vector<std::pair<double, std::size_t>> modelled;
  for (std::size_t si = 0; si < splits.size(); ++si) {
    int64_t product = 1;
    for (const Spl &c : splits[si].children) product *= c->rows;
    double ns = 0;
    bool known = true;
    for (const Spl &c : splits[si].children) {
      auto it = kept.find(c);
      if (it == kept.end() || it->second.empty()) {
        known = false;
        break;
      }
      ns += double(product == n ? n / c->rows : 1) * it->second.front().ns;
    }
    if (known) modelled.push_back({ns, si}), out[si] = false;
  }
  std::stable_sort(modelled.begin(), modelled.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (std::size_t i = 0; i < modelled.size() && int(i) < count; ++i) out[modelled[i].second] = true;
  return out;
}

// The candidates of a node from the kept plans of its children, in two rounds. First: its
// codelet and, for each split, the combination of the children's best plans. Then, for the
// splits in `alternate_of` only, those with one child replaced by one of its alternates. A
// child with no kept plan stays a DFT, expanded by default. Formulas in `seen` are left out.
std::vector<Cand> dp_candidates(Searcher &searcher, const KeptPlans &kept, const Spl &node, bool firsts,
                                const std::vector<int> &alternate_of, SplSet &seen) {
  std::vector<Cand> out;
  auto add = [&](Cand c) {
    if (seen.insert(c.formula).second) out.push_back(std::move(c));
  };
  if (firsts && codelet_allowed(node)) add({node, std::to_string(node->rows), -1});
  const std::vector<Split> &splits = searcher.splits_of(node);
  const std::vector<bool> modelled = promising_splits(splits, kept, node->rows, searcher.options().model_splits);
  for (std::size_t si = 0; si < splits.size(); ++si) {
    const Split &s = splits[si];
    bool alternates = std::find(alternate_of.begin(), alternate_of.end(), int(si)) != alternate_of.end();
    if (!(firsts && modelled[si]) && !alternates) continue;
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
      return Cand{substitute(s.rhs, kids), join_trees(s.rule, trees), int(si)};
    };
    std::vector<std::size_t> base(lists.size(), 0);
    if (firsts) add(build(base));
    if (alternates)
      for (std::size_t j = 0; j < lists.size(); ++j)
        for (std::size_t r = 1; r < lists[j].size(); ++r) {
          std::vector<std::size_t> pick = base;
          pick[j] = r;
          add(build(pick));
        }
  }
  return out;
}

// The splits whose children's alternates are tried: the `count` whose first combinations ran
// fastest (Ok evaluations of the first round, fastest first; ties in split order).
std::vector<int> fastest_splits(const std::vector<Cand> &cands, const std::vector<Evaluation> &e, int count) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < cands.size(); ++i)
    if (cands[i].split >= 0 && e[i].status == Evaluation::Status::Ok) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return e[a].ns < e[b].ns; });
  std::vector<int> out;
  for (std::size_t i : order)
    if (int(out.size()) < count) out.push_back(cands[i].split);
  return out;
}

// Candidates planned for a node, as if each child kept `keep` plans.
int planned_count(Searcher &searcher, const Spl &node, int keep, int alternate_splits) {
  int count = codelet_allowed(node) ? 1 : 0, k = std::max(1, keep), split_index = 0;
  const int model = searcher.options().model_splits;
  for (const Split &s : searcher.splits_of(node)) {
    if (model > 0 && split_index >= model) break;
    count += 1 + (split_index++ < alternate_splits ? (k - 1) * int(s.children.size()) : 0);
  }
  return count;
}

// Times a node's candidates in the two rounds of dp_candidates (at the root with the default
// plan first, in the first round's batch); their plans and evaluations, in timing order.
void time_node(Searcher &s, const KeptPlans &kept, const Spl &node, bool root, std::vector<Cand> &cands,
               std::vector<Plan> &plans, std::vector<Evaluation> &evals) {
  const SearchOptions &o = s.options();
  SplSet seen;
  if (root) {
    seen.insert(s.default_plan().formula);  // the default is there already
    plans.push_back(s.default_plan());
    cands.push_back({s.default_plan().formula, s.default_plan().tree, -1});
  }
  for (int round = 0; round < 2 && !s.stop(); ++round) {
    std::vector<int> alternate_of;
    if (round == 1) {
      alternate_of = fastest_splits(cands, evals, o.alternate_splits);  // the default's split is -1
      if (alternate_of.empty()) break;
    }
    std::vector<Cand> more = dp_candidates(s, kept, node, round == 0, alternate_of, seen);
    std::vector<Plan> batch = root && round == 0 ? std::vector<Plan>{s.default_plan()} : std::vector<Plan>{};
    for (const Cand &c : more) batch.push_back(Searcher::make_plan(c.formula, c.tree));
    std::vector<Evaluation> e = root ? s.time_root(batch, print(node)) : s.time_plans(node, batch, print(node));
    const std::size_t skip = root && round == 0 ? 1 : 0;
    if (skip) evals.push_back(e[0]);
    for (std::size_t i = 0; i < more.size(); ++i) cands.push_back(more[i]), plans.push_back(batch[i + skip]), evals.push_back(e[i + skip]);
  }
}

void run_dp(Searcher &s) {
  const SearchOptions &o = s.options();
  KeptPlans kept;
  std::vector<Spl> subs = s.subproblems();
  // Planned: every subproblem's candidates as if each child kept `keep` plans, and the root's.
  for (const Spl &node : subs) s.add_planned(planned_count(s, node, o.keep, o.alternate_splits));
  const int other_choices = int(s.root_choices().size()) - 1;
  s.add_planned(planned_count(s, s.root(), o.keep, o.alternate_splits) + o.keep * other_choices + o.final_round + 1);
  for (const Spl &node : subs) {
    if (s.stop()) return;
    // Half the budget goes to subproblems at most: the root's candidates are what count.
    if (o.budget_seconds > 0 && s.elapsed() > 0.5 * o.budget_seconds) break;
    int64_t before = s.done();
    std::vector<Cand> cands;
    std::vector<Plan> plans;
    std::vector<Evaluation> e;
    time_node(s, kept, node, false, cands, plans, e);
    std::vector<Sub> ok;
    for (std::size_t i = 0; i < plans.size(); ++i)
      if (e[i].status == Evaluation::Status::Ok) ok.push_back({cands[i].formula, cands[i].tree, e[i].ns});
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
    s.add_planned(int(s.done() - before) - planned_count(s, node, o.keep, o.alternate_splits));  // the estimate becomes the count
  }
  if (s.stop()) return;
  // The root: every candidate at the default target parameters (widest vectors, mu one cache
  // line), the default plan among them (same round) ...
  std::vector<Cand> cands;
  std::vector<Plan> plans;
  std::vector<Evaluation> e;
  time_node(s, kept, s.root(), true, cands, plans, e);
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
