// The estimate strategy: no timing, no compiler; the plan with the least operation count under
// a model (as FFTW_ESTIMATE), subproblems by dynamic programming.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "generator/search/strategies.h"

namespace splgen::search {

namespace {

// The operation-count model of `estimate` (FFTW_ESTIMATE's spirit): arithmetic of the codelets
// (about 4.25 n log2 n real operations for a small DFT, plus its loads and stores) and 16 per
// call (loop and address arithmetic: fewer, larger codelets win), 6 per point of a twiddle or
// diagonal, one per point of a permutation; a point costs 4 times as much beyond 2^12 points
// (a pass that does not fit in the cache).
constexpr double kCallCost = 16;
double codelet_cost(int64_t n) { return n <= 1 ? 0 : 4.25 * double(n) * std::log2(double(n)) + 4.0 * double(n) + kCallCost; }
double point_cost(int64_t n) { return n > 4096 ? 4.0 : 1.0; }

// The cost of a right side whose DFT children cost child_cost(i) each (in pre-order).
double rhs_cost(const Spl &f, double mult, const std::vector<double> &child_cost, std::size_t &next) {
  switch (f->kind) {
    case SplKind::DFT:
    case SplKind::DFTnd: return mult * (next < child_cost.size() ? child_cost[next++] : codelet_cost(f->rows));
    case SplKind::Identity: return 0;
    case SplKind::Stride:
    case SplKind::Perm: return mult * double(f->rows) * point_cost(f->rows);
    case SplKind::Twiddle:
    case SplKind::Diag: return mult * 6.0 * double(f->rows) * point_cost(f->rows);
    case SplKind::Dense: case SplKind::WideDense: return mult * 8.0 * double(f->rows * f->cols);
    case SplKind::Tensor: {
      double total = 0;
      for (std::size_t i = 0; i < f->children.size(); ++i) {
        double others = 1;
        for (std::size_t j = 0; j < f->children.size(); ++j)
          if (j != i) others *= double(f->children[j]->rows);
        total += rhs_cost(f->children[i], mult * others, child_cost, next);
      }
      return total;
    }
    default: {
      double total = 0;
      for (const Spl &c : f->children) total += rhs_cost(c, mult, child_cost, next);
      return total;
    }
  }
}

void run_estimate(Searcher &s) {
  std::vector<Spl> nodes = s.subproblems();
  nodes.push_back(s.root());
  SplMap<std::pair<double, Sub>> best;  // per node: cost, plan
  for (const Spl &node : nodes) {
    std::vector<std::pair<double, Sub>> cands;
    if (codelet_allowed(node)) cands.push_back({codelet_cost(node->rows), Sub{node, std::to_string(node->rows), 0}});
    for (const Split &split : s.splits_of(node)) {
      std::vector<double> costs;
      std::vector<Spl> kids;
      std::vector<std::string> trees;
      for (const Spl &c : split.children) {
        auto it = best.find(c);
        if (it != best.end()) {
          costs.push_back(it->second.first), kids.push_back(it->second.second.formula), trees.push_back(it->second.second.tree);
        } else {
          costs.push_back(codelet_cost(c->rows) * 4), kids.push_back(c), trees.push_back(fmt::format("{}*", c->rows));
        }
      }
      std::size_t next = 0;
      double cost = rhs_cost(split.rhs, 1, costs, next);
      cands.push_back({cost, Sub{substitute(split.rhs, kids), join_trees(split.rule, trees), 0}});
    }
    if (cands.empty()) continue;
    std::stable_sort(cands.begin(), cands.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    best[node] = cands.front();
    if (equal(node, s.root())) {
      for (auto &[cost, sub] : cands) {
        Candidate c;
        c.plan = Searcher::make_plan(sub.formula, sub.tree);
        c.estimate = cost;
        s.result().candidates.push_back(c);
      }
    }
  }
  auto it = best.find(s.root());
  s.result().best = it != best.end() ? Searcher::make_plan(it->second.second.formula, it->second.second.tree) : s.default_plan();
}

}  // namespace

StrategyInfo estimate_strategy() { return {"estimate", "operation count, no timing", false, run_estimate}; }

}  // namespace splgen::search
