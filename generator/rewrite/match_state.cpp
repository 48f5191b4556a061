#include "generator/rewrite/match_state.h"

#include <algorithm>

#include "generator/rewrite/functions.h"
#include "generator/rewrite/match.h"

namespace splgen::rewrite::match_detail {

States with_solutions(const State &s, const std::vector<Bindings> &sols) {
  States out;
  for (const Bindings &b : sols) {
    State n = s;
    n.m.sizes = b;
    out.push_back(std::move(n));
  }
  return out;
}

States constrain(const State &s, const SizeExpr &e, int64_t v, bool positive) {
  auto sol = solve_size(e, v, s.m.sizes, positive);
  if (sol) return with_solutions(s, *sol);
  State n = s;
  Deferred d;
  d.e = e, d.value = v, d.positive = positive;
  n.deferred.push_back(std::move(d));
  return {n};
}

States constrain_root(const State &s, const SizeExpr &k, int64_t v, int64_t modulus) {
  if (auto x = eval_size(k, s.m.sizes)) return mod64(*x, modulus) == v ? States{s} : States{};
  auto sol = solve_size(k, v, s.m.sizes, false);
  if (sol) return with_solutions(s, *sol);
  State n = s;
  Deferred d;
  d.kind = Deferred::Root;
  d.e = k, d.value = v, d.modulus = modulus, d.positive = false;
  n.deferred.push_back(std::move(d));
  return {n};
}

States then(const States &in, const std::function<States(const State &)> &step) {
  States out;
  for (const State &s : in) {
    States r = step(s);
    out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
  }
  return out;
}

void resolve(const State &s, std::vector<Match> &out) {
  if (s.deferred.empty()) {
    out.push_back(s.m);
    return;
  }
  for (std::size_t i = 0; i < s.deferred.size(); ++i) {
    const Deferred &d = s.deferred[i];
    State rest = s;
    rest.deferred.erase(rest.deferred.begin() + std::ptrdiff_t(i));
    States next;
    if (d.kind == Deferred::Call) {
      std::vector<int64_t> args;
      for (const SizeExpr &e : d.call->sizes)
        if (auto v = eval_size(e, s.m.sizes)) args.push_back(*v);
      if (args.size() != d.call->sizes.size()) continue;  // not yet
      const RuleFunction *fn = find_rule_function(d.call->name);
      if (!fn || fn->arity != args.size()) return;
      try {
        if (!equal(fn->make(args), d.f)) return;
      } catch (const FormulaError &) {
        return;
      }
      next = {rest};
    } else if (d.kind == Deferred::Root) {
      if (!eval_size(d.e, s.m.sizes) && !solve_size(d.e, d.value, s.m.sizes, false)) continue;
      next = constrain_root(rest, d.e, d.value, d.modulus);
    } else {
      auto sol = solve_size(d.e, d.value, s.m.sizes, d.positive);
      if (!sol) continue;
      next = with_solutions(rest, *sol);
    }
    for (const State &n : next) resolve(n, out);
    return;
  }
  // Nothing determinable: the pattern does not fix its variables; no match.
}

std::vector<Match> unique_matches(std::vector<Match> all) {
  std::vector<Match> out;
  for (Match &m : all)
    if (std::none_of(out.begin(), out.end(), [&](const Match &o) { return same_match(o, m); }))
      out.push_back(std::move(m));
  return out;
}

}  // namespace splgen::rewrite::match_detail
