// How the SIMD backend lays out what vector loops read: presplit twiddle tables
// (backends/simd/presplit_tables.h), 512-bit loads in 256-bit halves after 256-bit stores
// (backends/cpp/cpp_backend.cpp, last_store_bytes), lanes through division and remainder
// (backends/simd/lane_step.h). The kernel tests run these kernels.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "backends/simd/lane_step.h"
#include "backends/simd/presplit_tables.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/loops.h"
#include "tests/support/generated_source.h"
#include "generator/lower/layout_passes.h"

namespace splgen {
namespace {

std::string source(const std::string &spec, Isa isa, Precision precision = Precision::Double) {
  return test::generated_source(spec, isa, precision);
}

// Lines that call `helper` (not its definition) with an argument containing `arg`.
int calls(const std::string &text, const std::string &helper, const std::string &arg = "") {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.find(helper + "(") != std::string::npos && line.find("void ") == std::string::npos &&
        line.find(arg) != std::string::npos)
      ++n;
  return n;
}

// lane_step against evaluation: for var = 0 mod 4 and outer variables, lane l's index minus
// lane 0's is step l whenever a step is claimed; the folded permutation's index has step 1.
TEST(LaneStep, DivisionAndRemainderOfAlignedValues) {
  const LoopVar v{1, 64}, o{2, 8};
  auto affine = [&](int64_t c0, int64_t cv, int64_t co) {
    return idx_affine(Affine::constant(c0) + Affine::var(v, cv) + Affine::var(o, co));
  };
  auto claimed_step_holds = [&](const Idx &x, int64_t step) {
    for (int64_t vo = 0; vo < 64; vo += 4)
      for (int64_t oo = 0; oo < 8; ++oo)
        for (int64_t l = 0; l < 4; ++l)
          if (eval(x, {{1, vo + l}, {2, oo}}) != eval(x, {{1, vo}, {2, oo}}) + step * l) return false;
    return true;
  };
  const Idx a = affine(32, 1, 4096);  // 4096 o + v + 32: 0 mod 4 at lane 0
  // (a / 16 % 8) * 32 + a / 16 / 8 + 2 (a % 16): the shape of L(n, k) (x) I(k) read through a stripe
  const Idx folded = idx_add(idx_add(idx_scale(idx_mod(idx_div(a, 16), 8), 32), idx_div(idx_div(a, 16), 8)),
                             idx_scale(idx_mod(a, 16), 2));
  struct Case {
    Idx x;
    std::optional<int64_t> step;
  } cases[] = {{affine(3, 2, 5), 2},
               {idx_mod(a, 16), 1},
               {idx_div(a, 16), 0},
               {idx_mod(idx_div(a, 16), 8), 0},
               {folded, 2},
               {idx_mod(affine(2, 1, 0), 16), std::nullopt},     // 2 + v: lanes 2..5 cross a multiple of 4
               {idx_mod(affine(0, 1, 6), 16), std::nullopt},     // 6 o + v: not 0 mod 4 for odd o
               {idx_mod(a, 6), std::nullopt},                    // a divisor that is not a multiple of 4
               {idx_mod(affine(0, 2, 0), 16), std::nullopt}};    // two per lane
  for (const Case &c : cases) {
    SCOPED_TRACE(to_string(c.x));
    EXPECT_EQ(backends::simd::lane_step(c.x, v.id, 4), c.step);
    if (c.step) EXPECT_TRUE(claimed_step_holds(c.x, *c.step));
  }
  EXPECT_FALSE(claimed_step_holds(idx_mod(affine(2, 1, 0), 16), 1));  // the refused ones would be wrong
}

// The passes of cubic(4)[DFT(16 x 16 x 16)] in the block layout read and write their pencils
// through U, U', V folded into the DFT stages: whole vectors of 4 lanes, no per-lane loads or
// stores (16 of them before lane_step).
TEST(LaneStep, FoldedLocalPermutationsMoveWholeVectors) {
  driver::GenOptions options;
  options.isa = Isa::Avx2, options.layout = lower::DataLayout::Block;
  std::string text = driver::run_pipeline("cubic(4)[DFT(16 x 16 x 16)]", options).source;
  EXPECT_EQ(calls(text, "splgen_load_d4") + calls(text, "splgen_store_d4"), 0) << text;
  EXPECT_GT(calls(text, "splgen_loadc_d4"), 0);
}

TEST(PresplitTables, ValuesInBlocksOfLanes) {
  std::vector<cplx> v;
  for (int j = 0; j < 9; ++j) v.emplace_back(j, 10 + j);
  // 4 lanes in the AVX double order 0 2 1 3; the ninth entry stays interleaved
  std::vector<double> want = {0, 2, 1, 3, 10, 12, 11, 13, 4, 6, 5, 7, 14, 16, 15, 17, 8, 18};
  EXPECT_EQ(want, backends::simd::presplit_values(v, 4, {0, 2, 1, 3}));
}

Function with_table(Stmt body) {
  Function f;
  f.name = "k", f.rows = f.cols = 8;
  f.buffers.push_back(Buffer{0, BufferRole::Input, 8, "x", {}});
  f.buffers.push_back(Buffer{1, BufferRole::Output, 8, "y", {}});
  f.buffers.push_back(Buffer{2, BufferRole::Table, 8, "t", std::vector<cplx>(8, cplx(1, 0))});
  f.body = std::move(body);
  return f;
}

Stmt times_table(LoopVar v, int64_t offset) {
  Idx i = idx_affine(Affine::var(v) + offset);
  return make_store(1, i, 0, e_mul(e_load(0, i, 0), e_load(2, i, 0)));
}

TEST(PresplitTables, OnlyTablesReadByWholeRegisters) {
  LoopVar i{0, 8}, j{1, 4};
  std::vector<bool> printed = {false, false, true};
  // a vector loop of 4 lanes reading t[i]: presplit in blocks of 4
  EXPECT_EQ((std::map<int, int>{{2, 4}}),
            backends::simd::presplit_tables(with_table(make_vector_for(i, times_table(i, 0), 4)), printed));
  // not at a multiple of the lanes, or also read by scalar code, or not printed: interleaved
  EXPECT_TRUE(backends::simd::presplit_tables(with_table(make_vector_for(j, times_table(j, 2), 4)), printed).empty());
  Stmt both = make_block({make_vector_for(j, times_table(j, 0), 4), make_for(j, times_table(j, 4))});
  EXPECT_TRUE(backends::simd::presplit_tables(with_table(both), printed).empty());
  EXPECT_TRUE(
      backends::simd::presplit_tables(with_table(make_vector_for(i, times_table(i, 0), 4)), {false, false, false}).empty());
}

TEST(SimdLayout, TwiddlesLoadedWithoutShuffles) {
  for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
    std::string text = source("DFT(256)", isa);
    EXPECT_NE(std::string::npos, text.find("real parts, then imaginary parts")) << isa_name(isa);
    EXPECT_EQ(0, calls(text, isa == Isa::Avx512 ? "splgen_loadc_d8" : "splgen_loadc_d4", "t256_16_1")) << isa_name(isa);
  }
}

TEST(SimdLayout, HalvesAfterNarrowStoresInSmallKernels) {
  // DFT(32) = 4 x 8: the 8-column stage reads what the 4-column stage's ymm stores wrote
  EXPECT_EQ(4, calls(source("DFT(32)", Isa::Avx512), "splgen_loadch_d8", "y"));
  // DFT(256): one width throughout; and no halves on AVX2
  EXPECT_EQ(0, calls(source("DFT(256)", Isa::Avx512), "splgen_loadch_d8"));
  EXPECT_EQ(0, calls(source("DFT(32)", Isa::Avx2), "splgen_loadch"));
}

}  // namespace
}  // namespace splgen
