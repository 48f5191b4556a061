// Walking and rewriting the loop IR (loops.h), after Halide's IRVisitor and IRMutator.
//
// LoopVisitor has one virtual visit per node kind; the defaults visit the children in order
// (an Assign's or Store's index, then its value; an operation's a, then b). Override the kinds
// you care about and call the base version to keep walking below them.
//
// LoopMutator has one virtual mutate per node kind; the defaults mutate the children and
// rebuild the node, through the factories of loops.h (so constants still fold and signs are
// still canonical), only when a child changed: an untouched subtree comes back as the same
// pointer.
#pragma once
#include <vector>

#include "generator/ir/loops.h"

namespace splgen {

class LoopVisitor {
 public:
  virtual ~LoopVisitor() = default;
  // Dispatch on the node's kind to the visit_* below.
  void include(const Idx &x);
  void include(const Expr &e);
  void include(const Stmt &s);

 protected:
  virtual void visit_affine(const Idx &) {}
  virtual void visit_idx_add(const Idx &x);
  virtual void visit_idx_mul(const Idx &x);
  virtual void visit_idx_div(const Idx &x);
  virtual void visit_idx_mod(const Idx &x);
  virtual void visit_idx_lookup(const Idx &x);

  virtual void visit_const(const Expr &) {}
  virtual void visit_load(const Expr &e);
  virtual void visit_scalar(const Expr &) {}
  virtual void visit_add(const Expr &e);
  virtual void visit_sub(const Expr &e);
  virtual void visit_mul(const Expr &e);
  virtual void visit_neg(const Expr &e);

  virtual void visit_block(const Stmt &s);
  virtual void visit_for(const Stmt &s);
  virtual void visit_assign(const Stmt &s);
  virtual void visit_store(const Stmt &s);
  virtual void visit_dma(const Stmt &s);  // its external index, local index, tag
  virtual void visit_dma_wait(const Stmt &s);
};

// A LoopVisitor with a stack of scopes: one Scope record per enclosing loop body, the
// function body's at the bottom (the blocks a C-like printer declares scalars in).
template <class Scope>
class ScopedLoopVisitor : public LoopVisitor {
 protected:
  void visit_for(const Stmt &s) override {
    scopes_.emplace_back();
    LoopVisitor::visit_for(s);
    scopes_.pop_back();
  }
  std::vector<Scope> scopes_ = std::vector<Scope>(1);
};

class LoopMutator {
 public:
  virtual ~LoopMutator() = default;
  // Dispatch on the node's kind to the mutate_* below.
  Idx mutate(const Idx &x);
  Expr mutate(const Expr &e);
  Stmt mutate(const Stmt &s);

 protected:
  virtual Idx mutate_affine(const Idx &x) { return x; }
  virtual Idx mutate_idx_add(const Idx &x);
  virtual Idx mutate_idx_mul(const Idx &x);
  virtual Idx mutate_idx_div(const Idx &x);
  virtual Idx mutate_idx_mod(const Idx &x);
  virtual Idx mutate_idx_lookup(const Idx &x);

  virtual Expr mutate_const(const Expr &e) { return e; }
  virtual Expr mutate_load(const Expr &e);
  virtual Expr mutate_scalar(const Expr &e) { return e; }
  virtual Expr mutate_add(const Expr &e);
  virtual Expr mutate_sub(const Expr &e);
  virtual Expr mutate_mul(const Expr &e);
  virtual Expr mutate_neg(const Expr &e);

  virtual Stmt mutate_block(const Stmt &s);
  virtual Stmt mutate_for(const Stmt &s);
  virtual Stmt mutate_assign(const Stmt &s);
  virtual Stmt mutate_store(const Stmt &s);
  virtual Stmt mutate_dma(const Stmt &s);
  virtual Stmt mutate_dma_wait(const Stmt &s);
};

// A copy of the For node s with another body (vector width kept), through the factories.
Stmt with_loop_body(const Stmt &s, Stmt body);
// e or s with loop variable var_id replaced by value (the Idx version is in loops.h).
Expr substitute(const Expr &e, int var_id, const Affine &value);
Stmt substitute(const Stmt &s, int var_id, const Affine &value);
// The scalars an expression reads, in order of appearance (repeats included).
std::vector<int> scalars_read(const Expr &e);
// The statements of a block, or the statement itself when it is not a block.
std::vector<Stmt> statements_of(const Stmt &s);

// The largest loop variable id of s's loops and store indices (loads only use enclosing loops'):
// fresh variables a pass adds are numbered after it.
int max_var_id(const Stmt &s);

}  // namespace splgen
