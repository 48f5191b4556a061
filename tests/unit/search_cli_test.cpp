// splgen search and splgen wisdom end to end (docs/cli.md, docs/search.md): a tiny search finds
// a correct kernel and stores it; gen --wisdom emits it (same bytes every time); wisdom show
// lists it; corrupt or missing wisdom gives one clear line. Never a speed.
#include <gtest/gtest.h>

#include <complex>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "generator/kernel/compile.h"
#include "generator/measure/reference.h"
#include "generator/search/wisdom.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;

class SearchCliTest : public test::SplgenCommandTest {
 protected:
  SearchCliTest() : SplgenCommandTest("splgen-search-cli-test") {}

  void write(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }

  // Compiles the source and checks its kernel against the long-double reference.
  void expect_correct(const std::string &source, const std::string &name, int64_t n, const std::string &flags = "-O1") {
    std::string src = dir.write(name + ".cpp", source);
    test::SharedObject lib(test::compile_shared_object({src}, dir.file(name + ".so"), "", flags));
    auto *kernel = lib.symbol<void(double *, const double *)>(name);
    std::vector<std::complex<double>> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto &v : x) v = {u(rng), u(rng)};
    kernel(reinterpret_cast<double *>(y.data()), reinterpret_cast<const double *>(x.data()));
    EXPECT_LT(measure::relative_rms_error(y, measure::reference_dft(measure::convert<long double>(x), -1)), 1e-13);
  }
};

TEST_F(SearchCliTest, SearchStoresWisdomThatGenUses) {
  std::string wisdom = dir.file("my.wisdom");
  test::ProgramResult s = splgen({"search", "DFT(8)", "--isa", "scalar", "--budget", "20s", "--wisdom", wisdom,
                                  "--flags=-O1", "--reps", "3"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(contains(s.out, "search DFT(8) (scalar, double, dp):")) << s.out;
  EXPECT_TRUE(contains(s.out, "best: ")) << s.out;
  EXPECT_TRUE(contains(s.out, "default")) << s.out;
  EXPECT_TRUE(contains(s.err, "/")) << s.err;  // the progress bar: done/planned
  search::Wisdom w = search::load_wisdom(wisdom);
  ASSERT_EQ(w.entries.size(), 1u);
  EXPECT_EQ(w.entries[0].key.spec, "DFT(8)");
  EXPECT_GT(w.entries[0].ns, 0);

  // gen --wisdom: the stored formula, correct, and the same bytes every time.
  test::ProgramResult g1 = splgen({"gen", "DFT(8)", "--wisdom", wisdom, "--name", "k8"});
  test::ProgramResult g2 = splgen({"gen", "DFT(8)", "--wisdom", wisdom, "--name", "k8"});
  ASSERT_EQ(g1.exit_code, 0) << g1.err;
  EXPECT_EQ(g1.err, "");
  EXPECT_EQ(g1.out, g2.out);
  EXPECT_TRUE(contains(g1.out, "// formula: " + w.entries[0].formula)) << g1.out;
  expect_correct(g1.out, "k8", 8);

  // expand reads the stored formula too.
  test::ProgramResult e = splgen({"expand", w.entries[0].formula});
  EXPECT_EQ(e.exit_code, 0) << e.err;

  test::ProgramResult show = splgen({"wisdom", "show", wisdom});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(contains(show.out, "1 entry")) << show.out;
  EXPECT_TRUE(contains(show.out, "DFT(8)")) << show.out;

  // No entry: a note on stderr and the default kernel.
  test::ProgramResult def = splgen({"gen", "DFT(16)"});
  test::ProgramResult miss = splgen({"gen", "DFT(16)", "--wisdom", wisdom});
  EXPECT_EQ(miss.exit_code, 0);
  EXPECT_EQ(miss.out, def.out);
  EXPECT_TRUE(contains(miss.err, "no entry for DFT(16)")) << miss.err;
  EXPECT_EQ(test::text_lines(miss.err).size(), 1u);

  // merge
  std::string merged = dir.file("merged.wisdom");
  test::ProgramResult m = splgen({"wisdom", "merge", merged, wisdom});
  EXPECT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(test::read_text_file(merged), test::read_text_file(wisdom));
}

// search --threads: mu of smp(P, mu) is searched beside the ruletree (candidates "mu=8",
// "mu=16"), the wisdom entry carries the thread count and the packet, and gen --wisdom
// --threads builds the kernel from smp(P, packet).
TEST_F(SearchCliTest, ThreadedSearchSearchesTheSmpPacket) {
  std::string wisdom = dir.file("threads.wisdom");
  test::ProgramResult s = splgen({"search", "DFT(8192)", "--isa", "scalar", "--threads", "2", "--threading", "team",
                                  "--strategy", "random", "--max-candidates", "12", "--seed", "3", "--budget", "300s",
                                  "--wisdom", wisdom, "--flags=-O1", "--reps", "3", "--quiet", "--show", "40"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(contains(s.out, " mu=8")) << s.out;  // two cache lines of doubles
  EXPECT_TRUE(contains(s.out, " mu=16")) << s.out;
  search::Wisdom w = search::load_wisdom(wisdom);
  ASSERT_EQ(w.entries.size(), 1u);
  EXPECT_EQ(w.entries[0].key.threads, 2);

  // The entry with a packet of four lines: proved, then used.
  w.entries[0].smp_packet = 16;
  write(wisdom, search::format_wisdom(w));
  test::ProgramResult g = splgen({"gen", "DFT(8192)", "--threads", "2", "--threading", "team", "--wisdom", wisdom,
                                  "--name", "k8192"});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_TRUE(contains(g.out, "smp(2,16)[")) << g.out.substr(0, 2000);
  EXPECT_TRUE(contains(g.out, "thread_team")) << g.out.substr(0, 2000);
  expect_correct(g.out, "k8192", 8192, "-O1 " + kernel::threading_flags(Threading::Team));
}

TEST_F(SearchCliTest, EstimateNeedsNoCompiler) {
  test::ProgramResult s = splgen({"search", "DFT(64)", "--isa", "scalar", "--strategy", "estimate", "--quiet"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.err, "");
  EXPECT_TRUE(contains(s.out, "estimated")) << s.out;
  EXPECT_TRUE(contains(s.out, "formula: ")) << s.out;
}

TEST_F(SearchCliTest, CorruptWisdomIsOneLineWithLineAndColumn) {
  std::string bad = dir.file("bad.wisdom");
  write(bad, "{\n  \"format\": \"splgen-wisdom\",\n  \"version\": 1\n  \"entries\": []\n}\n");
  expect_error({"gen", "DFT(8)", "--wisdom", bad}, "bad.wisdom:4:3: expected ',' or '}'");
  expect_error({"wisdom", "show", bad}, "bad.wisdom:4:3:");
  expect_error({"search", "DFT(8)", "--isa", "scalar", "--wisdom", bad}, "bad.wisdom:4:3:");
  write(bad, "{\"format\": \"splgen-wisdom\", \"version\": 1, \"entries\": 3}");
  expect_error({"gen", "DFT(8)", "--wisdom", bad}, "not a splgen wisdom file");
  expect_error({"wisdom", "show", dir.file("missing.wisdom")}, "no such wisdom file");
}

TEST_F(SearchCliTest, BadArgumentsAreOneLine) {
  expect_error({"search", "DFT(8)", "--isa", "scalar", "--budget", "soon"}, "--budget");
  expect_error({"search", "DFT(8)", "--strategy", "magic"}, "--strategy");
  expect_error({"search", "DFT(4096)", "--isa", "scalar", "--strategy", "exhaustive", "--quiet"}, "--max-candidates");
  expect_error({"search", "I(8)", "--isa", "scalar", "--quiet"}, "DFT");
  expect_error({"search", "DFT(8"}, "1:6");
}

}  // namespace
}  // namespace splgen
