// Slab kernels with --overlap K (lower/pencil_ranks.h distribute_slabs, docs/mpi.md "Overlap"):
// each rank's chunked steps, simulated on one process, against the spec's dense matrix after the
// merge and after the loops stage; x and y distributed exactly as without overlap; the chunks
// that do not divide refused.
#include <gtest/gtest.h>

#include <random>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "tests/support/rank_test_support.h"

namespace splgen::driver {
namespace {

using testing::max_error;
std::vector<cplx> random_vector(int64_t n) { return testing::random_vector(n, 15485863); }

using testing::distribution;
using Case = testing::OverlapCase;
GenOptions options(int ranks, int overlap, Precision precision = Precision::Double) {
  return testing::overlap_options(ranks, overlap, precision);
}

class SlabOverlap : public ::testing::TestWithParam<Case> {};

TEST_P(SlabOverlap, EveryRanksChunkedStepsMeanTheSpec) {
  const Case &c = GetParam();
  Compilation k = start(c.spec, options(c.ranks, c.overlap, c.precision));
  run_until(k, Stage::Code);
  ASSERT_TRUE(k.distributed);
  ASSERT_TRUE(k.program.ranks);
  const lower::RankProgram &p = *k.distributed;
  EXPECT_EQ(p.exchanges(), 2) << print(p);
  EXPECT_EQ(p.grid[0], 0);  // slabs: x and y in blocks
  int chunked = 0, columns = 0;
  for (const lower::RankStep &s : p.steps) chunked += s.chunks == c.overlap, columns += s.column_offset > 0;
  EXPECT_EQ(chunked, 4) << print(p);  // every step but the last permutation
  EXPECT_EQ(columns, 1) << print(p);  // DFT(m), on chunks of columns
  const std::vector<cplx> x = random_vector(k.spec->cols);
  const std::vector<cplx> want = apply_matrix(to_dense(k.spec), x);
  EXPECT_LT(max_error(lower::simulate_ranks(p, x), want), 1e-9) << print(p);
  EXPECT_LT(max_error(interpret(k.program, x), want), 1e-9) << to_string(k.program);
  EXPECT_NE(k.source.find("MPI_Ialltoall"), std::string::npos);
  EXPECT_NE(k.source.find("*const u = "), std::string::npos);  // the second exchange's own receive buffer
  // the same distribution of x and y as the kernel without overlap
  Compilation plain = start(c.spec, options(c.ranks, 1, c.precision));
  run_until(plain, Stage::Code);
  EXPECT_EQ(distribution(k.source), distribution(plain.source));
  EXPECT_EQ(distribution(k.source).find("none"), std::string::npos);
  EXPECT_EQ(plain.source.find("MPI_Ialltoall"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Specs, SlabOverlap,
                         ::testing::Values(Case{"DFT(8 x 8)", 2, 2}, Case{"DFT(16 x 8, -1)", 2, 4},
                                           Case{"DFT(12 x 6)", 3, 2, Precision::Float}, Case{"DFT(8 x 16)", 4, 2},
                                           Case{"DFT(8 x 4 x 6)", 2, 2}, Case{"DFT(8 x 8 x 8, -1)", 2, 4},
                                           Case{"DFT(12 x 6 x 4)", 3, 2, Precision::Float},
                                           Case{"DFT(8 x 4 x 8)", 4, 2}, Case{"par(2,1)[DFT(16 x 4)]", 0, 2}));

// K must divide the rows of m a rank holds and its columns after the first exchange: one line
// naming both; the cyclic distribution is refused (1D kernels: overlap_1d_test.cpp).
TEST(SlabOverlapErrors, RefusedInOneLine) {
  const auto message = testing::refusal;
  const std::string rows = message("DFT(8 x 8)", options(2, 3));  // 3 does not divide m/p = 4
  EXPECT_NE(rows.find("--overlap 3"), std::string::npos) << rows;
  EXPECT_NE(rows.find("4 rows of m"), std::string::npos) << rows;
  EXPECT_EQ(rows.find('\n'), std::string::npos) << rows;
  const std::string cols = message("DFT(16 x 4)", options(2, 4));  // 4 divides m/p = 8, not n/p = 2
  EXPECT_NE(cols.find("2 columns"), std::string::npos) << cols;
  GenOptions cyclic = options(2, 2);
  cyclic.distribution = lower::Distribution::Cyclic;
  EXPECT_NE(message("DFT(8 x 8)", cyclic), "accepted");
}

}  // namespace
}  // namespace splgen::driver
