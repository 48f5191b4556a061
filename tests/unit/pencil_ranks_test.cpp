// Pencil kernels (lower/pencil_ranks.h, docs/mpi.md "Pencils"): the grid rule, the
// distribution of x and y, and each rank's steps simulated on one process against the spec's
// dense matrix, after the merge and after the loops stage, with and without --overlap.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "generator/driver/pipeline.h"
#include "generator/driver/scale_model.h"
#include "generator/ir/dense.h"
#include "tests/support/rank_test_support.h"

namespace splgen::driver {
namespace {

using testing::max_error;
std::vector<cplx> random_vector(int64_t n) { return testing::random_vector(n, 104729); }

TEST(PencilGrid, TheSquarestThatFits) {
  using G = std::array<int, 2>;
  EXPECT_EQ(lower::pencil_grid({8, 8, 8}, 4), (G{2, 2}));
  EXPECT_EQ(lower::pencil_grid({8, 8, 8}, 8), (G{2, 4}));
  EXPECT_EQ(lower::pencil_grid({8, 8, 8}, 2), (G{1, 2}));
  EXPECT_EQ(lower::pencil_grid({6, 6, 6}, 6), (G{2, 3}));
  EXPECT_EQ(lower::pencil_grid({12, 6, 5}, 6), (G{6, 1}));  // 5: only p1 = 1 divides r
  EXPECT_EQ(lower::pencil_grid({8, 8, 8}, 4, {4, 1}), (G{4, 1}));
  EXPECT_THROW(lower::pencil_grid({6, 6, 9}, 4), FormulaError);        // 1x4, 2x2, 4x1: none fits
  EXPECT_THROW(lower::pencil_grid({8, 8, 8}, 4, {2, 4}), FormulaError);  // 8 ranks, not 4
  EXPECT_THROW(lower::pencil_grid({8, 8, 6}, 4, {1, 4}), FormulaError);  // p1 = 4 does not divide r = 6
}

// Every point of x and of y is on exactly one rank (the header comment's boxes tile the array).
TEST(PencilGrid, TheBoxesTileTheArray) {
  RankShape s;
  s.ranks = 6, s.dims = {6, 12, 9}, s.grid = {2, 3}, s.points = 6 * 12 * 9, s.local = s.points / 6;
  for (bool input : {true, false}) {
    std::set<int64_t> seen;
    for (int64_t k = 0; k < s.ranks; ++k)
      for (int64_t o = 0; o < s.local; ++o) seen.insert(global_index(s, input, k, o));
    EXPECT_EQ(int64_t(seen.size()), s.points);
    EXPECT_EQ(*seen.rbegin(), s.points - 1);
  }
  // x: rank (1, 2) = rank 5 starts at row 3 of m, row 8 of n; y: at row 6 of n, column 6 of r
  EXPECT_EQ(global_index(s, true, 5, 0), (3 * 12 + 8) * 9);
  EXPECT_EQ(global_index(s, false, 5, 0), 6 * 9 + 6);
}

struct Case {
  std::string spec;
  int ranks;
  std::array<int, 2> grid;  // {0, 0}: the rule's
  int exchanges;
  Precision precision;
  int overlap = 1;  // --overlap K
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.spec << " on " << c.ranks << " ranks"; }

class PencilKernel : public ::testing::TestWithParam<Case> {};

TEST_P(PencilKernel, EveryRanksStepsMeanTheSpec) {
  const Case &c = GetParam();
  GenOptions o;
  o.target = "mpi", o.ranks = c.ranks, o.decomposition = lower::Decomposition::Pencil, o.grid = c.grid;
  o.precision = c.precision, o.overlap = c.overlap;
  Compilation k = start(c.spec, o);
  run_until(k, Stage::Code);
  ASSERT_TRUE(k.distributed);
  ASSERT_TRUE(k.program.ranks);
  EXPECT_GT(k.distributed->grid[0], 0);
  EXPECT_EQ(k.distributed->exchanges(), c.exchanges) << print(*k.distributed);
  const std::vector<cplx> x = random_vector(k.spec->cols);
  const std::vector<cplx> want = apply_matrix(to_dense(k.spec), x);
  EXPECT_LT(max_error(lower::simulate_ranks(*k.distributed, x), want), 1e-9) << print(*k.distributed);
  EXPECT_LT(max_error(interpret(k.program, x), want), 1e-9) << to_string(k.program);
  EXPECT_NE(k.source.find("MPI_Comm_split"), std::string::npos);
  EXPECT_NE(k.source.find("local_1_start"), std::string::npos);  // the distribution, in the header comment
  EXPECT_EQ(k.source.find("MPI_Ialltoall") != std::string::npos, c.overlap > 1);
}

INSTANTIATE_TEST_SUITE_P(
    Specs, PencilKernel,
    ::testing::Values(Case{"DFT(8 x 8 x 8)", 4, {0, 0}, 2, Precision::Double},
                      Case{"DFT(4 x 6 x 6, -1)", 4, {2, 2}, 2, Precision::Double},
                      Case{"DFT(6 x 6 x 9)", 6, {2, 3}, 2, Precision::Float},
                      Case{"DFT(8 x 4 x 6)", 2, {0, 0}, 1, Precision::Double},   // 1 x 2: rows only
                      Case{"DFT(8 x 4 x 6)", 2, {2, 1}, 1, Precision::Double},   // 2 x 1: columns only
                      Case{"par(4,1)[DFT(4 x 8 x 4)]", 0, {0, 0}, 2, Precision::Double},
                      // --overlap: the first two stages and both exchanges in chunks
                      Case{"DFT(8 x 8 x 8)", 4, {0, 0}, 2, Precision::Double, 2},
                      Case{"DFT(8 x 4 x 6, -1)", 2, {0, 0}, 1, Precision::Double, 4},
                      Case{"DFT(8 x 4 x 6)", 2, {2, 1}, 1, Precision::Float, 2},
                      Case{"DFT(6 x 6 x 9)", 6, {2, 3}, 2, Precision::Double, 3}));

TEST(PencilKernelErrors, RefusedInOneLine) {
  GenOptions o;
  o.target = "mpi", o.ranks = 4, o.decomposition = lower::Decomposition::Pencil;
  EXPECT_THROW(run_pipeline("DFT(64 x 64)", o), FormulaError);     // not 3D
  EXPECT_THROW(run_pipeline("DFT(6 x 6 x 9)", o), FormulaError);   // no grid of 4 fits
  o.grid = {2, 4};
  EXPECT_THROW(run_pipeline("DFT(8 x 8 x 8)", o), FormulaError);   // 8 ranks
  o.grid = {0, 0}, o.distribution = lower::Distribution::Cyclic;
  EXPECT_THROW(run_pipeline("DFT(8 x 8 x 8)", o), FormulaError);   // pencils have their own
  o.distribution = lower::Distribution::Block, o.target = "cpp", o.ranks = 1;
  EXPECT_THROW(run_pipeline("DFT(8 x 8 x 8)", o), FormulaError);   // one process
  o.target = "mpi", o.ranks = 4, o.decomposition = lower::Decomposition::Slab, o.grid = {2, 2};
  EXPECT_THROW(run_pipeline("DFT(8 x 8 x 8)", o), FormulaError);   // --grid without pencils
  o.grid = {0, 0}, o.overlap = 4;
  EXPECT_THROW(run_pipeline("DFT(64)", o), FormulaError);          // no 64 = m n with 16 | m, n (overlap_1d_test.cpp)
  o.decomposition = lower::Decomposition::Pencil, o.overlap = 3;
  EXPECT_THROW(run_pipeline("DFT(8 x 8 x 8)", o), FormulaError);   // 3 does not divide m/p0 = 4
}

// The scale model of a pencil kernel: each exchange within a row or column of the grid (g - 1
// latencies, (g - 1)/g of the part), the DFTs' work and no more, chunks counted whole.
TEST(PencilModel, ExchangesWithinTheGridsRowsAndColumns) {
  GenOptions o;
  o.target = "mpi", o.decomposition = lower::Decomposition::Pencil;
  const Machine m{10, 10, 12.5, 2};
  const Prediction p = predict("DFT(64 x 64 x 64)", o, 8, m);  // 2 x 4
  EXPECT_EQ(p.grid, (std::array<int, 2>{2, 4}));
  const double bytes = 16.0 * 64 * 64 * 64 / 8;
  std::vector<double> exchanges;
  for (const StepTime &s : p.steps)
    if (s.exchange) exchanges.push_back(s.seconds);
  ASSERT_EQ(exchanges.size(), 2u);
  EXPECT_NEAR(exchanges[0], 3 * 2e-6 + bytes * 3 / 4 / 12.5e9, 1e-12);  // a row: 4 ranks
  EXPECT_NEAR(exchanges[1], 1 * 2e-6 + bytes * 1 / 2 / 12.5e9, 1e-12);  // a column: 2 ranks
  // 5 N log2 N / P pseudo-flops, plus the twiddles of the DFT(64)s' own splits; no permutation
  // step (the slab kernel has one)
  const double dft = 5.0 * 64 * 64 * 64 * 18 / 8 / 10e9;
  EXPECT_GE(p.compute, dft);
  EXPECT_LE(p.compute, 1.25 * dft);
  o.decomposition = lower::Decomposition::Slab;
  EXPECT_GT(predict("DFT(64 x 64 x 64)", o, 8, m).compute, p.compute);
  o.decomposition = lower::Decomposition::Pencil, o.overlap = 4;
  EXPECT_NEAR(predict("DFT(64 x 64 x 64)", o, 8, m).compute, p.compute, 1e-3 * p.compute);
}

}  // namespace
}  // namespace splgen::driver
