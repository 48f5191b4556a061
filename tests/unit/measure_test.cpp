// generator/measure without compiling anything: --sizes parsing, interleaved median timing,
// and the reports (table, CSV, JSON, SVG) of a made-up result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "generator/measure/bench.h"
#include "generator/measure/plot.h"
#include "generator/measure/report.h"
#include "generator/measure/sizes.h"
#include "generator/measure/timer.h"

namespace splgen::measure {
namespace {

using Sizes = std::vector<std::int64_t>;

TEST(Sizes, PowersOfTwoRange) {
  EXPECT_EQ(parse_sizes("2..2^5"), (Sizes{2, 4, 8, 16, 32}));
  EXPECT_EQ(parse_sizes("2^3..64"), (Sizes{8, 16, 32, 64}));
  EXPECT_EQ(parse_sizes("2..2^20").size(), 20u);
  EXPECT_EQ(parse_sizes("3..40"), (Sizes{3, 6, 12, 24}));  // A, 2A, 4A, ... up to B
}

TEST(Sizes, ListsAndCombinationsAreSortedWithoutRepeats) {
  EXPECT_EQ(parse_sizes("12,60,100,1000,3072"), (Sizes{12, 60, 100, 1000, 3072}));
  EXPECT_EQ(parse_sizes("2..2^4, 12,60,8"), (Sizes{2, 4, 8, 12, 16, 60}));
  EXPECT_EQ(parse_sizes("3^2"), (Sizes{9}));
  EXPECT_EQ(parse_sizes("2^24"), (Sizes{std::int64_t(1) << 24}));
}

TEST(Sizes, BadTextNamesThePart) {
  auto message = [](const std::string &text) {
    try {
      parse_sizes(text);
    } catch (const SizesError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("2..x").find("'x'"), std::string::npos);
  EXPECT_NE(message("8..4").find("empty"), std::string::npos);
  EXPECT_NE(message("2^25").find("too large"), std::string::npos);
  EXPECT_NE(message("99999999999999999999").find("too large"), std::string::npos);
  EXPECT_NE(message("1").find("too small"), std::string::npos);
  EXPECT_NE(message("0..8").find("too small"), std::string::npos);
  EXPECT_NE(message("4,,8").find("empty size"), std::string::npos);
  EXPECT_NE(message("").find("empty size"), std::string::npos);
  EXPECT_NE(message("-4").find("'-4'"), std::string::npos);
  EXPECT_NE(message("1e3").find("'1e3'"), std::string::npos);
}

TEST(Timer, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Timer, CalibratedSamplesLastTheMinimumTime) {
  volatile double sink = 0;
  Workload spin = [&](std::int64_t times) {
    for (std::int64_t t = 0; t < times; ++t)
      for (int i = 0; i < 100; ++i) sink = sink + 1;
  };
  std::int64_t times = calibrate(spin, 2e-4);
  EXPECT_GE(times, 1);
  EXPECT_GE(time_once(spin, times), 2e-4 * 0.5);  // noise may shorten a rerun a little
}

TEST(Timer, InterleavedTimesEveryWorkloadEveryRound) {
  std::vector<int> calls(3, 0);
  std::vector<Workload> work;
  for (int i = 0; i < 3; ++i)
    work.push_back([&calls, i](std::int64_t times) {
      volatile double x = 0;
      for (std::int64_t t = 0; t < times * (i + 1) * 50; ++t) x = x + 1;
      ++calls[std::size_t(i)];
    });
  std::vector<Timing> timings = time_interleaved(work, {5, 1e-4});
  ASSERT_EQ(timings.size(), 3u);
  for (const Timing &t : timings) {
    EXPECT_EQ(t.samples_ns.size(), 5u);
    EXPECT_GT(t.median_ns, 0);
    EXPECT_LE(t.min_ns, t.median_ns);
  }
  for (int c : calls) EXPECT_GE(c, 6);  // calibration, then one per round
}

// Two sizes, the second too large for FFTW_PATIENT.
BenchResult made_up_result() {
  BenchOptions o;
  o.isa = Isa::Avx2;
  BenchResult r;
  r.implementations = bench_implementations(o);
  r.meta = {{"spec", "DFT(n)"}, {"direction", "forward"}, {"isa", "avx2"}, {"precision", "double"},
            {"cpu", "Test <CPU> \"quoted\", & more"}, {"compiler", "c++"}, {"flags", "-O3"}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.rows.push_back({16, "DFT(16)", 31, {10, 20, 12, 11}, {1e-16, 2e-16, 1e-16, 1e-16}});
  r.rows.push_back({1 << 17, "DFT(131072)", 11, {1e6, 3e6, 1.2e6, nan}, {3e-16, 3e-16, 2e-16, nan}});
  return r;
}

TEST(Report, ImplementationsInColumnOrder) {
  BenchOptions o;
  o.isa = Isa::Avx2;
  std::vector<std::string> ids;
  for (const Implementation &i : bench_implementations(o)) ids.push_back(i.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"splgen_avx2", "splgen_scalar", "fftw_measure", "fftw_patient"}));
  o.isa = Isa::Scalar;
  o.patient = false;
  ids.clear();
  for (const Implementation &i : bench_implementations(o)) ids.push_back(i.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"splgen_scalar", "fftw_measure"}));
}

TEST(Report, PseudoGflops) {
  EXPECT_DOUBLE_EQ(pseudo_gflops(1024, 5 * 1024 * 10), 1.0);
  EXPECT_DOUBLE_EQ(pseudo_gflops(16, 10), 32.0);
}

TEST(Report, TableHasARowPerSizeAndDashesWhereNotRun) {
  std::string table = format_table(made_up_result());
  EXPECT_NE(table.find("FFTW_PATIENT"), std::string::npos) << table;
  EXPECT_NE(table.find("      16        32.00"), std::string::npos) << table;  // 5*16*4/10
  EXPECT_NE(table.find("1.20x"), std::string::npos) << table;                 // 12 ns / 10 ns
  EXPECT_NE(table.find("131072"), std::string::npos) << table;
  EXPECT_NE(table.find(" -  "), std::string::npos) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 4);
}

TEST(Report, CsvHasAHeaderAndOneRecordPerSize) {
  std::string csv = format_csv(made_up_result());
  std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.rfind("n,spec,repetitions,splgen_avx2_ns,splgen_avx2_gflops,splgen_avx2_error,", 0), 0u) << header;
  EXPECT_NE(header.find("ratio_vs_fftw_measure,ratio_vs_fftw_patient"), std::string::npos) << header;
  EXPECT_NE(header.find(",cpu,"), std::string::npos) << header;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(csv.find("\"Test <CPU> \"\"quoted\"\", & more\""), std::string::npos) << csv;
  EXPECT_NE(csv.find(",,,"), std::string::npos) << "no FFTW_PATIENT at 2^17: " << csv;
}

TEST(Report, JsonHasMetaImplementationsAndRows) {
  std::string json = format_json(made_up_result());
  for (const char *key : {"\"meta\"", "\"implementations\"", "\"rows\"", "\"n\": 16", "\"ns\"", "\"gflops\"",
                          "\"error\"", "\"ratio\"", "\"fftw_patient\": null", "\"cpu\": \"Test <CPU> \\\"quoted\\\""})
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  EXPECT_EQ(std::count(json.begin(), json.end(), '{'), std::count(json.begin(), json.end(), '}'));
  EXPECT_EQ(std::count(json.begin(), json.end(), '['), std::count(json.begin(), json.end(), ']'));
}

TEST(Plot, OnePolylinePerImplementationAndEscapedText) {
  std::string svg = format_svg(made_up_result());
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  std::size_t polylines = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  EXPECT_EQ(polylines, 4u);
  EXPECT_NE(svg.find("Test &lt;CPU&gt; &quot;quoted&quot;, &amp; more"), std::string::npos);
  EXPECT_EQ(svg.find("<CPU>"), std::string::npos);
}

TEST(Plot, NiceSteps) {
  EXPECT_EQ(nice_step(8), 1);
  EXPECT_EQ(nice_step(70), 10);
  EXPECT_EQ(nice_step(16), 2);
  EXPECT_EQ(nice_step(0), 1);
  EXPECT_EQ(xml_escape("a<b & 'c'"), "a&lt;b &amp; &apos;c&apos;");
}

}  // namespace
}  // namespace splgen::measure
