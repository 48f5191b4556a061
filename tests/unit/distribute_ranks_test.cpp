// Distributed kernels (lower/distribute_ranks.h, docs/mpi.md): each rank's steps, simulated on
// one process, mean the spec: the Sigma-SPL steps after the merge stage and the loop programs
// after the loops stage, for block and cyclic distributions, forward and inverse, 1D and 2D.
#include <gtest/gtest.h>

#include <random>

#include "generator/driver/pipeline.h"
#include "generator/driver/scale_model.h"
#include "generator/ir/dense.h"
#include "tests/support/rank_test_support.h"

namespace splgen::driver {
namespace {

using testing::max_error;
std::vector<cplx> random_vector(int64_t n) { return testing::random_vector(n, 7919); }

struct Case {
  std::string spec;
  int ranks;
  lower::Distribution distribution;
  int exchanges;  // all-to-alls of the program
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.spec << " on " << c.ranks << " ranks"; }

class DistributedKernel : public ::testing::TestWithParam<Case> {};

TEST_P(DistributedKernel, EveryRanksStepsMeanTheSpec) {
  const Case &c = GetParam();
  GenOptions o;
  o.target = "mpi", o.ranks = c.ranks, o.distribution = c.distribution;
  Compilation k = start(c.spec, o);
  run_until(k, Stage::Loops);
  ASSERT_TRUE(k.distributed);
  ASSERT_TRUE(k.program.ranks);
  EXPECT_EQ(k.distributed->exchanges(), c.exchanges) << print(*k.distributed);
  const std::vector<cplx> x = random_vector(k.spec->cols);
  const std::vector<cplx> want = apply_matrix(to_dense(k.spec), x);
  EXPECT_LT(max_error(lower::simulate_ranks(*k.distributed, x), want), 1e-9) << print(*k.distributed);
  EXPECT_LT(max_error(interpret(k.program, x), want), 1e-9) << to_string(k.program);
}

INSTANTIATE_TEST_SUITE_P(
    Specs, DistributedKernel,
    ::testing::Values(Case{"DFT(64)", 2, lower::Distribution::Block, 3}, Case{"DFT(256)", 4, lower::Distribution::Block, 3},
                      Case{"DFT(64)", 2, lower::Distribution::Cyclic, 1}, Case{"DFT(1024)", 4, lower::Distribution::Cyclic, 1},
                      Case{"DFT(144)", 3, lower::Distribution::Block, 3}, Case{"DFT(64,-1)", 4, lower::Distribution::Block, 3},
                      Case{"DFT(16 x 32)", 4, lower::Distribution::Block, 2}, Case{"DFT(12 x 6)", 3, lower::Distribution::Block, 2},
                      Case{"DFT(8 x 4 x 6)", 2, lower::Distribution::Block, 2}, Case{"DFT(8 x 8 x 8)", 4, lower::Distribution::Block, 2},
                      Case{"par(2,4)[DFT(64)]", 0, lower::Distribution::Block, 3}));

TEST(DistributedKernelErrors, RefusedInOneLine) {
  GenOptions o;
  o.target = "mpi";
  EXPECT_THROW(run_pipeline("DFT(64)", o), FormulaError);  // no ranks
  o.ranks = 3;
  EXPECT_THROW(run_pipeline("DFT(64)", o), FormulaError);  // 3 does not divide 64
  o.ranks = 2;
  EXPECT_THROW(run_pipeline("RDFT(64)", o), FormulaError);  // only complex DFTs are distributed
  o.target = "cpp", o.ranks = 2;
  EXPECT_THROW(run_pipeline("DFT(64)", o), FormulaError);  // one process
}

}  // namespace
}  // namespace splgen::driver

namespace splgen::driver {
namespace {

// The scale model (driver/scale_model.h): what it counts, on specs whose counts are known.
TEST(ScaleModel, CountsTheFormulasWorkAndExchanges) {
  GenOptions o;
  o.target = "mpi";
  const Machine m{10, 10, 12.5, 2};
  const Prediction two = predict("DFT(2^20)", o, 2, m), four = predict("DFT(2^20)", o, 4, m);
  int exchanges = 0;
  for (const StepTime &s : two.steps) exchanges += s.exchange;
  EXPECT_EQ(exchanges, 3);
  // 5 N log2 N pseudo-flops in all, plus the twiddles, shared by the ranks
  const double n = 1 << 20, flops = 5 * n * 20;
  EXPECT_GT(two.compute, flops / 2 / 10e9);
  EXPECT_LT(two.compute, 1.2 * flops / 2 / 10e9 + 3 * 2 * 16 * n / 2 / 10e9);
  EXPECT_NEAR(four.compute / two.compute, 0.5, 0.05);
  // an exchange: (p-1) latencies and (p-1)/p of the local part over the link
  const double bytes = 16 * n / 2;
  EXPECT_NEAR(two.steps[1].seconds, 2e-6 + bytes / 2 / 12.5e9, 1e-9);
  EXPECT_DOUBLE_EQ(two.total, two.compute + two.exchange);
  // the size limit is per rank in code, and absent in the model
  EXPECT_NO_THROW(predict("DFT(1024 x 1024 x 1024)", o, 2, m));
  o.ranks = 2;  // 2^25 points a rank (kMaxRankPoints)
  EXPECT_NO_THROW(start("DFT(2^26)", o));
  EXPECT_THROW(start("DFT(2^27)", o), FormulaError);
  o.ranks = 4;
  EXPECT_NO_THROW(start("DFT(2^27)", o));
}

}  // namespace
}  // namespace splgen::driver
