// LoopVisitor / LoopMutator (generator/ir/loop_visitor.h) and the passes before printing
// (scope_declarations, remove_dead_code).
#include <gtest/gtest.h>

#include <algorithm>

#include "generator/ir/loop_visitor.h"
#include "generator/lower/remove_dead_code.h"
#include "generator/lower/scope_declarations.h"

namespace splgen {
namespace {

Idx at(LoopVar v, int64_t c = 0) { return idx_affine(Affine::var(v) + Affine::constant(c)); }

Function function(Stmt body) {
  std::vector<Buffer> buffers = {Buffer{0, BufferRole::Input, 4, "x", {}, {}}, Buffer{1, BufferRole::Output, 4, "y", {}, {}}};
  return Function{"k", 4, 4, std::move(buffers), 4, std::move(body)};
}

TEST(LoopVisitor, MutatorKeepsUntouchedSubtrees) {
  LoopVar i{0, 4}, j{1, 2};
  Stmt s = make_for(i, make_block({make_assign(0, e_add(e_load(0, at(i), 0), e_const(1))),
                                   make_store(1, at(j), 0, e_scalar(0))}));
  LoopMutator identity;
  EXPECT_EQ(identity.mutate(s), s);
  Stmt t = substitute(s, j.id, Affine::constant(1));
  EXPECT_NE(t, s);
  EXPECT_EQ(t->loop_body->body[0], s->loop_body->body[0]);  // does not use j: shared
  EXPECT_EQ(to_string(t->loop_body->body[1]->index), "1");
  EXPECT_TRUE(uses_var(at(i, 3), i.id));
  EXPECT_FALSE(uses_var(at(i, 3), j.id));
  std::vector<int> reads = scalars_read(e_mul(e_scalar(2), e_add(e_scalar(1), e_scalar(2))));
  std::sort(reads.begin(), reads.end());  // the factories order commutative operands
  EXPECT_EQ(reads, (std::vector<int>{1, 2, 2}));
}

TEST(LoopPasses, ScopeDeclarations) {
  LoopVar i{0, 4};
  // s0 declared once in the loop: const; s1 assigned twice: mutable; s2 read after the loop: hoisted
  Stmt body = make_block({make_for(i, make_block({make_assign(0, e_load(0, at(i), 0)), make_assign(1, e_scalar(0)),
                                                  make_assign(1, e_scalar(1), false), make_assign(2, e_scalar(1)),
                                                  make_store(1, at(i), 0, e_scalar(1))})),
                          make_store(1, idx_const(0), 1, e_scalar(2))});
  Function f = lower::scope_declarations(function(body));
  ASSERT_TRUE(f.scalars_scoped);
  EXPECT_EQ(f.hoisted_scalars, std::vector<int>{2});
  const std::vector<Stmt> &loop = f.body->body[0]->loop_body->body;
  EXPECT_EQ(loop[0]->decl, ScalarDecl::ConstLocal);
  EXPECT_EQ(loop[1]->decl, ScalarDecl::Local);
  EXPECT_EQ(loop[2]->decl, ScalarDecl::Plain);
  EXPECT_EQ(loop[3]->decl, ScalarDecl::Plain);
}

TEST(LoopPasses, RemoveDeadCode) {
  LoopVar i{0, 4}, j{1, 4};
  // s0 is stored; s1 and the loop over j (which only assigns s3) are dead; s2 is hoisted and dead
  Stmt body = make_block({make_assign(2, e_const(1), false),
                          make_for(i, make_block({make_assign(0, e_load(0, at(i), 0)), make_assign(1, e_scalar(2)),
                                                  make_store(1, at(i), 0, e_scalar(0))})),
                          make_for(j, make_assign(3, e_load(0, at(j), 1))), make_assign(2, e_scalar(2), false)});
  EXPECT_THROW(lower::remove_dead_code(function(body)), std::invalid_argument);
  Function scoped = lower::scope_declarations(function(body));
  EXPECT_EQ(scoped.hoisted_scalars, std::vector<int>{2});
  Function f = lower::remove_dead_code(scoped);
  EXPECT_TRUE(f.hoisted_scalars.empty());
  ASSERT_EQ(f.body->body.size(), 1u);
  const Stmt &loop = f.body->body[0];
  ASSERT_EQ(loop->kind, StmtKind::For);
  ASSERT_EQ(loop->loop_body->body.size(), 2u);
  EXPECT_EQ(loop->loop_body->body[0]->scalar, 0);
  EXPECT_EQ(loop->loop_body->body[1]->kind, StmtKind::Store);
  std::vector<cplx> x = {1, 2, 3, 4};
  EXPECT_EQ(interpret(f, x), interpret(function(body), x));
}

}  // namespace
}  // namespace splgen
