#include "generator/lower/vectorize_loops.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace splgen {
namespace {

// ---- reading the loop IR ---------------------------------------------------------------

void count_scalar_reads(const Expr &e, std::map<int, int> &reads) {
  if (!e) return;
  if (e->kind == ExprKind::Scalar) ++reads[e->scalar];
  count_scalar_reads(e->a, reads);
  count_scalar_reads(e->b, reads);
}

void count_scalar_reads(const Stmt &s, std::map<int, int> &reads) {
  switch (s->kind) {
    case StmtKind::Block:
      for (const Stmt &t : s->body) count_scalar_reads(t, reads);
      break;
    case StmtKind::For: count_scalar_reads(s->loop_body, reads); break;
    case StmtKind::Assign:
    case StmtKind::Store: count_scalar_reads(s->value, reads); break;
  }
}

int max_var_id(const Idx &x) {
  int m = -1;
  if (x->kind == IdxKind::Affine)
    for (auto &[v, c] : x->affine.terms) m = std::max(m, v.id);
  if (x->a) m = std::max(m, max_var_id(x->a));
  if (x->b) m = std::max(m, max_var_id(x->b));
  return m;
}

int max_var_id(const Stmt &s) {
  switch (s->kind) {
    case StmtKind::Block: {
      int m = -1;
      for (const Stmt &t : s->body) m = std::max(m, max_var_id(t));
      return m;
    }
    case StmtKind::For: return std::max(s->var.id, max_var_id(s->loop_body));
    case StmtKind::Store: return max_var_id(s->index);
    case StmtKind::Assign: return -1;
  }
  return -1;
}

void collect_loads(const Expr &e, std::vector<const ExprNode *> &out) {
  if (!e) return;
  if (e->kind == ExprKind::Load) out.push_back(e.get());
  collect_loads(e->a, out);
  collect_loads(e->b, out);
}

std::vector<Stmt> statements(const Stmt &body) {
  return body->kind == StmtKind::Block ? body->body : std::vector<Stmt>{body};
}

// ---- rewriting ----------------------------------------------------------------------------

Expr substitute(const Expr &e, int var, const Affine &value) {
  switch (e->kind) {
    case ExprKind::Load: return e_load(e->buffer, substitute(e->index, var, value), e->part);
    case ExprKind::Add: return e_add(substitute(e->a, var, value), substitute(e->b, var, value));
    case ExprKind::Sub: return e_sub(substitute(e->a, var, value), substitute(e->b, var, value));
    case ExprKind::Mul: return e_mul(substitute(e->a, var, value), substitute(e->b, var, value));
    case ExprKind::Neg: return e_neg(substitute(e->a, var, value));
    default: return e;
  }
}

Stmt substitute(const Stmt &s, int var, const Affine &value) {
  switch (s->kind) {
    case StmtKind::Block: {
      std::vector<Stmt> body;
      for (const Stmt &t : s->body) body.push_back(substitute(t, var, value));
      return make_block(std::move(body));
    }
    case StmtKind::For: {
      Stmt body = substitute(s->loop_body, var, value);
      return s->vector_width > 1 ? make_vector_for(s->var, body, s->vector_width) : make_for(s->var, body);
    }
    case StmtKind::Assign: return make_assign(s->scalar, substitute(s->value, var, value), s->declare);
    case StmtKind::Store:
      return make_store(s->buffer, substitute(s->index, var, value), s->part, substitute(s->value, var, value));
  }
  return s;
}

// ---- legality -------------------------------------------------------------------------------

// The part of an affine index that does not depend on var, and var's coefficient.
std::pair<Affine, int64_t> split_var(const Affine &a, int var) {
  Affine rest = Affine::constant(a.c0);
  int64_t coeff = 0;
  for (auto &[v, c] : a.terms) {
    if (v.id == var)
      coeff = c;
    else
      rest = rest + Affine::var(v, c);
  }
  return {rest, coeff};
}

// Whether running the straight-line body `width` iterations at a time in lockstep gives the
// same result as running the iterations one after another. Conservative: every load of a
// buffer the body stores into must precede those stores and must never read what an earlier
// lane of the same group writes.
bool lockstep_safe(const std::vector<Stmt> &body, int var, int width, const std::map<int, int> &reads_outside) {
  std::map<int, std::vector<const StmtNode *>> stores;  // buffer -> stores so far
  std::vector<std::pair<const ExprNode *, std::size_t>> loads;
  for (const Stmt &s : body) {
    if (s->kind == StmtKind::For || s->kind == StmtKind::Block) return false;
    if (s->kind == StmtKind::Assign && (!s->declare || reads_outside.count(s->scalar))) return false;
    std::vector<const ExprNode *> ls;
    collect_loads(s->value, ls);
    for (const ExprNode *l : ls)
      if (stores.count(l->buffer)) return false;  // a load after a store to the same buffer
    for (const ExprNode *l : ls) loads.emplace_back(l, 0);
    if (s->kind == StmtKind::Store) stores[s->buffer].push_back(s.get());
  }
  for (auto &[load, statement] : loads) {
    auto it = stores.find(load->buffer);
    if (it == stores.end()) continue;
    const Affine *la = as_affine(load->index);
    if (!la) return false;
    auto [lrest, lc] = split_var(*la, var);
    for (const StmtNode *st : it->second) {
      const Affine *sa = as_affine(st->index);
      if (!sa) return false;
      auto [srest, sc] = split_var(*sa, var);
      Affine diff = srest + lrest * -1;
      if (!diff.is_constant() || sc != lc) return false;
      // lane i writes sc*(b+i) + srest, lane j > i reads lc*(b+j) + lrest
      for (int d = 1; d < width; ++d)
        if (sc * -d + diff.c0 == 0) return false;
    }
  }
  return true;
}

// ---- the pass ---------------------------------------------------------------------------------

class Vectorizer {
 public:
  Vectorizer(const std::vector<int> &widths, int next_var, std::map<int, int> total_reads)
      : widths_(widths), next_var_(next_var), total_reads_(std::move(total_reads)) {}

  Stmt run(const Stmt &s) {
    switch (s->kind) {
      case StmtKind::Block: {
        std::vector<Stmt> body;
        for (const Stmt &t : s->body) body.push_back(run(t));
        return make_block(std::move(body));
      }
      case StmtKind::For: {
        if (s->vector_width == 1 && innermost(s->loop_body)) {
          if (auto v = vectorize(s->var, s->loop_body)) return *v;
          return s;
        }
        Stmt body = run(s->loop_body);
        return s->vector_width > 1 ? make_vector_for(s->var, body, s->vector_width) : make_for(s->var, body);
      }
      default: return s;
    }
  }

 private:
  static bool innermost(const Stmt &body) {
    for (const Stmt &t : statements(body))
      if (t->kind == StmtKind::For) return false;
    return true;
  }

  std::optional<Stmt> vectorize(const LoopVar &var, const Stmt &body) {
    auto it = std::find_if(widths_.begin(), widths_.end(), [&](int w) { return w > 1 && w <= var.extent; });
    if (it == widths_.end()) return std::nullopt;
    int width = *it;
    std::map<int, int> inside;
    count_scalar_reads(body, inside);
    std::map<int, int> outside;
    for (auto &[scalar, n] : total_reads_)
      if (n > inside[scalar]) outside[scalar] = n - inside[scalar];
    if (!lockstep_safe(statements(body), var.id, width, outside)) return std::nullopt;

    int64_t main = var.extent - var.extent % width;
    if (main == var.extent) return make_vector_for(var, body, width);
    // The last iterations: var = main + r, 0 <= r < extent - main.
    LoopVar rest{next_var_++, var.extent - main};
    Stmt rest_body = substitute(body, var.id, Affine::var(rest) + main);
    Stmt rest_loop = make_for(rest, rest_body);
    if (auto v = vectorize(rest, rest_body)) rest_loop = *v;
    LoopVar head{var.id, main};
    return make_block({make_vector_for(head, body, width), rest_loop});
  }

  const std::vector<int> &widths_;
  int next_var_;
  std::map<int, int> total_reads_;
};

}  // namespace

Function vectorize_loops(const Function &f, const std::vector<int> &widths) {
  if (widths.empty() || !f.body) return f;
  std::map<int, int> reads;
  count_scalar_reads(f.body, reads);
  Vectorizer v(widths, max_var_id(f.body) + 1, std::move(reads));
  Function out = f;
  out.body = v.run(f.body);
  return out;
}

}  // namespace splgen
