// splgen bench end to end (docs/cli.md): it compiles, loads and times one small kernel against
// FFTW3 and reports; its files are well formed; bad input is one error line. Never a speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "generator/target/target.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;

std::vector<std::string> split(const std::string &line, char separator) {
  std::vector<std::string> out;
  std::istringstream s(line);
  for (std::string field; std::getline(s, field, separator);) out.push_back(field);
  return out;
}

class BenchCliTest : public test::SplgenCommandTest {
 protected:
  BenchCliTest() : SplgenCommandTest("splgen-bench-test") {}

  // A quick run of DFT(16): few repetitions, short samples, no FFTW_PATIENT.
  test::ProgramResult bench16(const std::string &isa, const std::vector<std::string> &more = {}) {
    std::vector<std::string> args = {"bench", "DFT(16)", "--isa", isa, "--reps", "3", "--min-time-ms", "1",
                                     "--no-patient"};
    args.insert(args.end(), more.begin(), more.end());
    return splgen(args);
  }

  // The table row for n: "16  <numbers...>", every cell a number or "-", the ratio with an x.
  static void expect_row(const std::string &out, const std::string &n, std::size_t columns) {
    std::vector<std::string> lines = test::text_lines(out);
    ASSERT_EQ(lines.size(), 3u) << out;  // title, header, one size
    std::istringstream row(lines[2]);
    std::vector<std::string> cells;
    for (std::string c; row >> c;) cells.push_back(c);
    ASSERT_EQ(cells.size(), columns) << lines[2];
    EXPECT_EQ(cells[0], n);
    for (std::size_t c = 1; c < cells.size(); ++c) {
      std::string number = cells[c].back() == 'x' ? cells[c].substr(0, cells[c].size() - 1) : cells[c];
      char *end = nullptr;
      double v = std::strtod(number.c_str(), &end);
      EXPECT_TRUE(end && *end == '\0' && v > 0) << "cell " << c << ": " << cells[c];
    }
  }
};

TEST_F(BenchCliTest, ScalarReportsARowAndWritesItsFiles) {
  std::string csv = dir.file("b.csv"), json = dir.file("b.json"), svg = dir.file("b.svg");
  test::ProgramResult r = bench16("scalar", {"--csv", csv, "--json", json, "--plot", svg});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "splgen scalar")) << r.out;
  EXPECT_TRUE(contains(r.out, "FFTW_MEASURE")) << r.out;
  expect_row(r.out, "16", 5);  // n, splgen scalar, FFTW_MEASURE, vs MEASURE, error
  EXPECT_TRUE(contains(r.err, "DFT(16)")) << "progress on stderr: " << r.err;

  std::vector<std::string> records = test::text_lines(test::read_text_file(csv));
  ASSERT_EQ(records.size(), 2u);
  std::vector<std::string> header = split(records[0], ','), row = split(records[1], ',');
  EXPECT_EQ(header.size(), row.size());
  for (const char *column : {"n", "splgen_scalar_gflops", "fftw_measure_ns", "splgen_scalar_error",
                             "ratio_vs_fftw_measure", "isa", "precision", "cpu", "compiler_version", "date"})
    EXPECT_NE(std::find(header.begin(), header.end(), column), header.end()) << column;
  EXPECT_EQ(row[0], "16");

  std::string j = test::read_text_file(json);
  for (const char *key : {"\"meta\"", "\"cpu\"", "\"compiler_version\"", "\"isa\": \"scalar\"",
                          "\"precision\": \"double\"", "\"date\"", "\"rows\"", "\"n\": 16", "\"splgen_scalar\"",
                          "\"fftw_measure\"", "\"gflops\"", "\"error\"", "\"ratio\""})
    EXPECT_TRUE(contains(j, key)) << key << "\n" << j;

  std::string s = test::read_text_file(svg);
  EXPECT_TRUE(contains(s, "<svg")) << s.substr(0, 200);
  EXPECT_EQ(s.rfind("<?xml", 0), 0u);
  EXPECT_TRUE(contains(s, "</svg>"));
  std::size_t polylines = 0;
  for (std::size_t at = s.find("<polyline"); at != std::string::npos; at = s.find("<polyline", at + 1)) ++polylines;
  EXPECT_EQ(polylines, 2u);  // splgen scalar, FFTW_MEASURE
  if (test::have_program("xmllint")) {
    std::string command = "xmllint --noout " + test::shell_quote(svg) + " 2>/dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << "not well-formed XML";
  }
}

// WHT, which FFTW lacks: against the radix-2 loop, with the additions over the bound n log2 n
// (the unrolled butterflies of real_codelet.cpp meet it exactly); errors against exact sums.
TEST_F(BenchCliTest, WalshHadamardAgainstTheRadix2Loop) {
  test::ProgramResult r = splgen({"bench", "WHT(n)", "--sizes", "64", "--isa", "scalar", "--reps", "3",
                                  "--min-time-ms", "1", "--no-patient"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "radix-2 loop")) << r.out;
  EXPECT_TRUE(contains(r.out, "vs radix-2 loop")) << r.out;
  EXPECT_TRUE(contains(r.out, "adds/nlog2n")) << r.out;
  EXPECT_FALSE(contains(r.out, "FFTW_MEASURE")) << r.out;
  expect_row(r.out, "64", 6);  // n, splgen scalar, radix-2 loop, vs radix-2 loop, adds/nlog2n, error
  EXPECT_TRUE(contains(test::text_lines(r.out)[2], "1.000")) << r.out;
  expect_error({"bench", "WHT(16)", "--threads", "2"}, "radix-2 loop only");
}

TEST_F(BenchCliTest, Avx2AlsoTimesTheScalarBackend) {
  if (!host_supports(Isa::Avx2)) GTEST_SKIP() << "this CPU cannot run AVX2 code";
  test::ProgramResult r = bench16("avx2", {"--precision", "float", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "splgen avx2")) << r.out;
  EXPECT_TRUE(contains(r.out, "splgen scalar")) << r.out;
  expect_row(r.out, "16", 6);  // n, splgen avx2, splgen scalar, FFTW_MEASURE, vs MEASURE, error
  EXPECT_EQ(r.err, "") << "--quiet";
}

TEST_F(BenchCliTest, BadSizes) {
  expect_error({"bench", "--sizes", "2..x"}, "--sizes");
  expect_error({"bench", "--sizes", "64..8"}, "64..8");
  expect_error({"bench", "--sizes", "2^40"}, "too large");
}

TEST_F(BenchCliTest, BadIsa) {
  expect_error({"bench", "DFT(16)", "--isa", "neon"}, "--isa");
  if (!host_supports(Isa::Avx512)) expect_error({"bench", "DFT(16)", "--isa", "avx512"}, "cannot run");
}

TEST_F(BenchCliTest, BadSpec) {
  expect_error({"bench"}, "SPEC or --sizes");
  expect_error({"bench", "DFT(16)", "--sizes", "16"}, "not both");
  expect_error({"bench", "DFT(16,3)"}, "DFT(n)");
  expect_error({"bench", "DFT(16"}, "expected ')'");
}

}  // namespace
}  // namespace splgen
