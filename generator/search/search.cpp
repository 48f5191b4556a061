#include "generator/search/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "generator/expand/expand.h"
#include "generator/ir/print.h"
#include "generator/parse/formula_parser.h"
#include "generator/search/space.h"

namespace splgen::search {

const std::vector<std::string> &strategy_names() {
  static const std::vector<std::string> names = {"dp", "random", "exhaustive", "estimate"};
  return names;
}

std::optional<Strategy> parse_strategy(const std::string &name) {
  if (name == "dp") return Strategy::Dp;
  if (name == "random") return Strategy::Random;
  if (name == "exhaustive") return Strategy::Exhaustive;
  if (name == "estimate") return Strategy::Estimate;
  return std::nullopt;
}

const char *strategy_name(Strategy s) {
  switch (s) {
    case Strategy::Dp: return "dp";
    case Strategy::Random: return "random";
    case Strategy::Exhaustive: return "exhaustive";
    case Strategy::Estimate: return "estimate";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

// A plan of a subproblem: its formula (DFT leaves are codelets) and its ruletree in short.
struct Sub {
  Spl formula;
  std::string tree;
  double ns = 0;
};

std::string join_trees(const std::string &rule, const std::vector<std::string> &trees) {
  std::string s = short_rule_name(rule) + "(";
  for (std::size_t i = 0; i < trees.size(); ++i) s += (i ? "," : "") + trees[i];
  return s + ")";
}

// The operation-count model of `estimate` (FFTW_ESTIMATE's spirit): arithmetic of the codelets
// (about 4.25 n log2 n real operations for a small DFT, plus its loads and stores) and 16 per
// call (loop and address arithmetic: fewer, larger codelets win), 6 per point of a twiddle or
// diagonal, one per point of a permutation; a point costs 4 times as much beyond 2^12 points
// (a pass that does not fit in the cache).
constexpr double kCallCost = 16;
// How much faster than the default a plan must be in the final rounds to replace it.
constexpr double kFinalMargin = 1.02;
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
    case SplKind::Dense: return mult * 8.0 * double(f->rows * f->cols);
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

class Searcher {
 public:
  Searcher(const SearchOptions &o, const ProgressFn &progress, const std::atomic<bool> *interrupt)
      : o_(o), progress_(progress), interrupt_(interrupt), start_(Clock::now()) {
    rules_ = breakdown_rules(shipped_rules());
    Spl spec = parse_formula(o.spec);
    if (spec->kind != SplKind::DFT) throw FormulaError("search needs a DFT(n) or DFT(n,k) spec, not " + print(spec));
    if (o.eval.gen.inverse) spec = make_dft(spec->a, -spec->b);
    root_ = spec;
    if (root_->rows < 2) throw FormulaError("search needs a DFT of size 2 or more");
    result_.spec = print(root_);
    result_.n = root_->rows;
    result_.strategy = o.strategy;
    gen_ = o.eval.gen;
    gen_.inverse = false;  // root_ carries its root of unity
    gen_.name.clear();
    gen_.plan.clear();
    gen_.max_vector_width = 0;
    const int jobs = o.eval.jobs > 0 ? o.eval.jobs : default_jobs();
    jobs_ = jobs;
  }

  SearchResult run() {
    default_ = default_plan(result_.spec, gen_);
    if (o_.strategy == Strategy::Estimate) {
      estimate();
    } else {
      // The default first: whatever happens later, there is an answer.
      planned_ = 1;
      std::vector<Evaluation> e = time_root({default_}, "default");
      if (e[0].status == Evaluation::Status::Ok) default_first_ns_ = e[0].ns;
      if (o_.strategy == Strategy::Dp) dp();
      if (o_.strategy == Strategy::Random) random();
      if (o_.strategy == Strategy::Exhaustive) exhaustive();
      final_round();
    }
    result_.seconds = elapsed();
    result_.done = done_;
    result_.planned = std::max(planned_, done_);
    std::stable_sort(result_.candidates.begin(), result_.candidates.end(), [](const Candidate &a, const Candidate &b) {
      bool ao = a.eval.status == Evaluation::Status::Ok, bo = b.eval.status == Evaluation::Status::Ok;
      if (ao != bo) return ao;
      return ao && a.eval.ns < b.eval.ns;
    });
    return result_;
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  bool stop() {
    if (interrupt_ && interrupt_->load()) {
      if (result_.stopped.empty()) result_.stopped = "interrupted";
      return true;
    }
    // The last tenth of a budget (at most 10 s) is kept for the final round.
    double limit = final_ ? o_.budget_seconds : o_.budget_seconds - std::min(10.0, 0.1 * o_.budget_seconds);
    if (o_.budget_seconds > 0 && elapsed() >= limit) {
      if (result_.stopped.empty()) result_.stopped = "budget";
      return true;
    }
    return false;
  }

  void report(const std::string &phase) {
    if (!progress_) return;
    SearchProgress p;
    p.done = done_;
    p.planned = std::max(planned_, done_);
    p.best_ns = best_ns_;
    p.best_tree = best_tree_;
    p.elapsed = elapsed();
    p.phase = phase;
    progress_(p);
  }

  // Kernels per translation unit by size: about a second of compiling each.
  EvalOptions eval_options(int64_t n) const {
    EvalOptions e = o_.eval;
    e.gen = gen_;
    e.jobs = jobs_;
    e.max_per_unit = int(std::clamp<int64_t>(8192 / std::max<int64_t>(n, 1), 2, std::max(2, o_.eval.max_per_unit)));
    if (final_) {
      // The round that decides: few kernels, so longer samples and more of them.
      e.repetitions = std::max(21, 2 * o_.eval.repetitions);
      e.min_sample_seconds = std::max(2e-3, o_.eval.min_sample_seconds);
    }
    return e;
  }

  // Times plans of `node` in chunks (so that a budget or Ctrl-C keeps what is done).
  std::vector<Evaluation> time_plans(const Spl &node, const std::vector<Plan> &plans, const std::string &phase) {
    std::vector<Evaluation> out(plans.size());
    EvalOptions e = eval_options(node->rows);
    const std::size_t chunk = std::size_t(e.max_per_unit * jobs_);
    for (std::size_t begin = 0; begin < plans.size(); begin += chunk) {
      if (stop()) break;
      report(phase);
      std::size_t end = std::min(plans.size(), begin + chunk);
      std::vector<Plan> part(plans.begin() + long(begin), plans.begin() + long(end));
      std::vector<Evaluation> r = evaluate_plans(node, part, e, [this] { return stop(); });
      for (std::size_t i = 0; i < r.size(); ++i) {
        out[begin + i] = r[i];
        if (r[i].status != Evaluation::Status::Skipped) ++done_;
      }
      if (equal(node, root_)) note_root(part, r);
      report(phase);
    }
    return out;
  }

  std::vector<Evaluation> time_root(const std::vector<Plan> &plans, const std::string &phase) {
    return time_plans(root_, plans, phase);
  }

  void note_root(const std::vector<Plan> &plans, const std::vector<Evaluation> &evals) {
    for (std::size_t i = 0; i < plans.size(); ++i) {
      if (evals[i].status == Evaluation::Status::Skipped) continue;
      if (evals[i].status == Evaluation::Status::Ok && (best_ns_ == 0 || evals[i].ns < best_ns_))
        best_ns_ = evals[i].ns, best_tree_ = plans[i].tree + (plans[i].vector_width ? " " + describe_width(plans[i].vector_width) : "");
      // One table row per plan: a plan timed again keeps its latest time.
      auto same = [&](const Candidate &c) {
        return c.plan.formula == plans[i].formula && c.plan.vector_width == plans[i].vector_width &&
               c.plan.is_default == plans[i].is_default;
      };
      auto it = std::find_if(result_.candidates.begin(), result_.candidates.end(), same);
      if (it == result_.candidates.end())
        result_.candidates.push_back({plans[i], evals[i], 0});
      else
        it->eval = evals[i];
    }
  }

  const std::vector<Split> &splits_of(const Spl &node) {
    std::string key = print(node);
    auto it = splits_.find(key);
    if (it == splits_.end()) it = splits_.emplace(key, splits(node, rules_)).first;
    return it->second;
  }

  static Plan make_plan(const Spl &formula, const std::string &tree, int width = 0) {
    Plan p;
    p.formula = print(formula);
    p.tree = tree;
    p.vector_width = width;
    return p;
  }

  // ---- dp --------------------------------------------------------------------------------

  // Subproblems below the root, smallest first.
  std::vector<Spl> subproblems() {
    std::map<std::pair<int64_t, std::string>, Spl> seen;
    std::vector<Spl> stack = {root_};
    while (!stack.empty()) {
      Spl node = stack.back();
      stack.pop_back();
      for (const Split &s : splits_of(node))
        for (const Spl &c : s.children)
          if (c->kind == SplKind::DFT && seen.emplace(std::make_pair(c->rows, print(c)), c).second) stack.push_back(c);
    }
    std::vector<Spl> out;
    for (auto &[key, node] : seen) out.push_back(node);
    return out;
  }

  // The candidates of a node from the kept plans of its children: for each split first the
  // combination of the best children, then (after every split's best) those with one child
  // replaced by one of its alternates. A child with no kept plan stays a DFT, expanded by default.
  std::vector<std::pair<Spl, std::string>> dp_candidates(const Spl &node) {
    std::vector<std::pair<Spl, std::string>> firsts, alternates;
    if (codelet_allowed(node)) firsts.push_back({node, std::to_string(node->rows)});
    for (const Split &s : splits_of(node)) {
      std::vector<std::vector<Sub>> lists;
      for (const Spl &c : s.children) {
        auto it = kept_.find(print(c));
        if (it != kept_.end() && !it->second.empty())
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
    std::set<std::string> texts;
    for (auto &c : firsts)
      if (texts.insert(print(c.first)).second) out.push_back(c);
    return out;
  }

  void dp() {
    std::vector<Spl> subs = subproblems();
    // Planned: every subproblem's candidates as if each child kept `keep` plans, and the root's.
    for (const Spl &node : subs) planned_ += estimate_count(node);
    planned_ += estimate_count(root_) + o_.keep * int(width_choices(gen_.isa, gen_.precision).size() - 1) + o_.final_round + 1;
    for (const Spl &node : subs) {
      if (stop()) return;
      // Half the budget goes to subproblems at most: the root's candidates are what count.
      if (o_.budget_seconds > 0 && elapsed() > 0.5 * o_.budget_seconds) break;
      int64_t before = done_;
      auto cands = dp_candidates(node);
      std::vector<Plan> plans;
      for (auto &[f, tree] : cands) plans.push_back(make_plan(f, tree));
      std::vector<Evaluation> e = time_plans(node, plans, print(node));
      std::vector<Sub> ok;
      for (std::size_t i = 0; i < plans.size(); ++i)
        if (e[i].status == Evaluation::Status::Ok) ok.push_back({cands[i].first, cands[i].second, e[i].ns});
      std::stable_sort(ok.begin(), ok.end(), [](const Sub &a, const Sub &b) { return a.ns < b.ns; });
      const std::size_t keep = std::size_t(std::max(1, o_.keep));
      // A codelet runs vectorised across its parent's loop iterations, which timing it alone
      // does not show: where the node may be a codelet, the codelet stays among the kept plans.
      auto codelet = std::find_if(ok.begin(), ok.end(), [&](const Sub &s) { return equal(s.formula, node); });
      if (codelet != ok.end() && std::size_t(codelet - ok.begin()) >= keep) {
        Sub c = *codelet;
        ok.resize(keep);
        ok.back() = c;
      }
      if (ok.size() > keep) ok.resize(keep);
      kept_[print(node)] = ok;
      planned_ += int(done_ - before) - estimate_count(node);  // the estimate becomes the count
    }
    if (stop()) return;
    // The root: every candidate at the widest vectors, the default among them (same round) ...
    auto cands = dp_candidates(root_);
    std::vector<Plan> plans = {default_};
    for (auto &[f, tree] : cands)
      if (print(f) != default_.formula) plans.push_back(make_plan(f, tree));  // the default is there already
    std::vector<Evaluation> e = time_root(plans, print(root_));
    // ... then the best few with narrower vectors.
    std::vector<int> widths = width_choices(gen_.isa, gen_.precision);
    if (widths.size() > 1 && !stop()) {
      std::vector<std::size_t> order;
      for (std::size_t i = 0; i < plans.size(); ++i)
        if (e[i].status == Evaluation::Status::Ok) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return e[a].ns < e[b].ns; });
      if (order.size() > std::size_t(std::max(1, o_.keep))) order.resize(std::size_t(std::max(1, o_.keep)));
      std::vector<Plan> narrow;
      for (std::size_t i : order)
        for (std::size_t w = 1; w < widths.size(); ++w) {
          Plan p = plans[i];
          p.vector_width = widths[w];
          narrow.push_back(p);
        }
      time_root(narrow, print(root_) + " widths");
    }
  }

  int estimate_count(const Spl &node) {
    int count = codelet_allowed(node) ? 1 : 0;
    int k = std::max(1, o_.keep);
    for (const Split &s : splits_of(node)) count += 1 + (k - 1) * int(s.children.size());
    return count;
  }

  // ---- random ----------------------------------------------------------------------------

  std::pair<Spl, std::string> random_tree(const Spl &node, std::mt19937_64 &rng) {
    const std::vector<Split> &ss = node->kind == SplKind::DFT ? splits_of(node) : std::vector<Split>{};
    std::size_t options = ss.size() + (codelet_allowed(node) ? 1 : 0);
    if (options == 0) return {node, fmt::format("{}*", node->rows)};
    std::size_t pick = std::uniform_int_distribution<std::size_t>(0, options - 1)(rng);
    if (codelet_allowed(node) && pick == options - 1) return {node, std::to_string(node->rows)};
    const Split &s = ss[pick];
    std::vector<Spl> kids;
    std::vector<std::string> trees;
    for (const Spl &c : s.children) {
      auto [f, t] = random_tree(c, rng);
      kids.push_back(f);
      trees.push_back(t);
    }
    return {substitute(s.rhs, kids), join_trees(s.rule, trees)};
  }

  void random() {
    std::mt19937_64 rng(o_.seed);
    std::vector<int> widths = width_choices(gen_.isa, gen_.precision);
    std::set<std::string> seen = {default_.formula + "|0"};
    planned_ += o_.max_candidates + o_.final_round + 1;
    const std::size_t chunk = std::size_t(eval_options(root_->rows).max_per_unit * jobs_);
    int given = 0;
    while (given < o_.max_candidates && !stop()) {
      std::vector<Plan> plans;
      int attempts = 0;
      while (plans.size() < chunk && given + int(plans.size()) < o_.max_candidates && attempts++ < 200 * int(chunk)) {
        auto [f, tree] = random_tree(root_, rng);
        int w = widths[std::uniform_int_distribution<std::size_t>(0, widths.size() - 1)(rng)];
        Plan p = make_plan(f, tree, w);
        if (seen.insert(p.formula + "|" + std::to_string(w)).second) plans.push_back(p);
      }
      if (plans.empty()) break;  // the space is exhausted
      given += int(plans.size());
      time_root(plans, "random");
    }
    planned_ = std::min(planned_, done_ + o_.final_round + 1);
  }

  // ---- exhaustive ------------------------------------------------------------------------

  double count_trees(const Spl &node, std::map<std::string, double> &memo) {
    std::string key = print(node);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    double count = codelet_allowed(node) ? 1 : 0;
    for (const Split &s : splits_of(node)) {
      double product = 1;
      for (const Spl &c : s.children) product *= count_trees(c, memo);
      count += product;
    }
    if (count == 0) count = 1;  // left to the default expansion
    memo[key] = count;
    return count;
  }

  std::vector<std::pair<Spl, std::string>> all_trees(const Spl &node) {
    std::vector<std::pair<Spl, std::string>> out;
    if (codelet_allowed(node)) out.push_back({node, std::to_string(node->rows)});
    for (const Split &s : splits_of(node)) {
      std::vector<std::vector<std::pair<Spl, std::string>>> lists;
      for (const Spl &c : s.children) lists.push_back(all_trees(c));
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

  void exhaustive() {
    std::map<std::string, double> memo;
    std::vector<int> widths = width_choices(gen_.isa, gen_.precision);
    double count = count_trees(root_, memo) * double(widths.size());
    if (count > double(o_.max_candidates))
      throw std::invalid_argument(fmt::format(
          "exhaustive: {} has {:.0f} plans (ruletrees x vector widths), more than --max-candidates {}; use "
          "--strategy dp or random, or raise --max-candidates",
          result_.spec, count, o_.max_candidates));
    std::vector<Plan> plans;
    std::set<std::string> seen = {default_.formula + "|0"};  // timed already, as the default
    for (auto &[f, tree] : all_trees(root_))
      for (int w : widths) {
        Plan p = make_plan(f, tree, w);
        if (seen.insert(p.formula + "|" + std::to_string(w)).second) plans.push_back(p);
      }
    planned_ += int(plans.size()) + o_.final_round + 1;
    time_root(plans, "exhaustive");
  }

  // ---- final round -----------------------------------------------------------------------

  void final_round() {
    final_ = true;
    // The best few distinct plans other than the default, timed again with the default.
    std::vector<Candidate> ok;
    for (const Candidate &c : result_.candidates)
      if (c.eval.status == Evaluation::Status::Ok && !c.plan.is_default) ok.push_back(c);
    std::stable_sort(ok.begin(), ok.end(), [](const Candidate &a, const Candidate &b) { return a.eval.ns < b.eval.ns; });
    std::vector<Plan> plans = {default_};
    for (std::size_t i = 0; i < ok.size() && int(plans.size()) <= o_.final_round; ++i) plans.push_back(ok[i].plan);
    std::vector<Evaluation> e;
    if (plans.size() > 1 && !stop()) e = time_root(plans, "final");
    if (e.empty() || e[0].status != Evaluation::Status::Ok) {
      // No final round (budget, interrupt, or nothing to compare): the best time recorded wins,
      // the default unless another plan was measured faster.
      result_.best = default_;
      result_.default_ns = default_first_ns_;
      result_.best_ns = default_first_ns_;
      for (const Candidate &c : result_.candidates)
        if (c.eval.status == Evaluation::Status::Ok && c.plan.is_default) result_.default_ns = result_.best_ns = c.eval.ns;
      for (const Candidate &c : ok)
        if (c.eval.ns < result_.best_ns || result_.best_ns == 0) {
          result_.best = c.plan, result_.best_ns = c.eval.ns;
          break;
        }
      return;
    }
    // A second round with the kernels in reverse order (so in other shared objects, at other
    // addresses) guards against a lucky measurement: a plan must beat the default by
    // kFinalMargin in every round that ran, and the one with the best worst-case ratio wins.
    std::vector<Plan> reversed(plans.rbegin(), plans.rend());
    std::vector<Evaluation> e2;
    if (!stop()) e2 = time_root(reversed, "final (again)");
    const bool second = !e2.empty() && e2.back().status == Evaluation::Status::Ok;
    result_.default_ns = second ? 0.5 * (e[0].ns + e2.back().ns) : e[0].ns;
    result_.best = default_;
    result_.best_ns = result_.default_ns;
    double best_ratio = kFinalMargin;
    for (std::size_t i = 1; i < plans.size(); ++i) {
      if (e[i].status != Evaluation::Status::Ok) continue;
      double ratio = e[0].ns / e[i].ns, ns = e[i].ns;
      if (second) {
        const Evaluation &again = e2[plans.size() - 1 - i];
        if (again.status != Evaluation::Status::Ok) continue;
        ratio = std::min(ratio, e2.back().ns / again.ns);
        ns = 0.5 * (ns + again.ns);
      }
      if (ratio >= best_ratio) best_ratio = ratio, result_.best = plans[i], result_.best_ns = ns;
    }
    best_ns_ = result_.best_ns;
    best_tree_ = result_.best.tree;
    report("final");
  }

  // ---- estimate --------------------------------------------------------------------------

  void estimate() {
    std::vector<Spl> nodes = subproblems();
    nodes.push_back(root_);
    std::map<std::string, std::pair<double, Sub>> best;  // per node: cost, plan
    for (const Spl &node : nodes) {
      std::vector<std::pair<double, Sub>> cands;
      if (codelet_allowed(node)) cands.push_back({codelet_cost(node->rows), Sub{node, std::to_string(node->rows), 0}});
      for (const Split &s : splits_of(node)) {
        std::vector<double> costs;
        std::vector<Spl> kids;
        std::vector<std::string> trees;
        for (const Spl &c : s.children) {
          auto it = best.find(print(c));
          if (it != best.end()) {
            costs.push_back(it->second.first), kids.push_back(it->second.second.formula), trees.push_back(it->second.second.tree);
          } else {
            costs.push_back(codelet_cost(c->rows) * 4), kids.push_back(c), trees.push_back(fmt::format("{}*", c->rows));
          }
        }
        std::size_t next = 0;
        double cost = rhs_cost(s.rhs, 1, costs, next);
        cands.push_back({cost, Sub{substitute(s.rhs, kids), join_trees(s.rule, trees), 0}});
      }
      if (cands.empty()) continue;
      std::stable_sort(cands.begin(), cands.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
      best[print(node)] = cands.front();
      if (equal(node, root_)) {
        for (auto &[cost, sub] : cands) {
          Candidate c;
          c.plan = make_plan(sub.formula, sub.tree);
          c.estimate = cost;
          result_.candidates.push_back(c);
        }
      }
    }
    auto it = best.find(print(root_));
    result_.best = it != best.end() ? make_plan(it->second.second.formula, it->second.second.tree) : default_;
  }

  SearchOptions o_;
  ProgressFn progress_;
  const std::atomic<bool> *interrupt_;
  Clock::time_point start_;
  std::vector<const rules::Rule *> rules_;
  Spl root_;
  GenOptions gen_;
  int jobs_ = 1;
  Plan default_;
  double default_first_ns_ = 0;
  SearchResult result_;
  std::map<std::string, std::vector<Split>> splits_;
  std::map<std::string, std::vector<Sub>> kept_;
  int done_ = 0, planned_ = 0;
  bool final_ = false;  // in the final round: the whole budget may be used
  double best_ns_ = 0;
  std::string best_tree_;
};

}  // namespace

SearchResult run_search(const SearchOptions &options, const ProgressFn &progress, const std::atomic<bool> *interrupt) {
  return Searcher(options, progress, interrupt).run();
}

}  // namespace splgen::search
