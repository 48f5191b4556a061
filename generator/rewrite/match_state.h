// The state of a match in progress, shared by the SPL matcher (match.cpp) and the Sigma-SPL
// matcher (match_sigma.cpp): the bindings so far and the size constraints that could not be
// solved yet. Internal to generator/rewrite/.
#pragma once
#include <functional>
#include <vector>

#include "generator/rewrite/engine.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::rewrite::match_detail {

// A constraint that could not be solved when it was met (its variables were not bound yet);
// retried when the whole pattern has been walked.
struct Deferred {
  enum Kind { Size, Root, Call } kind = Size;
  SizeExpr e;               // Size, Root
  int64_t value = 0;        // Size, Root
  int64_t modulus = 0;      // Root
  bool positive = true;     // Size
  const Term *call = nullptr;  // Call
  Spl f;                       // Call
};

struct State {
  Match m;
  std::vector<Deferred> deferred;
};
using States = std::vector<State>;

// The states that extend s by each solution.
States with_solutions(const State &s, const std::vector<Bindings> &sols);
// e == v (a dimension or tag parameter: variables bound to positive values only, unless
// `positive` is false); deferred when e does not determine its variables yet.
States constrain(const State &s, const SizeExpr &e, int64_t v, bool positive = true);
// k == v (mod modulus), v in [0, modulus): a root exponent.
States constrain_root(const State &s, const SizeExpr &k, int64_t v, int64_t modulus);
// Applies step to every state.
States then(const States &in, const std::function<States(const State &)> &step);
// Solves the deferred constraints of s in any order that determines them and appends the
// finished match to out; a state whose constraints stay undetermined or fail adds nothing.
void resolve(const State &s, std::vector<Match> &out);
// Matches equal in every binding are kept once, in order.
std::vector<Match> unique_matches(std::vector<Match> all);

// The SPL matcher (match.cpp): every way pattern t matches f, extending s.
States match_term(const Term &t, const Spl &f, const State &s);

}  // namespace splgen::rewrite::match_detail
