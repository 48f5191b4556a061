// Matching Sigma-SPL left sides against Sigma-SPL (declared in engine.h; semantics in
// match_sigma.h).
#include "generator/rewrite/match_sigma.h"

#include <set>

#include "generator/rewrite/match.h"
#include "generator/rewrite/match_state.h"

namespace splgen::rewrite {

namespace {

using namespace match_detail;

// e with the named variables replaced by constants.
SizeExpr substitute(const SizeExpr &e, const Bindings &values) {
  if (e.op == SizeOp::Var) {
    auto it = values.find(e.name);
    return it == values.end() ? e : size_const(it->second);
  }
  SizeExpr out = e;
  for (SizeExpr &a : out.args) a = substitute(a, values);
  return out;
}

// The pattern expression e, in which the pattern's bound loop variables may appear, against
// the affine base a of an index function: equal at the origin and one step along each loop.
States match_affine(const SizeExpr &e, const Affine &a, const State &st) {
  std::set<std::string> names;
  size_vars(e, names);
  Bindings origin;
  std::vector<std::pair<std::string, LoopVar>> loops;
  for (const std::string &n : names)
    if (auto it = st.m.loops.find(n); it != st.m.loops.end()) {
      origin[n] = 0;
      loops.push_back(*it);
    }
  auto coefficient = [&](const LoopVar &v) -> std::optional<int64_t> {
    for (const auto &[var, c] : a.terms)
      if (var.id == v.id) return c;
    return 0;
  };
  for (const auto &[var, c] : a.terms) {  // a loop the pattern does not name: no match
    bool named = false;
    for (const auto &l : loops) named |= l.second.id == var.id;
    if (!named) return {};
  }
  States out = constrain(st, substitute(e, origin), a.c0, false);
  for (const auto &[name, var] : loops) {
    Bindings step = origin;
    step[name] = 1;
    int64_t at_step = a.c0 + *coefficient(var);
    out = then(out, [&](const State &x) { return constrain(x, substitute(e, step), at_step, false); });
  }
  return out;
}

States match_fn(const IndexFnTerm &p, const IndexFn &f, const State &st) {
  if (p.kind != f->kind || (p.kind != FnKind::H && p.kind != FnKind::Q)) return {};
  if (p.args.size() != (p.kind == FnKind::Q ? 3u : 2u)) return {};
  States out = then(match_affine(p.args[0], f->base, st),
                    [&](const State &x) { return constrain(x, p.args[1], f->s, false); });
  if (p.kind == FnKind::Q) out = then(out, [&](const State &x) { return constrain(x, p.args[2], f->mu); });
  return out;
}

std::vector<Sigma> compose_children(const Sigma &s) {
  return s->kind == SigmaKind::Compose ? s->children : std::vector<Sigma>{s};
}

States match_sigma(const Term &t, const Sigma &s, const State &st);

// A composition pattern against a composition: contiguous non-empty groups of factors.
States match_compose(const Term &t, const Sigma &s, const State &st) {
  std::vector<const Term *> ops;
  for (const Term &c : t.children) ops.push_back(&c);
  std::vector<Sigma> kids = compose_children(s);
  States out;
  auto go = [&](auto &self, std::size_t i, std::size_t c, const State &x) -> void {
    if (i == ops.size()) {
      if (c == kids.size()) out.push_back(x);
      return;
    }
    std::size_t left = ops.size() - i - 1;
    const std::size_t last = matches_one_child(*ops[i], SplKind::Compose) ? c + 1 : kids.size();
    for (std::size_t e = c; e + left < kids.size() && e < last; ++e) {
      Sigma group = e == c ? kids[c]
                           : sigma_compose(std::vector<Sigma>(kids.begin() + std::ptrdiff_t(c),
                                                              kids.begin() + std::ptrdiff_t(e) + 1));
      for (const State &n : match_sigma(*ops[i], group, x)) self(self, i + 1, e + 1, n);
    }
  };
  go(go, 0, 0, st);
  return out;
}

States match_formula_var(const Term &t, const Sigma &s, const State &st) {
  States shaped{st};
  if (t.shape.size() == 1) {
    if (s->rows != s->cols) return {};
    shaped = constrain(st, t.shape[0], s->rows);
  } else if (t.shape.size() == 2) {
    shaped = then(constrain(st, t.shape[0], s->rows), [&](const State &x) { return constrain(x, t.shape[1], s->cols); });
  }
  States out;
  for (State &x : shaped) {
    auto it = x.m.sigmas.find(t.name);
    if (it != x.m.sigmas.end()) {
      if (!equal(it->second, s)) continue;
    } else {
      x.m.sigmas[t.name] = s;
    }
    out.push_back(std::move(x));
  }
  return out;
}

States match_sigma(const Term &t, const Sigma &s, const State &st) {
  switch (t.kind) {
    case SplKind::FormulaVar: return match_formula_var(t, s, st);
    case SplKind::Compose: return match_compose(t, s, st);
    case SplKind::Sum: {
      if (s->kind != SigmaKind::Sum || s->mode != t.mode) return {};
      auto bound = st.m.loops.find(t.name);
      if (bound != st.m.loops.end() && bound->second.id != s->var.id) return {};
      return then(constrain(st, t.sizes.at(0), s->var.extent), [&](const State &x) {
        State in = x;
        in.m.loops[t.name] = s->var;
        return match_sigma(t.children.at(0), s->children.front(), in);
      });
    }
    case SplKind::Gather:
    case SplKind::Scatter:
      if (s->kind != (t.kind == SplKind::Gather ? SigmaKind::Gather : SigmaKind::Scatter) || s->dma != t.dma) return {};
      return match_fn(t.fn, s->fn, st);
    case SplKind::Diag:
      if (s->kind != SigmaKind::Diag) return {};
      return then(match_term(t.children.at(0), s->source, st), [&](const State &x) { return match_fn(t.fn, s->fn, x); });
    default:
      // An SPL pattern matches a kernel that applies that formula.
      if (is_sigma_term(t) || s->kind != SigmaKind::Kernel) return {};
      return match_term(t, s->source, st);
  }
}

}  // namespace

std::vector<Match> match(const Term &pattern, const Sigma &s) {
  std::vector<Match> all;
  for (const State &st : match_sigma(pattern, s, State{})) resolve(st, all);
  return unique_matches(std::move(all));
}

}  // namespace splgen::rewrite
