// The rewrite engine: matching rule left sides against formulas (sizes solved, associative
// chains), instantiating right sides, rule libraries and strategies. Lowering with rules is
// in generator/lower/lower_with_rules.h, the rule checker in generator/prove/checker.h.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generator/ir/rule.h"

namespace splgen::rewrite {

// What a match binds.
struct Match {
  std::map<std::string, int64_t> sizes;
  std::map<std::string, Spl> formulas;    // formula variables matched against SPL
  std::map<std::string, Sigma> sigmas;    // formula variables of a Sigma-SPL pattern
  std::map<std::string, LoopVar> loops;   // Sum variables of a Sigma-SPL pattern
};

// Every way `pattern` matches the whole of `f` (several when sizes have several solutions).
// Conditions are not checked here.
std::vector<Match> match(const Term &pattern, const Spl &f);
// The same for a Sigma-SPL pattern (a left side with Sum, G, S or Diag) against Sigma-SPL
// (generator/rewrite/match_sigma.h).
std::vector<Match> match(const Term &pattern, const Sigma &s);
// Checks the rule's conditions in order; `let` conditions add to m.sizes.
bool conditions_hold(const Rule &rule, Match &m);
// All matches of the rule at the root of f that satisfy its conditions.
std::vector<Match> matches(const Rule &rule, const Spl &f);
std::vector<Match> matches(const Rule &rule, const Sigma &s);

bool is_sigma_term(const Term &t);  // contains Sum, G, S or Diag
// A rule whose left side is Sigma-SPL: it rewrites Sigma-SPL into Sigma-SPL.
inline bool is_sigma_rule(const Rule &r) { return is_sigma_term(r.lhs); }
// The right side as SPL (FormulaError if it is Sigma-SPL or a size is not a positive integer).
Spl instantiate_spl(const Term &t, const Match &m);
// How SPL parts of a Sigma-SPL right side become Sigma-SPL: the caller passes the lowering
// (normally lower_to_sigma, generator/lower/), which sits above this layer.
using SplToSigma = std::function<Sigma(const Spl &)>;
// The right side as Sigma-SPL of the given shape; formula variables and SPL parts are lowered
// with `lower`.
Sigma instantiate_sigma(const Term &t, const Match &m, int64_t rows, int64_t cols, const SplToSigma &lower);
// The rows and columns a Sigma-SPL term has on its own (gathers and scatters at its ends
// take their tightest range); FormulaError when it does not fix them.
std::pair<int64_t, int64_t> sigma_shape(const Term &t, const Match &m);

// Rules loaded from files and directories, in order.
class RuleLibrary {
 public:
  void add_file(RuleFile file);           // a rule name that repeats within a set is a RuleSyntaxError
  void load(const std::string &path);     // a .rules file, or every *.rules file of a directory (sorted)
  const std::vector<RuleFile> &files() const { return files_; }
  std::vector<const Rule *> all() const;
  std::vector<const Rule *> set(const std::string &name) const;  // a file stem or a declared ruleset
  const Rule *find(const std::string &name) const;
 private:
  std::vector<RuleFile> files_;
};

// The directory of the shipped rules: $SPLGEN_RULES if set, else PREFIX/share/splgen/rules
// when the program runs as PREFIX/bin/NAME (an installed splgen), else the source tree's
// rules/ (compiled in as SPLGEN_RULES_DIR).
std::string default_rules_dir();
// $SPLGEN_RULES, or "" when unset; and the directory used without it.
std::string rules_dir_from_environment();
std::string builtin_rules_dir();

// Applies the rules (in order, at every subformula, outermost first) until none applies.
// Only rules with SPL right sides take part. Throws FormulaError after max_steps rewrites.
// `applied`, if given, receives each rule that was applied, once, in order of first use.
Spl rewrite_to_fixpoint(const Spl &f, const std::vector<const Rule *> &rules, int max_steps = 10000,
                        std::vector<const Rule *> *applied = nullptr);

// Applies the rules with Sigma-SPL left sides (in order, at every node and every contiguous
// sub-chain of a composition, outermost first) until none applies; loops renumbered.
// SPL parts of right sides are lowered with `lower`.
Sigma rewrite_sigma_to_fixpoint(const Sigma &s, const std::vector<const Rule *> &rules, const SplToSigma &lower,
                                int max_steps = 10000);


}  // namespace splgen::rewrite
