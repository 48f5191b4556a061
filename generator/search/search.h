// The search (docs/design.md, "Search": enumerate choices -> generate -> compile -> load ->
// time -> keep the best -> cache); docs/search.md.
//   dp          SPIRAL's dynamic programming: subproblems bottom-up, each timed on its own, the
//               `keep` best plans of each kept and combined in its parents (default)
//   random      random ruletrees (and vector widths), `seed`, until the budget or max_candidates
//   exhaustive  every ruletree and width (an error when there are more than max_candidates)
//   estimate    no timing: the plan with the least operation count (a model, as FFTW_ESTIMATE)
// Every timed strategy times the generator's default plan first (so there is always an
// answer) and ends with a final round that times the best few against the default,
// interleaved, so the plan it returns is never slower than the default in that round.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "generator/search/evaluate.h"
#include "generator/search/plan.h"
#include "generator/search/strategy.h"

namespace splgen::search {

struct SearchOptions {
  std::string spec;                 // "DFT(1024)"
  EvalOptions eval;                 // target (eval.gen: isa, precision, inverse, rule files: their breakdown
                                    // rules join the space), compiler, jobs
  std::string strategy = "dp";      // a registered strategy's name (strategy.h)
  double budget_seconds = 0;        // wall-time bound; 0: none
  int keep = 2;                     // dp: plans kept per subproblem
  int alternate_splits = 3;         // dp: the fastest splits of a node whose children's other kept plans are tried
  int model_splits = 0;             // dp: splits of a node timed, the best by their children's times (0: all;
                                    // off by default: it dropped DFT(4096)'s radix-4-first winner, docs/search.md)
  unsigned seed = 1;                // random
  int max_candidates = 300;         // random, exhaustive: plans timed at most
  int final_round = 4;              // best plans re-timed against the default at the end
};

struct Candidate {
  Plan plan;
  Evaluation eval;
  double estimate = 0;  // estimate: the model's cost
};

struct SearchProgress {
  int done = 0, planned = 0;
  double best_ns = 0;        // 0: none yet
  std::string best_tree;
  double elapsed = 0;
  std::string phase;         // "DFT(64)", "final"
};
using ProgressFn = std::function<void(const SearchProgress &)>;

struct SearchResult {
  std::string spec;          // the transform searched, after --inverse ("DFT(1024)", "DFT(1024,1023)")
  int64_t n = 0;
  std::string strategy;
  Plan best;                 // the winner (the default plan when nothing beat it)
  double best_ns = 0;        // its time in the final round (0 for estimate)
  double default_ns = 0;     // the default plan's time in the same round
  std::vector<Candidate> candidates;  // plans of the whole transform, fastest first, failures last
  int done = 0, planned = 0; // candidates timed (all levels) / planned
  double seconds = 0;
  std::string stopped;       // "", "budget", "interrupted"
};

// Runs the search. `interrupt` (may be null) stops it like the budget: the best so far is returned.
// Throws FormulaError / parse::ParseError for a bad spec, std::invalid_argument for an unknown strategy
// or exhaustive beyond max_candidates.
SearchResult run_search(const SearchOptions &options, const ProgressFn &progress = {},
                        const std::atomic<bool> *interrupt = nullptr);

}  // namespace splgen::search
