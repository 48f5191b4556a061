// Hostile input to the splgen command (issue 18, items 6, 8, 9): huge sizes are refused at once
// or generated in seconds, floating-point flags refuse nan/inf/negatives, non-finite matrix
// entries and unusable kernel names are one-line input errors (exit 2), never a hang, an
// internal error or a file that does not compile.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;

class InputLimitsCliTest : public test::SplgenCommandTest {
 protected:
  InputLimitsCliTest() : SplgenCommandTest("splgen-limits-test") {}

  // Runs splgen and returns the wall time in seconds.
  double timed(const std::vector<std::string> &args, test::ProgramResult &r) {
    auto start = std::chrono::steady_clock::now();
    r = splgen(args);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

// Item 6: above the documented cap, refused at once, naming the limit and no internal name.
TEST_F(InputLimitsCliTest, HugeSizesAreRefusedAtOnce) {
  for (const char *spec : {"DFT(2147483647)", "DFT(2^31)", "DFT(2^40)", "DFT(2097143)", "I(2^30) (x) DFT(2)"}) {
    test::ProgramResult r;
    double seconds = timed({"gen", spec, "-o", dir.file("k.cpp")}, r);
    EXPECT_EQ(r.exit_code, 2) << spec << ": " << r.err;
    EXPECT_EQ(test::text_lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "size limit")) << r.err;
    EXPECT_FALSE(contains(r.err, "@")) << "an internal name: " << r.err;
    EXPECT_LT(seconds, 2.0) << spec;
  }
}

// The in-place large 1D kernel has its own limit, 2^28 points (docs/cli.md, "Size limits");
// the same spec without --in-place, and other specs, keep 2^24. Refused at once.
TEST_F(InputLimitsCliTest, InPlaceLargeOneDimensionalLimit) {
  test::ProgramResult r;
  EXPECT_LT(timed({"gen", "tiled(256)[DFT(2^30)]", "--in-place", "-o", dir.file("k.cpp")}, r), 2.0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "DFT(1073741824): 1073741824 points is above splgen's size limit of 2^28 = 268435456 "
                              "points for the in-place large 1D kernel")) << r.err;
  expect_error({"gen", "tiled(64)[DFT(2^26)]", "-o", dir.file("k.cpp")}, "size limit of 2^24 = 16777216 points");
  expect_error({"gen", "DFT(2^26)", "--in-place", "-o", dir.file("k.cpp")}, "size limit of 2^24 = 16777216 points");
}

// Item 6: a prime whose p-1 is not a power of two took 20-50 s (O(p^2) Rader table); now seconds.
TEST_F(InputLimitsCliTest, LargePrimesGenerateQuickly) {
  for (const char *spec : {"DFT(10007)", "DFT(20011)"}) {
    test::ProgramResult r;
    double seconds = timed({"gen", spec, "-o", dir.file("k.cpp")}, r);
    EXPECT_EQ(r.exit_code, 0) << spec << ": " << r.err;
    EXPECT_LT(seconds, 10.0) << spec;
  }
}

// Item 8: NaN passed CLI::Range and made bench loop for ever; inf and negatives too are refused.
TEST_F(InputLimitsCliTest, FloatingPointFlagsRefuseNanInfAndNegatives) {
  for (const char *value : {"nan", "NaN", "-nan", "inf", "-inf", "-1", "0", "1e400", "abc", ""})
    expect_error({"bench", "DFT(16)", "--min-time-ms", value}, "--min-time-ms");
  for (const char *value : {"nan", "inf", "-1", "0"})
    expect_error({"selftest", "DFT(16)", "--tolerance", value}, "--tolerance");
  expect_error({"search", "DFT(16)", "--budget", std::string(400, '9')}, "--budget");
  expect_error({"search", "DFT(16)", "--budget", "nan"}, "--budget");
}

// Item 9: a non-finite Diag or Mat entry is an input error with line and column.
TEST_F(InputLimitsCliTest, NonFiniteEntriesAreParseErrors) {
  expect_error({"gen", "Diag(1, 1, inf)"}, "1:12: a number must be finite, got 'inf'");
  expect_error({"gen", "Diag(1, nan, 1)"}, "1:9:");
  expect_error({"gen", "Diag(1, 1e999)"}, "1:9:");
  expect_error({"gen", "Diag(1, 1 + infi)"}, "1:13:");
  expect_error({"verify", "Mat(1, 1, [-inf])"}, "1:12:");
}

// Item 9: keywords, reserved identifiers and the generated code's own names are refused.
TEST_F(InputLimitsCliTest, UnusableKernelNamesAreRefused) {
  for (const char *name : {"int", "for", "std", "main", "and", "restrict", "__restrict", "_Foo", "_x", "a__b",
                           "KP707106781", "KN500000000", "lut0", "tab3", "s12", "i0", "x", "y", "sin", "malloc",
                           "omp_get_thread_num", "splgen_loadc_d4", "splgen", "1abc", "a-b"})
    expect_error({"gen", "DFT(16)", "--name", name, "-o", dir.file("k.cpp")}, "--name");
  expect_error({"lower", "DFT(16)", "--name", "int"}, "--name");
}

// Names close to the refused ones are fine, and the files they give compile (one compiler
// call, -O0: only whether they compile matters).
TEST_F(InputLimitsCliTest, UnusualButValidKernelNamesCompile) {
  for (const char *isa : {"scalar", "avx2"}) {
    if (std::string(isa) == "avx2" && !host_supports(Isa::Avx2)) continue;
    std::vector<std::string> sources;
    for (const char *name : {"KP", "KPI_fft", "lut", "tab_x", "s", "i", "xy", "std_fft", "Main", "sinus", "fft_"}) {
      std::string path = dir.file(std::string(name) + "_" + isa + ".cpp");
      test::ProgramResult r = splgen({"gen", "DFT(64)", "--isa", isa, "--name", name, "-o", path});
      ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
      sources.push_back(path);
    }
    EXPECT_NO_THROW(test::compile_shared_object(sources, dir.file(std::string(isa) + ".so"), "", "-O0")) << isa;
  }
}

}  // namespace
}  // namespace splgen
