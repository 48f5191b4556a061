// Uneven slab kernels (lower/uneven_slabs.h, docs/mpi.md "Uneven slabs"): 2D and 3D DFTs whose
// ranks do not divide m or a row of m, in FFTW-MPI's default distribution. Every rank's steps,
// simulated on one process with NaN in every padding position the exchanges do not fill (so any
// padding that reaches y's rows shows), and the loop programs, against the spec's dense matrix;
// the distribution FFTW-MPI's; MPI_Alltoallv only where the split is uneven; the refusals.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "tests/support/rank_test_support.h"

namespace splgen::driver {
namespace {

using testing::max_error;
using Case = testing::OverlapCase;  // overlap 1: the uneven kernels are not chunked

bool finite(const std::vector<cplx> &v) {
  for (const cplx &c : v)
    if (!std::isfinite(c.real()) || !std::isfinite(c.imag())) return false;
  return true;
}

class UnevenSlabs : public ::testing::TestWithParam<Case> {};

TEST_P(UnevenSlabs, EveryRanksStepsMeanTheSpec) {
  const Case &c = GetParam();
  Compilation k = start(c.spec, testing::overlap_options(c.ranks, 1, c.precision));
  run_until(k, Stage::Code);
  ASSERT_TRUE(k.distributed);
  ASSERT_TRUE(k.program.ranks);
  const lower::RankProgram &p = *k.distributed;
  EXPECT_EQ(p.exchanges(), 2) << print(p);
  const int64_t m = p.slab_rows, a0 = p.row_block, P = p.ranks;
  ASSERT_GT(m, 0) << print(p);
  EXPECT_EQ(a0, (m + P - 1) / P);  // FFTW-MPI's default block
  EXPECT_EQ(p.row_points * m, k.spec->rows);
  int64_t rows = 0;
  for (int64_t r = 0; r < P; ++r) {
    rows += p.rows_of(r);
    EXPECT_LE(p.rows_of(r), a0);
  }
  EXPECT_EQ(rows, m);
  const std::vector<cplx> x = testing::random_vector(k.spec->cols, 7919);
  const std::vector<cplx> want = apply_matrix(to_dense(k.spec), x);
  const std::vector<cplx> simulated = lower::simulate_ranks(p, x), loops = interpret(k.program, x);
  EXPECT_TRUE(finite(simulated)) << "padding reached y's rows\n" << print(p);
  EXPECT_TRUE(finite(loops)) << "padding reached y's rows\n" << to_string(k.program);
  EXPECT_LT(max_error(simulated, want), 1e-9) << print(p);
  EXPECT_LT(max_error(loops, want), 1e-9) << to_string(k.program);
  // one MPI_Alltoallv per exchange, no MPI_Alltoall; the allocation in the header comment
  EXPECT_EQ(k.source.find("MPI_Alltoall("), std::string::npos);
  std::size_t v = 0, at = 0;
  while ((at = k.source.find("MPI_Alltoallv(", at)) != std::string::npos) ++v, ++at;
  EXPECT_EQ(v, 2u);
  EXPECT_NE(k.source.find(fmt::format("local_n0 = min({}, max(0, {} - k*{})), local_0_start = k*{}", a0, m, a0, a0)),
            std::string::npos) << testing::distribution(k.source);
  EXPECT_NE(k.source.find(fmt::format("// allocation: x and y each of {} complex values", a0 * p.row_points)), std::string::npos);
  const std::string merged = print(p);
  EXPECT_NE(merged.find("the sender's rows of each block (MPI_Alltoallv)"), std::string::npos) << merged;
}

INSTANTIATE_TEST_SUITE_P(Specs, UnevenSlabs,
                         ::testing::Values(Case{"DFT(10 x 12)", 3, 1}, Case{"DFT(10 x 12, -1)", 3, 1, Precision::Float},
                                           Case{"DFT(7 x 9)", 4, 1}, Case{"DFT(7 x 9, -1)", 4, 1},
                                           Case{"DFT(5 x 6 x 7)", 3, 1}, Case{"DFT(5 x 6 x 7, -1)", 3, 1, Precision::Float},
                                           Case{"DFT(2 x 9)", 3, 1},          // P > m: rank 2 holds no row
                                           Case{"DFT(3 x 4 x 5, -1)", 4, 1},  // P > m, and R = 20 on 4
                                           Case{"DFT(12 x 10)", 4, 1},        // P | m, not R
                                           Case{"DFT(5 x 4)", 4, 1},          // P | R, not m; rank 3 holds no row
                                           Case{"DFT(9 x 2)", 3, 1},          // P > R: rank 2 holds no column
                                           Case{"par(3,1)[DFT(8 x 5)]", 0, 1}));

// FFTW-MPI's default: 100 rows on 3 ranks are 34, 34, 32; 5 on 4 are 2, 2, 1, 0.
TEST(UnevenSlabs, RowsAreFftwMpisDefault) {
  for (const auto &[spec, ranks, want] : std::vector<std::tuple<std::string, int, std::vector<int64_t>>>{
           {"DFT(100 x 100)", 3, {34, 34, 32}}, {"DFT(5 x 6)", 4, {2, 2, 1, 0}}, {"DFT(2 x 9)", 3, {1, 1, 0}}}) {
    Compilation k = start(spec, testing::overlap_options(ranks, 1));
    run_until(k, Stage::Merge);
    std::vector<int64_t> rows;
    for (int r = 0; r < ranks; ++r) rows.push_back(k.distributed->rows_of(r));
    EXPECT_EQ(rows, want) << spec;
  }
}

// Even splits keep the par rules' kernel and MPI_Alltoall.
TEST(UnevenSlabs, EvenSplitsStayBlocks) {
  for (const std::string spec : {"DFT(12 x 6)", "DFT(12 x 9 x 10)"}) {
    Compilation k = start(spec, testing::overlap_options(3, 1));
    run_until(k, Stage::Code);
    EXPECT_EQ(k.distributed->slab_rows, 0) << spec;
    EXPECT_EQ(k.source.find("MPI_Alltoallv"), std::string::npos) << spec;
    EXPECT_NE(k.source.find("MPI_Alltoall("), std::string::npos) << spec;
  }
}

// One line each: --overlap and the cyclic distribution with an uneven split, a 1D DFT(N) with no
// split N = m n that the ranks divide (the message says what is needed).
TEST(UnevenSlabs, RefusedInOneLine) {
  const auto message = testing::refusal;
  const std::string overlap = message("DFT(10 x 12)", testing::overlap_options(3, 2));
  EXPECT_NE(overlap.find("--overlap 2"), std::string::npos) << overlap;
  EXPECT_NE(overlap.find("uneven"), std::string::npos) << overlap;
  GenOptions cyclic = testing::overlap_options(3, 1);
  cyclic.distribution = lower::Distribution::Cyclic;
  const std::string cyc = message("DFT(10 x 12)", cyclic);
  EXPECT_NE(cyc.find("--distribution cyclic"), std::string::npos) << cyc;
  const std::string one = message("DFT(24)", testing::overlap_options(4, 1));
  EXPECT_NE(one.find("24 = m n with 4 dividing both m and n (4^2 = 16 dividing 24)"), std::string::npos) << one;
  const std::string pencil = [&] {
    GenOptions o = testing::overlap_options(3, 1);
    o.decomposition = lower::Decomposition::Pencil;
    return message("DFT(10 x 12 x 4)", o);
  }();
  EXPECT_NE(pencil, "accepted");
  for (const std::string &e : {overlap, cyc, one, pencil}) EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

}  // namespace
}  // namespace splgen::driver
