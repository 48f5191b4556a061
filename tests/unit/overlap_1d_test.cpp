// 1D kernels with --overlap K (lower/pencil_ranks.h distribute_1d, docs/mpi.md "Overlap"): each
// rank's chunked steps, simulated on one process, against the spec's dense matrix after the
// merge and after the loops stage; the chunks of the twiddled stage as workers rank*K + c; x and
// y distributed exactly as without overlap; the chunk counts no split fits refused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "generator/lower/pencil_ranks.h"
#include "generator/lower/spl_to_sigma.h"
#include "tests/support/rank_test_support.h"

namespace splgen::driver {
namespace {

using testing::max_error;
std::vector<cplx> random_vector(int64_t n) { return testing::random_vector(n, 2654435761u); }

using testing::distribution;
using Case = testing::OverlapCase;
GenOptions options(int ranks, int overlap, Precision precision = Precision::Double) {
  return testing::overlap_options(ranks, overlap, precision);
}

class Overlap1d : public ::testing::TestWithParam<Case> {};

TEST_P(Overlap1d, EveryRanksChunkedStepsMeanTheSpec) {
  const Case &c = GetParam();
  Compilation k = start(c.spec, options(c.ranks, c.overlap, c.precision));
  run_until(k, Stage::Code);
  ASSERT_TRUE(k.distributed);
  ASSERT_TRUE(k.program.ranks);
  const lower::RankProgram &p = *k.distributed;
  EXPECT_EQ(p.exchanges(), 3) << print(p);
  EXPECT_EQ(p.grid[0], 0);
  EXPECT_EQ(p.x_packet + p.y_packet, 0);  // blocks
  int chunked = 0, columns = 0, workers = 0;
  for (const lower::RankStep &s : p.steps)
    chunked += s.chunks == c.overlap, columns += s.column_offset > 0, workers += s.chunk_workers;
  EXPECT_EQ(chunked, 6) << print(p);  // every step but the last permutation
  EXPECT_EQ(columns, 2) << print(p);  // the packing of x and DFT(m) read columns of their whole input
  EXPECT_EQ(workers, 1) << print(p);  // the twiddled DFT(n): chunk c of rank k is worker k K + c
  const std::vector<cplx> x = random_vector(k.spec->cols);
  const std::vector<cplx> want = apply_matrix(to_dense(k.spec), x);
  const double tolerance = c.precision == Precision::Float ? 1e-4 : 1e-9;
  EXPECT_LT(max_error(lower::simulate_ranks(p, x), want), 1e-9) << print(p);
  EXPECT_LT(max_error(interpret(k.program, x), want), tolerance) << to_string(k.program);
  EXPECT_NE(k.source.find("MPI_Ialltoall"), std::string::npos);
  EXPECT_NE(k.source.find(fmt::format("rank * {} + c);", c.overlap)), std::string::npos);  // the chunk's worker
  // a rank computes the twiddles of all its chunks together, once (not one slice per chunk call)
  EXPECT_NE(k.source.find(fmt::format("const long rank = worker / {};", c.overlap)), std::string::npos);
  // the same distribution of x and y as the kernel without overlap
  Compilation plain = start(c.spec, options(c.ranks, 1, c.precision));
  run_until(plain, Stage::Code);
  EXPECT_EQ(distribution(k.source), distribution(plain.source));
  EXPECT_EQ(distribution(k.source).find("none"), std::string::npos);
  EXPECT_EQ(plain.source.find("MPI_Ialltoall"), std::string::npos);
  EXPECT_EQ(plain.source.find("const long rank = worker / "), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Specs, Overlap1d,
                         ::testing::Values(Case{"DFT(64)", 2, 2}, Case{"DFT(256, -1)", 2, 4}, Case{"DFT(512)", 2, 2},
                                           Case{"DFT(144)", 3, 2, Precision::Float}, Case{"DFT(324, -1)", 3, 3},
                                           Case{"DFT(256)", 4, 2}, Case{"DFT(1024)", 4, 4, Precision::Float},
                                           Case{"par(2,1)[DFT(256)]", 0, 4}));

// The split: the preferred n (the par rules') where p K divides n and N/n, else the most even one.
TEST(Overlap1dSplit, PreferredWhereItFitsElseTheMostEven) {
  const auto lower_compute = [](const Spl &s) { return lower::lower_to_sigma(s); };
  const Spl spec = make_dft(64);
  const std::vector<cplx> x = random_vector(64);
  const std::vector<cplx> want = apply_matrix(to_dense(spec), x);
  for (const auto &[preferred, twiddles] : {std::pair<int64_t, const char *>{16, "T(64,16)"}, {2, "T(64,8)"}, {0, "T(64,8)"}}) {
    const lower::RankProgram p = lower::distribute_1d(spec, 2, 2, preferred, lower_compute);
    EXPECT_NE(print(p).find(twiddles), std::string::npos) << preferred << "\n" << print(p);
    EXPECT_LT(max_error(lower::simulate_ranks(p, x), want), 1e-9) << print(p);
  }
}

// No split N = m n with p K dividing m and n: one line naming the numbers; cyclic refused.
TEST(Overlap1dErrors, RefusedInOneLine) {
  const auto message = testing::refusal;
  const std::string big = message("DFT(64)", options(2, 8));  // 16 | m and 16 | n: 256 points at least
  EXPECT_NE(big.find("--overlap 8"), std::string::npos) << big;
  EXPECT_NE(big.find("DFT(64) on 2 ranks"), std::string::npos) << big;
  EXPECT_NE(big.find("2*8 = 16"), std::string::npos) << big;
  EXPECT_EQ(big.find('\n'), std::string::npos) << big;
  const std::string odd = message("DFT(256)", options(2, 3));  // 6 divides no power of two
  EXPECT_NE(odd.find("--overlap 3"), std::string::npos) << odd;
  EXPECT_NE(odd.find("2*3 = 6"), std::string::npos) << odd;
  GenOptions cyclic = options(2, 2);
  cyclic.distribution = lower::Distribution::Cyclic;
  const std::string c = message("DFT(256)", cyclic);
  EXPECT_NE(c.find("cyclic"), std::string::npos) << c;
  EXPECT_EQ(c.find('\n'), std::string::npos) << c;
}

}  // namespace
}  // namespace splgen::driver
