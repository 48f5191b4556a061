#include "generator/ir/loop_visitor.h"

#include <algorithm>
#include <stdexcept>

namespace splgen {

// ---- LoopVisitor ---------------------------------------------------------------------------

void LoopVisitor::include(const Idx &x) {
  switch (x->kind) {  // the one dispatch on index kinds
    case IdxKind::Affine: return visit_affine(x);
    case IdxKind::Add: return visit_idx_add(x);
    case IdxKind::Mul: return visit_idx_mul(x);
    case IdxKind::Div: return visit_idx_div(x);
    case IdxKind::Mod: return visit_idx_mod(x);
    case IdxKind::Lookup: return visit_idx_lookup(x);
  }
  throw std::logic_error("LoopVisitor: bad index expression");
}

void LoopVisitor::include(const Expr &e) {
  switch (e->kind) {  // the one dispatch on expression kinds
    case ExprKind::Const: return visit_const(e);
    case ExprKind::Load: return visit_load(e);
    case ExprKind::Scalar: return visit_scalar(e);
    case ExprKind::Add: return visit_add(e);
    case ExprKind::Sub: return visit_sub(e);
    case ExprKind::Mul: return visit_mul(e);
    case ExprKind::Neg: return visit_neg(e);
  }
  throw std::logic_error("LoopVisitor: bad expression");
}

void LoopVisitor::include(const Stmt &s) {
  switch (s->kind) {  // the one dispatch on statement kinds
    case StmtKind::Block: return visit_block(s);
    case StmtKind::For: return visit_for(s);
    case StmtKind::Assign: return visit_assign(s);
    case StmtKind::Store: return visit_store(s);
    case StmtKind::Dma: return visit_dma(s);
    case StmtKind::DmaWait: return visit_dma_wait(s);
  }
  throw std::logic_error("LoopVisitor: bad statement");
}

void LoopVisitor::visit_idx_add(const Idx &x) { include(x->a), include(x->b); }
void LoopVisitor::visit_idx_mul(const Idx &x) { include(x->a), include(x->b); }
void LoopVisitor::visit_idx_div(const Idx &x) { include(x->a); }
void LoopVisitor::visit_idx_mod(const Idx &x) { include(x->a); }
void LoopVisitor::visit_idx_lookup(const Idx &x) { include(x->a); }

void LoopVisitor::visit_load(const Expr &e) { include(e->index); }
void LoopVisitor::visit_add(const Expr &e) { include(e->a), include(e->b); }
void LoopVisitor::visit_sub(const Expr &e) { include(e->a), include(e->b); }
void LoopVisitor::visit_mul(const Expr &e) { include(e->a), include(e->b); }
void LoopVisitor::visit_neg(const Expr &e) { include(e->a); }

void LoopVisitor::visit_block(const Stmt &s) {
  for (const Stmt &t : s->body) include(t);
}
void LoopVisitor::visit_for(const Stmt &s) { include(s->loop_body); }
void LoopVisitor::visit_assign(const Stmt &s) { include(s->value); }
void LoopVisitor::visit_store(const Stmt &s) { include(s->index), include(s->value); }
void LoopVisitor::visit_dma(const Stmt &s) { include(s->index), include(s->dma.local_index), include(s->dma.tag); }
void LoopVisitor::visit_dma_wait(const Stmt &s) { include(s->dma.tag); }

// ---- LoopMutator ---------------------------------------------------------------------------

Idx LoopMutator::mutate(const Idx &x) {
  switch (x->kind) {  // the one dispatch on index kinds
    case IdxKind::Affine: return mutate_affine(x);
    case IdxKind::Add: return mutate_idx_add(x);
    case IdxKind::Mul: return mutate_idx_mul(x);
    case IdxKind::Div: return mutate_idx_div(x);
    case IdxKind::Mod: return mutate_idx_mod(x);
    case IdxKind::Lookup: return mutate_idx_lookup(x);
  }
  throw std::logic_error("LoopMutator: bad index expression");
}

Expr LoopMutator::mutate(const Expr &e) {
  switch (e->kind) {  // the one dispatch on expression kinds
    case ExprKind::Const: return mutate_const(e);
    case ExprKind::Load: return mutate_load(e);
    case ExprKind::Scalar: return mutate_scalar(e);
    case ExprKind::Add: return mutate_add(e);
    case ExprKind::Sub: return mutate_sub(e);
    case ExprKind::Mul: return mutate_mul(e);
    case ExprKind::Neg: return mutate_neg(e);
  }
  throw std::logic_error("LoopMutator: bad expression");
}

Stmt LoopMutator::mutate(const Stmt &s) {
  switch (s->kind) {  // the one dispatch on statement kinds
    case StmtKind::Block: return mutate_block(s);
    case StmtKind::For: return mutate_for(s);
    case StmtKind::Assign: return mutate_assign(s);
    case StmtKind::Store: return mutate_store(s);
    case StmtKind::Dma: return mutate_dma(s);
    case StmtKind::DmaWait: return mutate_dma_wait(s);
  }
  throw std::logic_error("LoopMutator: bad statement");
}

Idx LoopMutator::mutate_idx_add(const Idx &x) {
  Idx a = mutate(x->a), b = mutate(x->b);
  return a == x->a && b == x->b ? x : idx_add(std::move(a), std::move(b));
}
Idx LoopMutator::mutate_idx_mul(const Idx &x) {
  Idx a = mutate(x->a), b = mutate(x->b);
  return a == x->a && b == x->b ? x : idx_mul(std::move(a), std::move(b));
}
Idx LoopMutator::mutate_idx_div(const Idx &x) {
  Idx a = mutate(x->a);
  return a == x->a ? x : idx_div(std::move(a), x->divisor);
}
Idx LoopMutator::mutate_idx_mod(const Idx &x) {
  Idx a = mutate(x->a);
  return a == x->a ? x : idx_mod(std::move(a), x->divisor);
}
Idx LoopMutator::mutate_idx_lookup(const Idx &x) {
  Idx a = mutate(x->a);
  return a == x->a ? x : idx_lookup(x->table, std::move(a));
}

Expr LoopMutator::mutate_load(const Expr &e) {
  Idx index = mutate(e->index);
  return index == e->index ? e : e_load(e->buffer, std::move(index), e->part);
}
Expr LoopMutator::mutate_add(const Expr &e) {
  Expr a = mutate(e->a), b = mutate(e->b);
  return a == e->a && b == e->b ? e : e_add(std::move(a), std::move(b));
}
Expr LoopMutator::mutate_sub(const Expr &e) {
  Expr a = mutate(e->a), b = mutate(e->b);
  return a == e->a && b == e->b ? e : e_sub(std::move(a), std::move(b));
}
Expr LoopMutator::mutate_mul(const Expr &e) {
  Expr a = mutate(e->a), b = mutate(e->b);
  return a == e->a && b == e->b ? e : e_mul(std::move(a), std::move(b));
}
Expr LoopMutator::mutate_neg(const Expr &e) {
  Expr a = mutate(e->a);
  return a == e->a ? e : e_neg(std::move(a));
}

Stmt LoopMutator::mutate_block(const Stmt &s) {
  std::vector<Stmt> body;
  bool changed = false;
  for (const Stmt &t : s->body) {
    body.push_back(mutate(t));
    changed = changed || body.back() != t;
  }
  return changed ? make_block(std::move(body)) : s;
}

Stmt LoopMutator::mutate_for(const Stmt &s) {
  Stmt body = mutate(s->loop_body);
  return body == s->loop_body ? s : with_loop_body(s, std::move(body));
}

Stmt LoopMutator::mutate_assign(const Stmt &s) {
  Expr value = mutate(s->value);
  return value == s->value ? s : make_assign(s->scalar, std::move(value), s->declare, s->decl);
}

Stmt LoopMutator::mutate_dma(const Stmt &s) {
  Idx index = mutate(s->index), local = mutate(s->dma.local_index), tag = mutate(s->dma.tag);
  if (index == s->index && local == s->dma.local_index && tag == s->dma.tag) return s;
  DmaTransfer t = s->dma;
  t.local_index = std::move(local), t.tag = std::move(tag);
  return make_dma(s->buffer, std::move(index), std::move(t));
}

Stmt LoopMutator::mutate_dma_wait(const Stmt &s) {
  Idx tag = mutate(s->dma.tag);
  return tag == s->dma.tag ? s : make_dma_wait(std::move(tag));
}

Stmt LoopMutator::mutate_store(const Stmt &s) {
  Idx index = mutate(s->index);
  Expr value = mutate(s->value);
  return index == s->index && value == s->value ? s : make_store(s->buffer, std::move(index), s->part, std::move(value));
}

namespace {
class ScalarReads : public LoopVisitor {
 public:
  std::vector<int> scalars;

 protected:
  void visit_scalar(const Expr &e) override { scalars.push_back(e->scalar); }
  void visit_load(const Expr &) override {}  // indices read no scalars
};

class SubstituteVar : public LoopMutator {
 public:
  SubstituteVar(int var_id, const Affine &value) : var_id_(var_id), value_(value) {}

 protected:
  Idx mutate_affine(const Idx &x) override {
    if (!uses_var(x, var_id_)) return x;
    Affine out = Affine::constant(x->affine.c0);
    for (auto &[v, c] : x->affine.terms) out = out + (v.id == var_id_ ? value_ * c : Affine::var(v, c));
    return idx_affine(std::move(out));
  }

 private:
  int var_id_;
  const Affine &value_;
};

class UsesVar : public LoopVisitor {
 public:
  explicit UsesVar(int var_id) : var_id_(var_id) {}
  bool found = false;

 protected:
  void visit_affine(const Idx &x) override {
    for (auto &[v, c] : x->affine.terms) found = found || v.id == var_id_;
  }

 private:
  int var_id_;
};

}  // namespace

Idx substitute(const Idx &x, int var_id, const Affine &value) { return SubstituteVar(var_id, value).mutate(x); }
Expr substitute(const Expr &e, int var_id, const Affine &value) { return SubstituteVar(var_id, value).mutate(e); }
Stmt substitute(const Stmt &s, int var_id, const Affine &value) { return SubstituteVar(var_id, value).mutate(s); }

bool uses_var(const Idx &x, int var_id) {
  UsesVar u(var_id);
  u.include(x);
  return u.found;
}

bool unit_stride(const Idx &x, int var_id) {
  if (const Affine *a = as_affine(x)) {
    for (auto &[v, c] : a->terms)
      if (v.id == var_id) return c == 1;
    return false;
  }
  if (x->kind != IdxKind::Add) return false;
  bool in_a = uses_var(x->a, var_id), in_b = uses_var(x->b, var_id);
  if (in_a == in_b) return false;
  return unit_stride(in_a ? x->a : x->b, var_id);
}

std::vector<int> scalars_read(const Expr &e) {
  ScalarReads r;
  r.include(e);
  return r.scalars;
}

Stmt with_loop_body(const Stmt &s, Stmt body) {
  if (s->parallel) return make_parallel_for(s->var, std::move(body));
  return s->vector_width > 1 ? make_vector_for(s->var, std::move(body), s->vector_width) : make_for(s->var, std::move(body));
}

// The largest loop variable id of loops and store indices (loads only use enclosing loops').
namespace {

class MaxVarId : public LoopVisitor {
 public:
  int max = -1;

 protected:
  void visit_affine(const Idx &x) override {
    for (auto &[v, c] : x->affine.terms) max = std::max(max, v.id);
  }
  void visit_for(const Stmt &s) override {
    max = std::max(max, s->var.id);
    LoopVisitor::visit_for(s);
  }
  void visit_assign(const Stmt &) override {}
  void visit_store(const Stmt &s) override { include(s->index); }
};

}  // namespace

int max_var_id(const Stmt &s) {
  MaxVarId m;
  m.include(s);
  return m.max;
}

std::vector<Stmt> statements_of(const Stmt &s) { return s->kind == StmtKind::Block ? s->body : std::vector<Stmt>{s}; }

}  // namespace splgen
