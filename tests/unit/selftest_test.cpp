// splgen selftest (generator/kernel/selftest.h, docs/cli.md): Ergun's impulse, linearity and
// time-shift checks accept correct DFT kernels and reject wrong ones, each wrong kernel caught by
// the check it breaks; end to end, generated kernels pass and a kernel built from a wrong formula
// (Cooley-Tukey without its twiddles, which even passes the impulse check) fails with exit 1.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "generator/kernel/selftest.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using kernel::lvec;
using lcplx = std::complex<long double>;
using test::contains;

// y[r] = scale * sum_j w_n^(k r j) x[j] (+ a nonlinear term), by the O(n^2) sum.
kernel::ApplyKernel dft_like(int64_t n, int64_t k, long double scale = 1, bool nonlinear = false) {
  return [=](const lvec &x) {
    lvec y(static_cast<std::size_t>(n));
    for (int64_t r = 0; r < n; ++r) {
      lcplx s = 0;
      for (int64_t j = 0; j < n; ++j) {
        long double t = -2 * 3.141592653589793238462643383279503L * (long double)((k * r * j) % n) / n;
        s += x[std::size_t(j)] * lcplx(std::cos(t), std::sin(t));
      }
      y[std::size_t(r)] = scale * s + (nonlinear ? lcplx(std::norm(x[0]), 0) : lcplx(0));
    }
    return y;
  };
}

std::vector<bool> outcome(const std::vector<kernel::SelftestCheck> &checks) {
  std::vector<bool> ok;
  for (const auto &c : checks) ok.push_back(c.ok);
  return ok;
}

TEST(Selftest, AcceptsTheDftAndItsInverse) {
  for (int64_t n : {1, 2, 12, 17, 64}) {
    EXPECT_EQ(outcome(kernel::selftest_dft(dft_like(n, 1), n, 1, Precision::Double, {})),
              (std::vector<bool>{true, true, true}))
        << n;
    EXPECT_EQ(outcome(kernel::selftest_dft(dft_like(n, n - 1), n, n - 1, Precision::Double, {})),
              (std::vector<bool>{true, true, true}))
        << n;
  }
}

TEST(Selftest, EachWrongKernelFailsTheCheckItBreaks) {
  const int64_t n = 16;
  kernel::SelftestOptions o;
  EXPECT_EQ(outcome(kernel::selftest_dft(dft_like(n, 1, 2.0L), n, 1, Precision::Double, o)),
            (std::vector<bool>{false, true, true}));  // scaled: only the impulse response is off
  EXPECT_FALSE(kernel::selftest_dft(dft_like(n, 3), n, 1, Precision::Double, o)[2].ok);  // wrong root
  EXPECT_FALSE(kernel::selftest_dft(dft_like(n, n - 1), n, 1, Precision::Double, o)[2].ok);  // inverse
  EXPECT_FALSE(kernel::selftest_dft(dft_like(n, 1, 1, true), n, 1, Precision::Double, o)[1].ok);  // not linear
}

TEST(Selftest, DefaultToleranceGrowsWithSizeAndPrecision) {
  EXPECT_LT(kernel::default_tolerance(1024, Precision::Double), 1e-12);
  EXPECT_GT(kernel::default_tolerance(1024, Precision::Float), 1e-5);
  EXPECT_LT(kernel::default_tolerance(16, Precision::Double), kernel::default_tolerance(4096, Precision::Double));
}

class SelftestCliTest : public test::SplgenCommandTest {
 protected:
  SelftestCliTest() : SplgenCommandTest("splgen-selftest-test") {}
};

TEST_F(SelftestCliTest, GeneratedKernelsPass) {
  std::vector<std::vector<std::string>> cases = {{"DFT(16)"},
                                                 {"DFT(12)", "--inverse", "--precision", "float"},
                                                 {"DFT(101)"},  // Rader
                                                 {"DFT(1024)", "--isa", "avx2"}};
  for (std::vector<std::string> args : cases) {
    if (args.size() > 1 && args.back() == "avx2" && !host_supports(Isa::Avx2)) continue;
    args.insert(args.begin(), "selftest");
    test::ProgramResult r = splgen(args);
    EXPECT_EQ(r.exit_code, 0) << args[1] << ": " << r.err << r.out;
    std::vector<std::string> lines = test::text_lines(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    EXPECT_EQ(lines[1].rfind("OK: impulse: max error ", 0), 0u) << lines[1];
    EXPECT_EQ(lines[2].rfind("OK: linearity: max error ", 0), 0u) << lines[2];
    EXPECT_EQ(lines[3].rfind("OK: time shift: max error ", 0), 0u) << lines[3];
    EXPECT_EQ(r.err, "");
  }
}

// The test hook: SPEC is any formula gen accepts, --against the DFT it claims to be.
TEST_F(SelftestCliTest, KernelFromAWrongFormulaFails) {
  test::ProgramResult r = splgen({"selftest", "(DFT(4) (x) I(4)) * (I(4) (x) DFT(4)) * L(16,4)", "--against", "DFT(16)"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "OK: impulse")) << r.out;  // the impulse alone does not see it
  EXPECT_TRUE(contains(r.out, "FAIL: time shift")) << r.out;
  test::ProgramResult good = splgen({"selftest", "(DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) DFT(4)) * L(16,4)",
                                     "--against", "DFT(16)"});
  EXPECT_EQ(good.exit_code, 0) << good.err << good.out;
}

// A kernel already generated (a file from gen) is checked as it is, by gen's name or --name.
TEST_F(SelftestCliTest, ChecksAGeneratedFile) {
  std::string path = dir.file("k.cpp");
  ASSERT_EQ(splgen({"gen", "DFT(48)", "--inverse", "-o", path}).exit_code, 0);
  test::ProgramResult r = splgen({"selftest", "DFT(48)", "--inverse", "--source", path});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  // The same file checked as the forward transform: the time shift sees the wrong root.
  r = splgen({"selftest", "DFT(48)", "--source", path, "--name", "splgen_idft48"});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_TRUE(contains(r.out, "FAIL: time shift")) << r.out;
  expect_error({"selftest", "DFT(48)", "--source", path}, "splgen_dft48");  // not in the file
  expect_error({"selftest", "DFT(48)", "--source", dir.file("missing.cpp")}, "--source");
  expect_error({"selftest", "DFT(48)", "--name", "f"}, "--name needs --source");
}

TEST_F(SelftestCliTest, BadInput) {
  expect_error({"selftest", "L(16,4)"}, "DFT(n)");
  expect_error({"selftest", "DFT(16)", "--against", "DFT(8)"}, "--against");
  expect_error({"selftest", "DFT(16)", "--against", "I(16)"}, "DFT(n)");
  expect_error({"selftest", "DFT(16)", "--rounds", "0"}, "--rounds");
  expect_error({"selftest", "DFT(16"}, "1:7");
}

}  // namespace
}  // namespace splgen
