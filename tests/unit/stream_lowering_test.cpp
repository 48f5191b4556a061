// Lowering of Sum_stream / G_dma / S_dma to multibuffered DMA loops (docs/streaming.md):
// the loop program keeps the spec's matrix (interpret() does each transfer when issued), has
// the prologue / steady state / epilogue structure, and its transfers are the longest runs the
// index function allows (Cell paper eqs. (9), (10)). Compiled kernels: tests/kernels/stream_kernel_test.cpp.
#include <gtest/gtest.h>

#include "generator/driver/pipeline.h"
#include "generator/ir/loop_visitor.h"
#include "generator/ir/print.h"
#include "generator/lower/dma_transfers.h"

namespace splgen {
namespace {

struct Counts : LoopVisitor {
  int gets = 0, puts = 0, waits = 0;
  void visit_dma(const Stmt &s) override { ++(s->dma.get ? gets : puts); }
  void visit_dma_wait(const Stmt &) override { ++waits; }
};

driver::Compilation lowered(const std::string &spec, int buffers = 2, int64_t local = 0) {
  driver::GenOptions o;
  o.dma_buffers = buffers, o.local_memory = local;
  driver::Compilation c = driver::start(spec, o);
  driver::run_until(c, driver::Stage::Loops);
  return c;
}

TEST(StreamLowering, KeepsTheMatrix) {
  for (const char *spec : {"stream(4)[ I(8) (x) DFT(4) ]", "stream(4)[ DFT(8) (x) I(16) ]", "stream(2)[ DFT(64) ]",
                           "stream(4)[ DFT(256) ]", "stream(3)[ DFT(36) ]", "stream(2)[ DFT(8 x 16) ]",
                           "stream(1)[ DFT(16) ]", "stream(3)[ I(9) (x) DFT(3) ]"})
    for (int buffers : {1, 2, 3, 5}) {
      SCOPED_TRACE(std::string(spec) + " --buffers " + std::to_string(buffers));
      driver::Compilation c = lowered(spec, buffers);
      EXPECT_GT(c.program.loops.dma_tags, 0);
      EXPECT_LT(max_abs_difference(to_dense(c.program.loops), to_dense(c.spec)), 1e-9);
    }
}

// Prologue (B gets), steady state (wait, wait, compute, put, get), epilogue (wait, wait,
// compute, put), the last puts waited for: one get and one put statement per transfer site.
TEST(StreamLowering, MultibufferedLoopStructure) {
  driver::Compilation c = lowered("stream(4)[ I(8) (x) DFT(16) ]", 2);
  Counts n;
  n.include(c.program.loops.body);
  EXPECT_EQ(n.gets, 2);   // the prologue's and the steady state's
  EXPECT_EQ(n.puts, 2);   // the steady state's and the epilogue's
  EXPECT_EQ(n.waits, 6);  // 2 + 2 in the loops, the 2 put tags at the end
  EXPECT_EQ(c.program.loops.dma_tags, 4);
  std::string dump = to_string(c.program.loops);
  for (const char *part : {"buffer local", ": local complex[64]", "dma_get local", "dma_put", "dma_wait tag 2",
                           "dma_wait tag 3"})
    EXPECT_NE(dump.find(part), std::string::npos) << part << "\n" << dump;
  EXPECT_EQ(local_memory_bytes(c.program.loops, 8), 2 * 2 * 32 * 16);
}

// Vector loops inside each top-level loop of the program (the prologue, steady state, epilogue).
std::vector<int> vector_loops_per_part(const Stmt &body) {
  struct VectorLoops : LoopVisitor {
    int n = 0;
    void visit_for(const Stmt &s) override { n += s->vector_width > 1, LoopVisitor::visit_for(s); }
  };
  std::vector<int> out;
  for (const Stmt &part : statements_of(body))
    if (part->kind == StmtKind::For) {
      VectorLoops v;
      v.include(part);
      out.push_back(v.n);
    }
  return out;
}

// The steady state and the epilogue are two copies of the chunk's compute: each with scalars of
// its own, so the vectoriser sees neither copy's scalars read outside it and vectorises both
// (both stayed scalar before: 0.41x -> 0.53x FFTW for tiled(16)[DFT(4096 x 4096)], Zen 3).
TEST(StreamLowering, BothCopiesOfTheComputeAreVectorised) {
  for (const char *spec : {"stream(4)[ DFT(32) (x) I(8) ]", "stream(4)[ I(8) (x) DFT(16) ]", "tiled(4)[ DFT(16 x 16) ]"}) {
    SCOPED_TRACE(spec);
    driver::GenOptions o;
    o.isa = Isa::Avx2;
    driver::Compilation c = driver::start(spec, o);
    driver::run_until(c, driver::Stage::Loops);
    std::vector<int> parts = vector_loops_per_part(c.program.loops.body);
    ASSERT_GE(parts.size(), 3u);
    EXPECT_EQ(parts[0], 0);  // the prologue: transfers only
    EXPECT_GT(parts[1], 0);
    EXPECT_EQ(parts[1], parts[2]);
    EXPECT_LT(max_abs_difference(to_dense(c.program.loops), to_dense(c.spec)), 1e-9);
  }
}

// The top Cooley-Tukey split of stream(s)[DFT(n)]: a split whose smaller factor gives packets
// of fewer than 4 elements per chunk is as balanced as s allows (DFT(2^24) with s = 1024: 4096 x
// 4096, not 1024 x 16384, whose first pass got single elements); others are left to the cost.
TEST(StreamLowering, TopSplitGivesPacketsOfACacheLine) {
  auto top_twiddle = [](const std::string &spec) {  // T(n, second factor) of the top split
    driver::Compilation c = driver::start(spec, driver::GenOptions{});
    driver::run_until(c, driver::Stage::Expand);
    std::string f = print(c.expansion.formula), n = std::to_string(c.spec->rows);
    std::size_t at = f.find(" T(" + n + ",");
    return at == std::string::npos ? f : f.substr(at + 1, f.find(')', at) - at);
  };
  EXPECT_EQ(top_twiddle("stream(1024)[ DFT(16777216) ]"), "T(16777216,4096)");
  EXPECT_EQ(top_twiddle("stream(512)[ DFT(4194304) ]"), "T(4194304,2048)");
  EXPECT_EQ(top_twiddle("stream(16)[ DFT(4096) ]"), "T(4096,64)");    // 32 x 128: packets of 2
  EXPECT_EQ(top_twiddle("stream(4)[ DFT(4096) ]"), "T(4096,128)");    // packets of 8 and 32: the cost's choice
}

TEST(StreamLowering, TooSmallLocalMemoryAndNoBuffersAreErrors) {
  EXPECT_NO_THROW(lowered("stream(4)[ I(8) (x) DFT(16) ]", 2, 2 * 2 * 32 * 16));
  try {
    lowered("stream(4)[ I(8) (x) DFT(16) ]", 2, 2 * 2 * 32 * 16 - 1);
    FAIL() << "no error";
  } catch (const FormulaError &e) {
    EXPECT_STREQ(e.what(), "local memory of 2047 bytes is too small: a streamed chunk of 32 complex in and 32 out, "
                           "2 buffers need 2048 bytes");
  }
  EXPECT_THROW(lowered("stream(4)[ I(8) (x) DFT(16) ]", 0), FormulaError);
}

TEST(DmaRuns, ContiguousChunkIsOneTransfer) {  // eq. (9): q(k, 1, m mu)
  LoopVar k{0, 4};
  lower::DmaRuns r = lower::dma_runs(fn_q(32, 128, Affine::var(k), 1, 32), k);
  EXPECT_EQ(r.block, 32);
  EXPECT_EQ(r.count, 1);
  EXPECT_TRUE(r.strided);
}

TEST(DmaRuns, PacketsAtStrideAreOneListAndAdjacentPacketsMerge) {  // eq. (10): q(k, s, mu)
  LoopVar k{0, 4};
  lower::DmaRuns r = lower::dma_runs(fn_q(32, 128, Affine::var(k), 4, 4), k);
  EXPECT_EQ(r.block, 4);
  EXPECT_EQ(r.count, 8);
  EXPECT_EQ(r.stride, 16);
  EXPECT_TRUE(r.strided);
  // packets of 4 whose packet stride is 1: rows next to each other, one block of 32
  lower::DmaRuns merged = lower::dma_runs(fn_q(32, 128, Affine::var(k, 8), 1, 4), k);
  EXPECT_EQ(merged.block, 32);
  EXPECT_EQ(merged.count, 1);
}

TEST(DmaRuns, IrregularRunsAreALoopOfTransfers) {
  LoopVar k{0, 1};
  lower::DmaRuns r = lower::dma_runs(fn_table({4, 5, 0, 1, 6, 7, 2, 3}), k);
  EXPECT_EQ(r.block, 2);
  EXPECT_EQ(r.count, 4);
  EXPECT_FALSE(r.strided);
  Stmt s = lower::dma_transfer(true, kInputBuffer, fn_table({4, 5, 0, 1, 6, 7, 2, 3}), k, 2, idx_const(0), idx_const(0), 9);
  ASSERT_EQ(s->kind, StmtKind::For);
  EXPECT_EQ(s->var.extent, 4);
  EXPECT_EQ(s->loop_body->kind, StmtKind::Dma);
  EXPECT_EQ(s->loop_body->dma.block, 2);
}

}  // namespace
}  // namespace splgen
