#include "generator/search/search.h"

#include <algorithm>
#include <chrono>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "generator/expand/expand.h"
#include "generator/ir/print.h"
#include "generator/parse/formula_parser.h"
#include "generator/search/precompiled.h"
#include "generator/search/strategies.h"

namespace splgen::search {

// How much faster than the default a plan must be in the final rounds to replace it.
constexpr double kFinalMargin = 1.02;

std::string join_trees(const std::string &rule, const std::vector<std::string> &trees) {
  std::string s = short_rule_name(rule) + "(";
  for (std::size_t i = 0; i < trees.size(); ++i) s += (i ? "," : "") + trees[i];
  return s + ")";
}

Searcher::Searcher(const SearchOptions &o, const ProgressFn &progress, const std::atomic<bool> *interrupt)
    : o_(o), progress_(progress), interrupt_(interrupt), start_(Clock::now()), strategy_(find_strategy(o.strategy)) {
  if (!strategy_)
    throw std::invalid_argument(fmt::format("unknown search strategy '{}'; one of: {}", o.strategy,
                                            fmt::join(strategy_names(), ", ")));
  // Rule-file rules join the space: their splits are choices like the shipped rules'.
  if (!o.eval.gen.rule_files.empty()) library_ = driver::rules_with_files(o.eval.gen.rule_files);
  rules_ = expand::breakdown_rules(o.eval.gen.rule_files.empty() ? expand::shipped_rules() : library_);
  Spl spec = parse::parse_formula(o.spec);
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
  gen_.plan = nullptr;
  gen_.max_vector_width = 0;
  const int jobs = o.eval.jobs > 0 ? o.eval.jobs : default_jobs();
  jobs_ = jobs;
}

SearchResult Searcher::run() {
  default_ = search::default_plan(result_.spec, gen_);
  if (!strategy_->timed) {
    strategy_->run(*this);
  } else {
    // The default first: whatever happens later, there is an answer.
    planned_ = 1;
    std::vector<Evaluation> e = time_root({default_}, "default");
    if (e[0].status == Evaluation::Status::Ok) default_first_ns_ = e[0].ns;
    strategy_->run(*this);
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

double Searcher::elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

bool Searcher::stop() {
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

void Searcher::report(const std::string &phase) {
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
EvalOptions Searcher::eval_options(int64_t n) const {
  EvalOptions e = o_.eval;
  e.gen = gen_;
  e.jobs = jobs_;
  e.include_header = pch_;
  e.max_per_unit = int(std::clamp<int64_t>(8192 / std::max<int64_t>(n, 1), 2, std::max(2, o_.eval.max_per_unit)));
  if (final_) {
    // The round that decides: few kernels, so longer samples and more of them.
    e.repetitions = std::max(21, 2 * o_.eval.repetitions);
    e.min_sample_seconds = std::max(2e-3, o_.eval.min_sample_seconds);
  }
  return e;
}

// Times plans of `node` in chunks (so that a budget or Ctrl-C keeps what is done).
std::vector<Evaluation> Searcher::time_plans(const Spl &node, const std::vector<Plan> &plans, const std::string &phase) {
  std::vector<Evaluation> out(plans.size());
  if (!pch_dir_ && !plans.empty()) {
    pch_dir_ = std::make_unique<measure::TempDir>("splgen-search-pch");
    pch_ = precompile_kernel_headers(pch_dir_->path().string(), o_.eval.compiler, o_.eval.flags);
  }
  EvalOptions e = eval_options(node->rows);
  // Chunks of at most max_per_unit kernels per compiler job, equal in size: 19 plans of 1024
  // points went 16 + 3, the second chunk compiling 3 kernels alone on 2 cores.
  const std::size_t cap = std::size_t(e.max_per_unit * jobs_);
  const std::size_t chunks = (plans.size() + cap - 1) / cap;
  const std::size_t chunk = chunks ? (plans.size() + chunks - 1) / chunks : cap;
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

std::vector<Evaluation> Searcher::time_root(const std::vector<Plan> &plans, const std::string &phase) {
  return time_plans(root_, plans, phase);
}

void Searcher::note_root(const std::vector<Plan> &plans, const std::vector<Evaluation> &evals) {
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (evals[i].status == Evaluation::Status::Skipped) continue;
    if (evals[i].status == Evaluation::Status::Ok && (best_ns_ == 0 || evals[i].ns < best_ns_)) {
      std::string target = describe_target(plans[i].vector_width, plans[i].smp_packet);
      best_ns_ = evals[i].ns, best_tree_ = plans[i].tree + (target.empty() ? "" : " " + target);
    }
    // One table row per plan: a plan timed again keeps its latest time.
    auto same = [&](const Candidate &c) {
      return equal(c.plan.formula, plans[i].formula) && c.plan.vector_width == plans[i].vector_width &&
             c.plan.smp_packet == plans[i].smp_packet && c.plan.is_default == plans[i].is_default;
    };
    auto it = std::find_if(result_.candidates.begin(), result_.candidates.end(), same);
    if (it == result_.candidates.end())
      result_.candidates.push_back({plans[i], evals[i], 0});
    else
      it->eval = evals[i];
  }
}

const std::vector<Split> &Searcher::splits_of(const Spl &node) {
  auto it = splits_.find(node);
  if (it == splits_.end()) it = splits_.emplace(node, splits(node, rules_)).first;
  return it->second;
}

Plan Searcher::make_plan(const Spl &formula, const std::string &tree, TargetChoice choice) {
  Plan p;
  p.formula = formula;
  p.tree = tree;
  p.vector_width = choice.vector_width;
  p.smp_packet = choice.smp_packet;
  return p;
}

std::vector<TargetChoice> Searcher::root_choices() const {
  return target_choices(gen_.isa, gen_.precision, gen_.threads, root_->rows);
}

// Subproblems below the root (DFTs), smallest first, then by root exponent.
std::vector<Spl> Searcher::subproblems() {
  SplSet seen;
  std::vector<Spl> out, stack = {root_};
  while (!stack.empty()) {
    Spl node = stack.back();
    stack.pop_back();
    for (const Split &s : splits_of(node))
      for (const Spl &c : s.children)
        if (c->kind == SplKind::DFT && seen.insert(c).second) stack.push_back(c), out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const Spl &x, const Spl &y) { return std::pair(x->rows, x->b) < std::pair(y->rows, y->b); });
  return out;
}

// The candidates of a node from the kept plans of its children: for each split first the

void Searcher::final_round() {
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

SearchResult run_search(const SearchOptions &options, const ProgressFn &progress, const std::atomic<bool> *interrupt) {
  return Searcher(options, progress, interrupt).run();
}

}  // namespace splgen::search
