// split_contiguous_runs (generator/lower/contiguous_runs.h): copy loops whose indices are
// contiguous over runs become a loop over runs around a unit-stride loop, meaning the same.
#include <gtest/gtest.h>

#include <functional>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "generator/ir/loop_visitor.h"
#include "generator/lower/contiguous_runs.h"

namespace splgen {
namespace {

Idx var(LoopVar v) { return idx_affine(Affine::var(v)); }

Function function(Stmt body, int64_t n) {
  std::vector<Buffer> buffers = {Buffer{0, BufferRole::Input, n, "x", {}, {}}, Buffer{1, BufferRole::Output, n, "y", {}, {}}};
  return Function{"k", n, n, std::move(buffers), 2, std::move(body)};
}

// y[i] = x[from(i)], both parts, for i < n; `scale` multiplies the real part (0: a plain copy).
Function copy(int64_t n, const std::function<Idx(Idx)> &from, double scale = 0) {
  LoopVar i{0, n};
  Expr re = e_scalar(0);
  if (scale != 0) re = e_mul(e_const(scale), re);
  return function(make_for(i, make_block({make_assign(0, e_load(0, from(var(i)), 0)), make_assign(1, e_load(0, from(var(i)), 1)),
                                          make_store(1, var(i), 0, re), make_store(1, var(i), 1, e_scalar(1))})),
                  n);
}

// The packing step of a 2-rank DFT(2^12) (docs/mpi.md): runs of 16 values.
Idx pack(Idx i) {
  Idx run = idx_div(i, 16);
  return idx_add(idx_scale(idx_add(idx_mod(idx_scale(run, 2), 64), idx_div(run, 64)), 16), idx_mod(i, 16));
}
// Its unpacking step: runs of 64.
Idx unpack(Idx i) {
  Idx run = idx_div(i, 64);
  return idx_add(idx_scale(idx_add(idx_mod(idx_scale(run, 16), 2), idx_div(run, 2)), 64), idx_mod(i, 64));
}

// The loop extents of the nest at the top of f's body, outermost first.
std::vector<int64_t> nest(const Function &f) {
  std::vector<int64_t> out;
  for (Stmt s = f.body; s->kind == StmtKind::For; s = s->loop_body) out.push_back(s->var.extent);
  return out;
}

// Every index of the innermost loop's body is unit-stride in its variable.
bool innermost_unit_stride(const Function &f) {
  Stmt s = f.body;
  while (s->loop_body && s->loop_body->kind == StmtKind::For) s = s->loop_body;
  for (const Stmt &t : statements_of(s->loop_body)) {
    if (t->kind == StmtKind::Store && !unit_stride(t->index, s->var.id)) return false;
    if (t->value->kind == ExprKind::Load && !unit_stride(t->value->index, s->var.id)) return false;
  }
  return true;
}

void expect_same_matrix(const Function &before, const Function &after) {
  EXPECT_EQ(max_abs_difference(to_dense(before), to_dense(after)), 0.0) << to_string(after);
}

TEST(SplitContiguousRuns, PackingStepRunsOf16) {
  const Function f = copy(2048, pack), g = lower::split_contiguous_runs(f, 8);
  EXPECT_EQ(nest(g), (std::vector<int64_t>{128, 16}));
  EXPECT_TRUE(innermost_unit_stride(g)) << to_string(g);
  EXPECT_FALSE(innermost_unit_stride(f));
  expect_same_matrix(f, g);
}

TEST(SplitContiguousRuns, UnpackingStepRunsOf64) {
  const Function f = copy(2048, unpack), g = lower::split_contiguous_runs(f, 8);
  EXPECT_EQ(nest(g), (std::vector<int64_t>{32, 64}));
  EXPECT_TRUE(innermost_unit_stride(g)) << to_string(g);
  expect_same_matrix(f, g);
}

// Runs of 8 inside blocks of 32 (i / 32 divides too, but runs of 32 are not contiguous).
TEST(SplitContiguousRuns, TheLongestRunThatIsContiguous) {
  auto from = [](Idx i) {  // block b = i / 32 keeps its place, its 4 runs of 8 reversed
    return idx_add(idx_add(idx_scale(idx_div(i, 32), 32), idx_scale(idx_add(idx_const(3), idx_scale(idx_mod(idx_div(i, 8), 4), -1)), 8)),
                   idx_mod(i, 8));
  };
  const Function f = copy(256, from), g = lower::split_contiguous_runs(f, 2);
  EXPECT_EQ(nest(g), (std::vector<int64_t>{32, 8}));
  EXPECT_TRUE(innermost_unit_stride(g)) << to_string(g);
  expect_same_matrix(f, g);
}

TEST(SplitContiguousRuns, OtherLoopsUnchanged) {
  const std::vector<std::function<Idx(Idx)>> froms = {
      [](Idx i) { return i; },                                                                   // already contiguous
      [](Idx i) { return idx_add(idx_scale(idx_mod(i, 16), 2), idx_scale(idx_div(i, 16), 32)); }, // stride 2 in each run
      [](Idx i) { return idx_add(idx_scale(idx_mod(i, 4), 64), idx_div(i, 4)); },                 // a transposition
  };
  for (const auto &from : froms) {
    const Function f = copy(256, from);
    EXPECT_EQ(lower::split_contiguous_runs(f, 2).body, f.body) << to_string(f);
  }
  const Function arithmetic = copy(2048, pack, 2.0);  // not only copies
  EXPECT_EQ(lower::split_contiguous_runs(arithmetic, 2).body, arithmetic.body);
  const Function short_runs = copy(2048, pack);  // runs of 16 below a minimum of 32
  EXPECT_EQ(lower::split_contiguous_runs(short_runs, 32).body, short_runs.body);
}

// Through the pipeline: the packing steps of a distributed kernel load and store whole
// registers, and every rank's loop programs still mean the spec.
TEST(SplitContiguousRuns, DistributedPackingSteps) {
  driver::GenOptions o;
  o.target = "mpi", o.ranks = 2, o.isa = Isa::Avx512;
  driver::Compilation k = driver::start("DFT(2^12)", o);
  driver::run_until(k, driver::Stage::Loops);
  ASSERT_TRUE(k.program.ranks);
  const std::string loops = to_string(k.program);
  EXPECT_NE(loops.find("for i1 in 0..32:\n    for i2 in 0..64 vectorized(8):\n      s0 := x[((64 * ((2 * (i1) % 16) + (i1) / 16)) + i2)].re"),
            std::string::npos)
      << loops;
  const std::string code = driver::run_pipeline("DFT(2^12)", o).source;
  const std::size_t step0 = code.find("void splgen_dft4096_step0("), end = code.find("\n}\n", step0);
  ASSERT_NE(step0, std::string::npos);
  const std::string body = code.substr(step0, end - step0);
  EXPECT_NE(body.find("splgen_loadc_d8(lr0, li0, x + (128*(2*(i1 % 16) + i1 / 16) + 2*i2));"), std::string::npos) << body;
  EXPECT_NE(body.find("splgen_storec_d8(y + (128*i1 + 2*i2)"), std::string::npos) << body;
}

}  // namespace
}  // namespace splgen
