// Internal to the search: the state the strategies share. search.cpp holds the driver (the
// default timed first, the final round, the budget); each strategy lives in a file of its own
// (strategy_<name>.cpp, registered in strategy_list.cpp) and works through Searcher's public part.
#pragma once
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <string>
#include <utility>
#include <vector>

#include "generator/measure/compile.h"
#include "generator/search/search.h"
#include "generator/search/space.h"

namespace splgen::search {

// Maps and sets keyed by formulas (structural equality, the formulas' hashes).
template <class T>
using SplMap = std::unordered_map<Spl, T, SplHash, SplEqual>;
using SplSet = std::unordered_set<Spl, SplHash, SplEqual>;

// A plan of a subproblem: its formula (DFT leaves are codelets) and its ruletree in short.
struct Sub {
  Spl formula;
  std::string tree;
  double ns = 0;
};

// "dit(8,dif(4,32))": a rule's short name with its children's trees.
std::string join_trees(const std::string &rule, const std::vector<std::string> &trees);

class Searcher {
 public:
  Searcher(const SearchOptions &o, const ProgressFn &progress, const std::atomic<bool> *interrupt);

  SearchResult run();

  // The splits of a node, computed once per node.
  const std::vector<Split> &splits_of(const Spl &node);

  static Plan make_plan(const Spl &formula, const std::string &tree, TargetChoice choice = {});
  // The target parameters to try at the root (target_choices), the default first.
  std::vector<TargetChoice> root_choices() const;

  const SearchOptions &options() const { return o_; }
  const Spl &root() const { return root_; }
  const driver::GenOptions &gen() const { return gen_; }
  const Plan &default_plan() const { return default_; }  // timed first by timed strategies
  int jobs() const { return jobs_; }
  int done() const { return done_; }        // plans timed so far
  int planned() const { return planned_; }  // plans expected in all (for the progress bar)
  void add_planned(int n) { planned_ += n; }
  void set_planned(int n) { planned_ = n; }
  SearchResult &result() { return result_; }

  double elapsed() const;
  // Whether to stop now (budget or interrupt); records why in result_.stopped.
  bool stop();
  EvalOptions eval_options(int64_t n) const;
  std::vector<Evaluation> time_plans(const Spl &node, const std::vector<Plan> &plans, const std::string &phase);
  std::vector<Evaluation> time_root(const std::vector<Plan> &plans, const std::string &phase);
  // Subproblems below the root, smallest first (dp, estimate).
  std::vector<Spl> subproblems();

 private:
  using Clock = std::chrono::steady_clock;

  void final_round();
  void report(const std::string &phase);
  void note_root(const std::vector<Plan> &plans, const std::vector<Evaluation> &evals);

  SearchOptions o_;
  ProgressFn progress_;
  const std::atomic<bool> *interrupt_;
  Clock::time_point start_;
  const StrategyInfo *strategy_;
  rewrite::RuleLibrary library_;  // with --rules: the files' rules (proved), then the shipped ones
  std::vector<const Rule *> rules_;
  Spl root_;
  driver::GenOptions gen_;
  int jobs_ = 1;
  Plan default_;
  double default_first_ns_ = 0;
  SearchResult result_;
  SplMap<std::vector<Split>> splits_;
  int done_ = 0, planned_ = 0;
  bool final_ = false;  // in the final round: the whole budget may be used
  double best_ns_ = 0;
  std::string best_tree_;
  std::unique_ptr<measure::TempDir> pch_dir_;  // the precompiled header, made before the first compile
  std::string pch_;                           // its header ("": none)
};

}  // namespace splgen::search
