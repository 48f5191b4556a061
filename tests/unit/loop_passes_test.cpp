// LoopVisitor / LoopMutator (generator/ir/loop_visitor.h), the vectoriser's loop shapes and
// the passes before printing (scope_declarations, remove_dead_code).
#include <gtest/gtest.h>

#include <algorithm>

#include "generator/ir/dense.h"
#include "generator/ir/loop_visitor.h"
#include "generator/lower/remove_dead_code.h"
#include "generator/lower/scope_declarations.h"
#include "generator/lower/vectorize_loops.h"

namespace splgen {
namespace {

Idx at(LoopVar v, int64_t c = 0) { return idx_affine(Affine::var(v) + Affine::constant(c)); }

Function function(Stmt body, int64_t n = 4) {
  std::vector<Buffer> buffers = {Buffer{0, BufferRole::Input, n, "x", {}, {}}, Buffer{1, BufferRole::Output, n, "y", {}, {}}};
  return Function{"k", n, n, std::move(buffers), 4, std::move(body)};
}

// y[i] = 2 x[i] for i < n, both parts: the loops the vectoriser makes, as (extent, width).
// in_place: y[i] = 2 y[i] after a loop copying x into y.
std::vector<std::pair<int64_t, int>> vector_loops_of(int64_t n, const std::vector<int> &widths, int masked_width,
                                                     const VectorGroupCosts &costs = {}, bool in_place = false) {
  LoopVar i{0, n};
  int from = in_place ? 1 : 0;
  Stmt body = make_block({make_assign(0, e_load(from, at(i), 0)), make_assign(1, e_load(from, at(i), 1)),
                          make_store(1, at(i), 0, e_mul(e_const(2), e_scalar(0))),
                          make_store(1, at(i), 1, e_mul(e_const(2), e_scalar(1)))});
  Stmt loop = make_for(i, body);
  if (in_place) {
    LoopVar c{1, n};
    loop = make_block({make_for(c, make_block({make_store(1, at(c), 0, e_load(0, at(c), 0)),
                                               make_store(1, at(c), 1, e_load(0, at(c), 1))})),
                       loop});
  }
  Function f = lower::vectorize_loops(function(loop, n), widths, masked_width, costs);
  std::vector<std::pair<int64_t, int>> loops;
  for (const Stmt &s : statements_of(f.body))
    if (s->kind == StmtKind::For) loops.emplace_back(s->var.extent, s->vector_width);
  EXPECT_LT(max_abs_difference(to_dense(f), to_dense(make_diag(std::vector<cplx>(std::size_t(n), 2.0)))), 1e-12) << "n=" << n;
  return loops;
}

using Loops = std::vector<std::pair<int64_t, int>>;

TEST(VectorizeLoops, RemaindersNarrowerOrMasked) {
  // AVX2 double: the rest in narrower vectors, then scalar
  EXPECT_EQ(vector_loops_of(15, {4, 2}, 0), (Loops{{12, 4}, {2, 2}, {1, 1}}));
  // AVX-512 double: a rest of two or more that no width fits runs as one masked group of 8
  EXPECT_EQ(vector_loops_of(15, {8, 4, 2}, 8), (Loops{{8, 8}, {7, 8}}));
  EXPECT_EQ(vector_loops_of(7, {8, 4, 2}, 8), (Loops{{7, 8}}));
  EXPECT_EQ(vector_loops_of(12, {8, 4, 2}, 8), (Loops{{8, 8}, {4, 4}}));  // a width fits: no mask
  EXPECT_EQ(vector_loops_of(9, {8, 4, 2}, 8), (Loops{{8, 8}, {1, 1}}));   // one left: scalar
  EXPECT_EQ(vector_loops_of(4, {8, 4, 2}, 8), (Loops{{4, 4}}));
  // AVX-512 float
  EXPECT_EQ(vector_loops_of(30, {16, 8, 4}, 16), (Loops{{16, 16}, {14, 16}}));
  EXPECT_THROW(make_vector_for(LoopVar{0, 12}, make_block({}), 8), std::invalid_argument);
}

TEST(VectorizeLoops, CheapestGroupsByCost) {
  // The greedy split is the default and SSE2/AVX2's: equal costs give it
  EXPECT_EQ(vector_loops_of(15, {8, 4, 2}, 0), (Loops{{8, 8}, {4, 4}, {2, 2}, {1, 1}}));
  EXPECT_EQ(vector_loops_of(15, {4, 2}, 0, vector_group_costs(Isa::Avx2)), (Loops{{12, 4}, {2, 2}, {1, 1}}));
  const VectorGroupCosts avx512 = vector_group_costs(Isa::Avx512);
  // AVX-512 float (16, 8, 4): 15 = 8 + 8 over iterations 7..14 (256-bit groups may overlap)
  EXPECT_EQ(vector_loops_of(15, {16, 8, 4}, 0, avx512), (Loops{{8, 8}, {8, 8}}));
  // AVX-512 double (8, 4, 2): 15 = 8 + 4 + 4 over 11..14; no 512-bit group overlaps
  EXPECT_EQ(vector_loops_of(15, {8, 4, 2}, 0, avx512), (Loops{{8, 8}, {4, 4}, {4, 4}}));
  EXPECT_EQ(vector_loops_of(6, {16, 8, 4}, 0, avx512), (Loops{{4, 4}, {4, 4}}));
  // a lone iteration left stays scalar; full 512-bit groups stay (a tie with two 256-bit ones)
  EXPECT_EQ(vector_loops_of(25, {8, 4, 2}, 0, avx512), (Loops{{24, 8}, {1, 1}}));
  EXPECT_EQ(vector_loops_of(5, {16, 8, 4}, 0, avx512), (Loops{{4, 4}, {1, 1}}));
  EXPECT_EQ(vector_loops_of(32, {16, 8, 4}, 0, avx512), (Loops{{32, 16}}));
  // a body that reads what it writes never recomputes iterations (after the copy x -> y, which may)
  EXPECT_EQ(vector_loops_of(15, {16, 8, 4}, 0, avx512, true), (Loops{{8, 8}, {8, 8}, {8, 8}, {4, 4}, {3, 1}}));
  // masked remainders keep their rule
  EXPECT_EQ(vector_loops_of(15, {8, 4, 2}, 8, avx512), (Loops{{8, 8}, {7, 8}}));
}

// A loop over i < extent in place in y: y[w(i)] = y[r(i)] (+ y[w(i)], and y[r(i)] = y[w(i)] -
// y[r(i)] for a pair), w and r affine in i, (coefficient, offset): the vector widths of its
// loops. (The interpreter runs vector loops lane after lane, so only the widths show lockstep.)
std::vector<int> in_place_widths(int64_t n, int64_t extent, std::pair<int64_t, int64_t> r, std::pair<int64_t, int64_t> w,
                                 bool pair) {
  LoopVar i{0, extent};
  auto idx = [&](std::pair<int64_t, int64_t> a) { return idx_affine(Affine::var(i, a.first) + a.second); };
  std::vector<Stmt> body = {make_assign(0, e_load(1, idx(r), 0)), make_assign(1, e_load(1, idx(r), 1))};
  if (pair) body.push_back(make_assign(2, e_load(1, idx(w), 0))), body.push_back(make_assign(3, e_load(1, idx(w), 1)));
  Expr s2 = pair ? e_scalar(2) : e_const(0), s3 = pair ? e_scalar(3) : e_const(0);
  body.push_back(make_store(1, idx(w), 0, e_add(e_scalar(0), s2)));
  body.push_back(make_store(1, idx(w), 1, e_add(e_scalar(1), s3)));
  if (pair) body.push_back(make_store(1, idx(r), 0, e_sub(s2, e_scalar(0)))), body.push_back(make_store(1, idx(r), 1, e_sub(s3, e_scalar(1))));
  Function f = lower::vectorize_loops(function(make_for(i, make_block(body)), n), {4, 2}, 0, vector_group_costs(Isa::Avx2));
  std::vector<int> widths;
  for (const Stmt &s : statements_of(f.body)) widths.push_back(s->vector_width);
  return widths;
}

// Loads and stores of one buffer with different coefficients (the pairs (k, m-k) of a real
// DFT's post-pass) vectorise where no lane reads or overwrites another lane's element.
TEST(VectorizeLoops, InPlaceAccessesOfDifferentDirections) {
  // k = i+1 and m-k = 15-i, i < 7: disjoint halves
  EXPECT_EQ(in_place_widths(16, 7, {-1, 15}, {1, 1}, true), (std::vector<int>{4, 2, 1}));
  // y[i] = y[5-i], i < 6: iteration 3 reads what iteration 2 wrote, in the same group
  EXPECT_EQ(in_place_widths(6, 6, {-1, 5}, {1, 0}, false), (std::vector<int>{1}));
  // y[i] = x[i], y[5-i] = 2 x[i], i < 6: lanes 2 and 3 both write y[3], the later iteration wins
  LoopVar i{0, 6};
  Idx back = idx_affine(Affine::var(i, -1) + 5);
  Stmt loop = make_for(i, make_block({make_store(1, at(i), 0, e_load(0, at(i), 0)), make_store(1, at(i), 1, e_load(0, at(i), 1)),
                                      make_store(1, back, 0, e_mul(e_const(2), e_load(0, at(i), 0))),
                                      make_store(1, back, 1, e_mul(e_const(2), e_load(0, at(i), 1)))}));
  Function f = lower::vectorize_loops(function(loop, 6), {4, 2}, 0, vector_group_costs(Isa::Avx2));
  EXPECT_EQ(f.body->kind, StmtKind::For);
  EXPECT_EQ(f.body->vector_width, 1);
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
