// Vector loops over split-format buffers (backends/simd/split_helpers.h) and the lane order
// each loop runs in (backends/simd/lane_orders.h). The kernel tests (IoLayoutKernels) run
// these kernels against FFTW and the long-double reference.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "backends/simd/lane_orders.h"
#include "backends/simd/split_helpers.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/loops.h"
#include "tests/support/generated_source.h"

namespace splgen {
namespace {

std::string split_source(const std::string &spec, Isa isa, Precision precision = Precision::Double) {
  return test::generated_source(spec, isa, precision, true);
}

// Lines of the kernel body (after the helpers) containing `text`.
int body_lines_with(const std::string &source, const std::string &text) {
  std::istringstream in(source.substr(source.find("extern \"C\"")));
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.find(text) != std::string::npos;
  return n;
}

// x and y split, t a table, z an interleaved temporary; loops of 4 lanes over i.
Function split_function(Stmt body) {
  Function f;
  f.name = "k", f.rows = f.cols = 8;
  f.buffers.push_back(Buffer{0, BufferRole::Input, 8, "x", {}});
  f.buffers.push_back(Buffer{1, BufferRole::Output, 8, "y", {}});
  f.buffers.push_back(Buffer{2, BufferRole::Table, 8, "t", std::vector<cplx>(8, cplx(1, 0))});
  f.buffers.push_back(Buffer{3, BufferRole::Temp, 8, "z", {}});
  f.buffers[0].split = f.buffers[1].split = true;
  f.body = std::move(body);
  return f;
}

// buffer `to`[i] = x[i] * `from`[i] (real parts)
Stmt product(LoopVar v, int to, int from) {
  Idx i = idx_affine(Affine::var(v));
  return make_vector_for(v, make_store(to, i, 0, e_mul(e_load(0, i, 0), e_load(from, i, 0))), 4);
}

TEST(LaneOrders, SplitLoopsRunInNaturalOrder) {
  LoopVar i{0, 8}, j{1, 8};
  const std::map<int, int> presplit = {{2, 4}};
  // y = x t: only split buffers and a presplit table, so natural, and the table with it
  Stmt a = product(i, 1, 2);
  backends::simd::LaneOrders o = backends::simd::plan_lane_orders(split_function(a), presplit);
  EXPECT_EQ(1u, o.natural_loops.count(a.get()));
  EXPECT_EQ(std::set<int>{2}, o.natural_tables);
  // z = x t: the interleaved store needs the interleaved order
  Stmt b = product(i, 3, 2);
  o = backends::simd::plan_lane_orders(split_function(b), presplit);
  EXPECT_TRUE(o.natural_loops.empty());
  EXPECT_TRUE(o.natural_tables.empty());
  // both: the table is read in the interleaved order, so neither loop runs naturally
  Stmt c = product(j, 1, 2);
  o = backends::simd::plan_lane_orders(split_function(make_block({b, c})), presplit);
  EXPECT_TRUE(o.natural_loops.empty());
  EXPECT_TRUE(o.natural_tables.empty());
  // y = x x reads no table: natural beside the interleaved loop
  Stmt d = product(j, 1, 0);
  o = backends::simd::plan_lane_orders(split_function(make_block({b, d})), presplit);
  EXPECT_EQ(std::set<const StmtNode *>{d.get()}, o.natural_loops);
  // an interleaved kernel keeps its order (and its bytes)
  Function interleaved = split_function(a);
  interleaved.buffers[0].split = interleaved.buffers[1].split = false;
  EXPECT_TRUE(backends::simd::plan_lane_orders(interleaved, presplit).natural_loops.empty());
}

TEST(SplitVectors, KernelsReadAndWriteWholeRegisters) {
  // DFT(64) = 8 x 8: both stages vectorised, every access of x and y a register of one part
  const std::string avx2 = split_source("DFT(64)", Isa::Avx2);
  EXPECT_GT(body_lines_with(avx2, "_mm256_loadu_pd(xr"), 0);
  EXPECT_GT(body_lines_with(avx2, "splgen_storegs_d4(yi"), 0);
  EXPECT_EQ(0, body_lines_with(avx2, "= xr["));  // no scalar reads
  EXPECT_EQ(0, body_lines_with(avx2, "yr["));  // no scalar writes
  for (Isa isa : {Isa::Sse2, Isa::Avx512})
    for (Precision p : {Precision::Double, Precision::Float}) {
      const std::string text = split_source("DFT(64)", isa, p);
      EXPECT_EQ(0, body_lines_with(text, "= xr[")) << isa_name(isa);
      EXPECT_EQ(0, body_lines_with(text, "= xi[")) << isa_name(isa);
    }
  // DFT(1000): loops that also touch interleaved data permute the split registers
  EXPECT_GT(body_lines_with(split_source("DFT(1000)", Isa::Avx2), "splgen_loads_d4("), 0);
}

TEST(SplitVectors, PermutesMatchTheLaneOrder) {
  using backends::simd::VectorKind;
  auto helpers = [](Precision p, int lanes) { return backends::simd::split_helpers(VectorKind{p, lanes, true}, ""); };
  // AVX2: lanes 0 2 1 3 (double) and pairs 0 2 1 3 (float) are vpermpd 0xD8, its own inverse
  EXPECT_NE(std::string::npos, helpers(Precision::Double, 4).find("return _mm256_permute4x64_pd(_mm256_loadu_pd(p), 0xD8);"));
  EXPECT_NE(std::string::npos, helpers(Precision::Double, 4).find("_mm256_storeu_pd(p, _mm256_permute4x64_pd(v, 0xD8));"));
  EXPECT_NE(std::string::npos, helpers(Precision::Float, 8).find("_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_loadu_ps(p)), 0xD8)"));
  // AVX-512: register unit u holds memory unit 0 4 1 5 2 6 3 7 (set_epi64 lists unit 7 first);
  // the store puts memory unit m from register unit 0 2 4 6 1 3 5 7
  for (auto [p, lanes] : {std::pair{Precision::Double, 8}, std::pair{Precision::Float, 16}}) {
    const std::string text = helpers(p, lanes);
    EXPECT_NE(std::string::npos, text.find("_mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0)")) << lanes;
    EXPECT_NE(std::string::npos, text.find("_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0)")) << lanes;
  }
  // 128 bits: the interleaved order is the natural one
  EXPECT_NE(std::string::npos, helpers(Precision::Double, 2).find("return _mm_loadu_pd(p);"));
  EXPECT_NE(std::string::npos, helpers(Precision::Float, 4).find("return _mm_loadu_ps(p);"));
}

}  // namespace
}  // namespace splgen
