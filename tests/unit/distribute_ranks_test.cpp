// Distributed kernels (lower/distribute_ranks.h, docs/mpi.md): each rank's steps, simulated on
// one process, mean the spec: the Sigma-SPL steps after the merge stage and the loop programs
// after the loops stage, for block and cyclic distributions, forward and inverse, 1D and 2D.
#include <gtest/gtest.h>

#include <random>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"

namespace splgen::driver {
namespace {

std::vector<cplx> random_vector(int64_t n) {
  std::mt19937_64 rng(uint64_t(n) * 7919);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cplx> x(static_cast<std::size_t>(n));
  for (cplx &v : x) v = cplx(u(rng), u(rng));
  return x;
}

double max_error(const std::vector<cplx> &a, const std::vector<cplx> &b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

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
  o.target = "cpp", o.ranks = 2;
  EXPECT_THROW(run_pipeline("DFT(64)", o), FormulaError);  // one process
}

}  // namespace
}  // namespace splgen::driver
