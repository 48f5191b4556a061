#include "generator/rewrite/match.h"

#include <algorithm>
#include <functional>

#include "generator/ir/divisors.h"
#include "generator/rewrite/functions.h"
#include "generator/rewrite/match_state.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::rewrite {

namespace {

using namespace match_detail;

States root_or_one(const States &in, const SizeExpr *k, int64_t v, int64_t modulus) {
  if (k) return then(in, [&](const State &s) { return constrain_root(s, *k, v, modulus); });
  return v == mod64(1, modulus) ? in : States{};
}

// ---- chains --------------------------------------------------------------------------------

void flatten(const Term &t, SplKind kind, std::vector<const Term *> &out) {
  for (const Term &c : t.children) {
    if (c.kind == kind)
      flatten(c, kind, out);
    else
      out.push_back(&c);
  }
}

std::vector<Spl> chain_children(const Spl &f, SplKind kind) {
  bool same = false;
  switch (kind) {
    case SplKind::Tensor: same = f->kind == SplKind::Tensor && !f->marked; break;
    case SplKind::Compose: same = f->kind == SplKind::Compose && !f->marked; break;
    case SplKind::Fence: same = f->kind == SplKind::Compose && f->marked; break;
    case SplKind::DirectSum: same = f->kind == SplKind::DirectSum; break;
    default: break;
  }
  return same ? f->children : std::vector<Spl>{f};
}

// A pattern operand of a tensor chain: a run of identities I(e1) (x) I(e2) ... acts as one
// identity of size e1*e2*...; anything else is matched as a whole against a group.
struct TensorOp {
  const Term *term = nullptr;  // nullptr for an identity run
  SizeExpr size;               // identity run: the product of its sizes
};

std::vector<TensorOp> tensor_ops(const Term &pattern) {
  std::vector<const Term *> flat;
  flatten(pattern, SplKind::Tensor, flat);
  std::vector<TensorOp> ops;
  for (const Term *t : flat) {
    if (t->kind == SplKind::Identity && !ops.empty() && !ops.back().term) {
      ops.back().size = size_op(SizeOp::Mul, ops.back().size, t->sizes.at(0));
    } else if (t->kind == SplKind::Identity) {
      ops.push_back(TensorOp{nullptr, t->sizes.at(0)});
    } else {
      ops.push_back(TensorOp{t, {}});
    }
  }
  return ops;
}

std::vector<int64_t> divisors_descending(int64_t n) {
  std::vector<int64_t> d = divisors_of(n);
  std::reverse(d.begin(), d.end());
  return d;
}

struct TensorChain {
  const std::vector<TensorOp> &ops;
  const std::vector<Spl> &kids;
  States out;

  // The remaining size of the identity at child c, when entered fresh.
  int64_t fresh(std::size_t c) const { return c < kids.size() && is_identity(kids[c]) ? kids[c]->a : 0; }

  // Operand i onwards against the children from c, whose identity has `rest` left.
  void go(std::size_t i, std::size_t c, int64_t rest, const State &s) {
    if (i == ops.size()) {
      if (c == kids.size()) out.push_back(s);
      return;
    }
    if (c == kids.size()) return;
    const TensorOp &op = ops[i];
    bool at_identity = is_identity(kids[c]);
    if (!op.term) {  // an identity operand takes a divisor of the identity here
      if (!at_identity) return;
      for (int64_t d : divisors_descending(rest))
        for (const State &n : constrain(s, op.size, d)) {
          if (d == rest)
            go(i + 1, c + 1, fresh(c + 1), n);
          else
            go(i + 1, c, rest / d, n);
        }
      return;
    }
    std::vector<Spl> group{at_identity ? make_identity(rest) : kids[c]};
    auto try_group = [&](const std::vector<Spl> &g, std::size_t next_c, int64_t next_rest) {
      Spl whole = g.size() == 1 ? g.front() : make_tensor(g);
      for (const State &n : match_term(*op.term, whole, s)) go(i + 1, next_c, next_rest, n);
    };
    for (std::size_t e = c; e < kids.size(); ++e) {
      if (e > c) group.push_back(kids[e]);
      try_group(group, e + 1, fresh(e + 1));
      const Spl &last = group.back();
      if (!is_identity(last)) continue;
      int64_t size = last->a;  // end the group with a leading part I(d) of this identity
      std::vector<int64_t> parts = divisors_descending(size);  // smallest part first: the next operands get most
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        int64_t d = *it;
        if (d == 1 || d == size) continue;
        std::vector<Spl> part = group;
        part.back() = make_identity(d);
        try_group(part, e, size / d);
      }
    }
  }
};

States match_tensor_chain(const Term &t, const Spl &f, const State &s) {
  std::vector<TensorOp> ops = tensor_ops(t);
  std::vector<Spl> kids = chain_children(f, SplKind::Tensor);
  TensorChain chain{ops, kids, {}};
  chain.go(0, 0, chain.fresh(0), s);
  return std::move(chain.out);
}

// *, | and (+): contiguous non-empty groups.
States match_plain_chain(const Term &t, const Spl &f, const State &s) {
  std::vector<const Term *> ops;
  flatten(t, t.kind, ops);
  std::vector<Spl> kids = chain_children(f, t.kind);
  States out;
  std::function<void(std::size_t, std::size_t, const State &)> go = [&](std::size_t i, std::size_t c,
                                                                        const State &st) {
    if (i == ops.size()) {
      if (c == kids.size()) out.push_back(st);
      return;
    }
    std::size_t left = ops.size() - i - 1;  // operands after this one, one child each at least
    const std::size_t last = matches_one_child(*ops[i], t.kind) ? c + 1 : kids.size();
    for (std::size_t e = c; e + left < kids.size() && e < last; ++e) {
      Spl group = e == c ? kids[c]
                         : with_children(f, std::vector<Spl>(kids.begin() + std::ptrdiff_t(c),
                                                             kids.begin() + std::ptrdiff_t(e) + 1));
      for (const State &n : match_term(*ops[i], group, st)) go(i + 1, e + 1, n);
    }
  };
  go(0, 0, s);
  return out;
}

// ---- single nodes ----------------------------------------------------------------------------

States match_formula_var(const Term &t, const Spl &f, const State &s) {
  States st{s};
  if (t.shape.size() == 1) {
    if (f->rows != f->cols) return {};
    st = constrain(s, t.shape[0], f->rows);
  } else if (t.shape.size() == 2) {
    st = then(constrain(s, t.shape[0], f->rows), [&](const State &x) { return constrain(x, t.shape[1], f->cols); });
  }
  States out;
  for (State &x : st) {
    auto it = x.m.formulas.find(t.name);
    if (it != x.m.formulas.end()) {
      if (!equal(it->second, f)) continue;
    } else {
      x.m.formulas[t.name] = f;
    }
    out.push_back(std::move(x));
  }
  return out;
}

States match_spl(const Term &t, const Spl &f, const State &s) {
  if (f->kind == SplKind::Tagged && t.kind != SplKind::Tagged && t.kind != SplKind::FormulaVar)
    return match_term(t, f->children.front(), s);  // tags are transparent to untagged patterns
  switch (t.kind) {
    case SplKind::RealTransform:
    {
      if (f->kind != SplKind::RealTransform || real_kind(f) != t.real) return {};
      const std::vector<int64_t> dims = real_transform_dims(f);
      if (dims.size() != t.sizes.size()) return {};  // RDFT(n) matches rank 1 only, RDFT(m x n) rank 2
      States st{s};
      for (std::size_t i = 0; i < dims.size(); ++i)
        st = then(st, [&](const State &x) { return constrain(x, t.sizes[i], dims[i]); });
      return st;
    }
    case SplKind::DFT:
      if (f->kind != SplKind::DFT) return {};
      return root_or_one(constrain(s, t.sizes.at(0), f->a), t.sizes.size() > 1 ? &t.sizes[1] : nullptr, f->b, f->a);
    case SplKind::DFTnd: {
      const SizeExpr *k = t.has_root ? &t.root : nullptr;
      if (t.sizes.size() == 1) {
        if (f->kind != SplKind::DFT) return {};
        return root_or_one(constrain(s, t.sizes[0], f->a), k, f->b, f->a);
      }
      if (f->kind != SplKind::DFTnd || f->perm.size() != t.sizes.size()) return {};
      States st{s};
      for (std::size_t i = 0; i < t.sizes.size(); ++i)
        st = then(st, [&](const State &x) { return constrain(x, t.sizes[i], f->perm[i]); });
      return root_or_one(st, k, f->b, f->a);
    }
    case SplKind::Identity:
      if (f->kind != SplKind::Identity) return {};
      return constrain(s, t.sizes.at(0), f->a);
    case SplKind::Stride:
      if (f->kind != SplKind::Stride) return {};
      return then(constrain(s, t.sizes.at(0), f->a), [&](const State &x) { return constrain(x, t.sizes.at(1), f->b); });
    case SplKind::Twiddle: {
      if (f->kind != SplKind::Twiddle) return {};
      States st = then(constrain(s, t.sizes.at(0), f->a), [&](const State &x) { return constrain(x, t.sizes.at(1), f->b); });
      return root_or_one(st, t.sizes.size() > 2 ? &t.sizes[2] : nullptr, f->c, f->a);
    }
    case SplKind::Tensor: return match_tensor_chain(t, f, s);
    case SplKind::Compose:
    case SplKind::Fence:
    case SplKind::DirectSum: return match_plain_chain(t, f, s);
    case SplKind::TileTensor:
      if (f->kind != SplKind::Tensor || !f->marked || f->children.size() != 2 || t.children.size() != 2) return {};
      return then(match_term(t.children[0], f->children[0], s),
                  [&](const State &x) { return match_term(t.children[1], f->children[1], x); });
    case SplKind::Tagged: {
      if (f->kind != SplKind::Tagged || f->tag.kind != t.tag || f->tag.params.size() != t.sizes.size()) return {};
      States st{s};
      for (std::size_t i = 0; i < t.sizes.size(); ++i)
        st = then(st, [&](const State &x) { return constrain(x, t.sizes[i], f->tag.params[i]); });
      return then(st, [&](const State &x) { return match_term(t.children.at(0), f->children.front(), x); });
    }
    case SplKind::Transpose: return match_term(t.children.at(0), make_transpose(f), s);
    case SplKind::FormulaVar: return match_formula_var(t, f, s);
    case SplKind::Call: {
      State n = s;
      Deferred d;
      d.kind = Deferred::Call;
      d.call = &t;
      d.f = f;
      n.deferred.push_back(std::move(d));
      return {n};
    }
    case SplKind::Sum:
    case SplKind::Gather:
    case SplKind::Scatter:
    case SplKind::Diag:
    case SplKind::Perm:
    case SplKind::Dense: case SplKind::WideDense: return {};
  }
  return {};
}

bool divides_checked(int64_t a, int64_t b) { return a != 0 && b % a == 0; }

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

}  // namespace

States match_detail::match_term(const Term &t, const Spl &f, const State &s) { return match_spl(t, f, s); }

bool same_match(const Match &x, const Match &y) {
  if (x.sizes != y.sizes || x.formulas.size() != y.formulas.size() || x.sigmas.size() != y.sigmas.size() ||
      x.loops.size() != y.loops.size())
    return false;
  for (auto ix = x.formulas.begin(), iy = y.formulas.begin(); ix != x.formulas.end(); ++ix, ++iy)
    if (ix->first != iy->first || !equal(ix->second, iy->second)) return false;
  for (auto ix = x.sigmas.begin(), iy = y.sigmas.begin(); ix != x.sigmas.end(); ++ix, ++iy)
    if (ix->first != iy->first || !equal(ix->second, iy->second)) return false;
  for (auto ix = x.loops.begin(), iy = y.loops.begin(); ix != x.loops.end(); ++ix, ++iy)
    if (ix->first != iy->first || ix->second.id != iy->second.id) return false;
  return true;
}

std::vector<Match> match(const Term &pattern, const Spl &f) {
  std::vector<Match> all;
  for (const State &s : match_term(pattern, f, State{})) resolve(s, all);
  return unique_matches(std::move(all));
}

bool conditions_hold(const Rule &rule, Match &m) {
  for (const Condition &c : rule.conditions) {
    std::vector<int64_t> v;
    for (const SizeExpr &e : c.args) {
      auto x = eval_size(e, m.sizes);
      if (!x) return false;  // unbound, or an inexact division
      v.push_back(*x);
    }
    auto arg = [&](std::size_t i) {
      if (i >= v.size()) throw FormulaError("rule " + rule.name + ": a condition lacks an argument");
      return v[i];
    };
    bool ok = true;
    switch (c.kind) {
      case ConditionKind::Compare: {
        int64_t a = arg(0), b = arg(1);
        if (c.op == "==") ok = a == b;
        else if (c.op == "!=") ok = a != b;
        else if (c.op == "<") ok = a < b;
        else if (c.op == "<=") ok = a <= b;
        else if (c.op == ">") ok = a > b;
        else if (c.op == ">=") ok = a >= b;
        else throw FormulaError("rule " + rule.name + ": unknown comparison '" + c.op + "'");
        break;
      }
      case ConditionKind::Divides: ok = divides_checked(arg(0), arg(1)); break;
      case ConditionKind::Coprime: ok = gcd64(arg(0), arg(1)) == 1; break;
      case ConditionKind::Prime: ok = is_prime(arg(0)); break;
      case ConditionKind::PowerOf2: ok = arg(0) >= 1 && (arg(0) & (arg(0) - 1)) == 0; break;
      case ConditionKind::Range: ok = arg(1) <= arg(0) && arg(0) <= arg(2); break;
      case ConditionKind::Let: {
        auto it = m.sizes.find(c.name);
        if (it != m.sizes.end()) ok = it->second == arg(0);
        else m.sizes[c.name] = arg(0);
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}

std::vector<Match> matches(const Rule &rule, const Spl &f) {
  std::vector<Match> out;
  for (Match &m : match(rule.lhs, f))
    if (conditions_hold(rule, m)) out.push_back(std::move(m));
  return out;
}

std::vector<Match> matches(const Rule &rule, const Sigma &s) {
  std::vector<Match> out;
  for (Match &m : match(rule.lhs, s))
    if (conditions_hold(rule, m)) out.push_back(std::move(m));
  return out;
}

bool matches_one_child(const Term &operand, SplKind chain) {
  switch (operand.kind) {
    case SplKind::FormulaVar: case SplKind::Transpose: case SplKind::Call: return false;
    default: return operand.kind != chain && !(chain == SplKind::Fence && operand.kind == SplKind::Compose);
  }
}

ChainLengths chain_pattern_lengths(const Term &pattern) {
  if (pattern.kind != SplKind::Compose && pattern.kind != SplKind::Fence && pattern.kind != SplKind::DirectSum)
    return {};
  std::vector<const Term *> ops;
  flatten(pattern, pattern.kind, ops);
  ChainLengths out{ops.size(), ops.size()};
  for (const Term *op : ops)
    if (!matches_one_child(*op, pattern.kind)) out.max = SIZE_MAX;
  return out;
}

bool chain_pattern_for(const Term &pattern, const Spl &f) {
  switch (pattern.kind) {
    case SplKind::Tensor: return f->kind == SplKind::Tensor && !f->marked;
    case SplKind::Compose: return f->kind == SplKind::Compose && !f->marked;
    case SplKind::Fence: return f->kind == SplKind::Compose && f->marked;
    case SplKind::DirectSum: return f->kind == SplKind::DirectSum;
    default: return false;
  }
}

}  // namespace splgen::rewrite
