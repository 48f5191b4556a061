// How the SIMD backend lays out what vector loops read: presplit twiddle tables
// (backends/simd/presplit_tables.h) and 512-bit loads in 256-bit halves after 256-bit stores
// (backends/cpp/cpp_backend.cpp, last_store_bytes). The kernel tests run these kernels.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "backends/simd/presplit_tables.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/loops.h"

namespace splgen {
namespace {

std::string source(const std::string &spec, Isa isa, Precision precision = Precision::Double) {
  driver::GenOptions options;
  options.isa = isa;
  options.precision = precision;
  return driver::run_pipeline(spec, options).source;
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
