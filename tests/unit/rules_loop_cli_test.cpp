// The rule researcher's loop end to end (docs/rule-language.md, "The rule researcher's loop";
// docs/cli.md): expand with --prefer-rules and --only-rules, the file and line of each rule
// in the ruletree, rules stats, search --rules with its wisdom stamps, bench --compare
// default, a researcher's smp rule used by the threads lowering, and bad input as one line.
// Never a speed: bench's numbers are checked for form, not value.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "generator/kernel/compile.h"
#include "generator/search/wisdom.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;
using test::ProgramResult;

std::string test_rules(const std::string &name) { return std::string(SPLGEN_TEST_DIR) + "/rules/" + name; }
const std::string kRadix4 = test_rules("radix4.rules");

std::vector<std::string> words(const std::string &line) {
  std::istringstream s(line);
  std::vector<std::string> out;
  for (std::string w; s >> w;) out.push_back(w);
  return out;
}

class RulesLoopCliTest : public test::SplgenCommandTest {
 protected:
  RulesLoopCliTest() : SplgenCommandTest("splgen-rules-loop-test") {}
};

TEST_F(RulesLoopCliTest, PreferRulesPutsTheUsersRuleFirstAndNamesItsFileAndLine) {
  ProgramResult ties = splgen({"expand", "DFT(256)", "--rules", kRadix4});
  ASSERT_EQ(ties.exit_code, 0) << ties.err;
  EXPECT_EQ(test::text_lines(ties.out).at(0).rfind("DFT(256) -> dft_ct_dit(k=1, m=16, n=16) [", 0), 0u) << ties.out;
  EXPECT_TRUE(contains(ties.out, "rules/dft.rules:13]\n")) << ties.out;  // shipped rules name their file too

  ProgramResult pref = splgen({"expand", "DFT(256)", "--rules", kRadix4, "--prefer-rules"});
  ASSERT_EQ(pref.exit_code, 0) << pref.err;
  std::vector<std::string> lines = test::text_lines(pref.out);
  ASSERT_EQ(lines.size(), 6u) << pref.out;
  EXPECT_EQ(lines[0], "DFT(256) -> radix4_dit(k=1, m=64) [" + kRadix4 + ":5]");
  EXPECT_EQ(lines[1], "  DFT(4) -> DFT_Codelet(unrolled)");  // C++ leaves have no file
  EXPECT_EQ(lines[2], "  DFT(64) -> radix4_dit(k=1, m=16) [" + kRadix4 + ":5]");
  // The formula it prints is DFT(256).
  ProgramResult verify = splgen({"verify", lines[5], "--against", "DFT(256)"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out;
}

TEST_F(RulesLoopCliTest, OnlyRulesIsAClosedSet) {
  ProgramResult r = splgen({"expand", "DFT(1024)", "--rules", kRadix4, "--only-rules", "radix4_dit,dft_base_2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = test::text_lines(r.out);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    EXPECT_TRUE(contains(lines[i], "-> radix4_dit(") || contains(lines[i], "-> DFT_Codelet(")) << lines[i];
  ProgramResult shipped = splgen({"expand", "DFT(64)", "--only-rules", "dft_ct_dif"});  // a shipped closed set
  EXPECT_TRUE(contains(shipped.out, "DFT(64) -> dft_ct_dif(k=1, m=8, n=8)")) << shipped.out;

  expect_error({"expand", "DFT(1000)", "--rules", kRadix4, "--only-rules", "radix4_dit,dft_base_2"},
               "--only-rules radix4_dit,dft_base_2: no rule of the set breaks DFT(250) down into smaller DFTs");
  expect_error({"expand", "DFT(64)", "--rules", kRadix4, "--only-rules", "radix4_dti"},
               "--only-rules: no rule is named 'radix4_dti'");
  expect_error({"gen", "DFT(64)", "--only-rules", "smp_compose"}, "smp_compose is not a breakdown rule");
}

TEST_F(RulesLoopCliTest, FlagCombinationsThatMakeNoSenseAreOneLine) {
  expect_error({"expand", "DFT(64)", "--prefer-rules"}, "--prefer-rules needs --rules FILE");
  std::string wisdom = dir.file("none.wisdom");
  expect_error({"gen", "DFT(64)", "--rules", kRadix4, "--prefer-rules", "--wisdom", wisdom},
               "--wisdom and --prefer-rules");
  expect_error({"bench", "--sizes", "64", "--compare", "default"}, "--compare default needs --rules FILE");
  expect_error({"bench", "--sizes", "64", "--rules", kRadix4, "--compare", "default", "--threads", "2"},
               "--compare and --threads");
  expect_error({"bench", "--sizes", "64", "--rules", kRadix4, "--compare", "default", "--wisdom", wisdom},
               "--wisdom and rule selection");
  expect_error({"bench", "--sizes", "64", "--rules", kRadix4, "--compare", "shipped"}, "--compare");
  expect_error({"rules", "stats", kRadix4}, "--sizes");
  expect_error({"rules", "stats", kRadix4, "--sizes", "1"}, "--sizes");
  expect_error({"rules", "stats", test_rules("missing.rules"), "--sizes", "64"}, "missing.rules:0:0: cannot read file");
  expect_error({"rules", "stats", test_rules("false_cooley_tukey.rules"), "--sizes", "64"}, "does not hold");
}

TEST_F(RulesLoopCliTest, RulesStatsCountsBothKernelsOfEverySize) {
  ProgramResult r = splgen({"rules", "stats", kRadix4, "--sizes", "2^4..2^8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = test::text_lines(r.out);
  ASSERT_EQ(lines.size(), 2u + 2 * 5) << r.out;  // title, header, two rows for each of 16 .. 256
  EXPECT_EQ(words(lines[1]), (std::vector<std::string>{"n", "rules", "adds", "muls", "loads", "stores", "passes", "plan"}));
  for (std::size_t i = 2; i < lines.size(); i += 2) {
    std::vector<std::string> without = words(lines[i]), with = words(lines[i + 1]);
    ASSERT_GE(without.size(), 8u) << lines[i];
    ASSERT_GE(with.size(), 8u) << lines[i + 1];
    EXPECT_EQ(without[1], "without");
    EXPECT_EQ(with[1], "with");
    const long n = std::stol(without[0]);
    EXPECT_EQ(std::stol(with[0]), n);
    for (const auto *row : {&without, &with}) {
      // Every stage writes the n complex outputs once: passes are the stores over 2n.
      EXPECT_DOUBLE_EQ(std::stod((*row)[6]), std::stod((*row)[5]) / double(2 * n)) << lines[i];
      EXPECT_GE(std::stol((*row)[4]), 2 * n);  // every input read at least once
    }
    if (n <= 32) {  // a codelet either way: the rule changes nothing
      EXPECT_EQ(std::vector<std::string>(without.begin() + 2, without.end()),
                std::vector<std::string>(with.begin() + 2, with.end()));
      EXPECT_EQ(with[7], "DFT_Codelet(unrolled)");
    } else {
      EXPECT_EQ(with[7].rfind("radix4_dit(", 0), 0u) << lines[i + 1];
      EXPECT_EQ(without[7].rfind("dft_ct_dit(", 0), 0u) << lines[i];
    }
  }
  // The counts are those of the kernels: radix-4 at 256 (4 x 4 x 16) stores in three passes,
  // the default (16 x 16) in two.
  EXPECT_EQ(words(lines[10])[6], "2");
  EXPECT_EQ(words(lines[11])[6], "3");
}

TEST_F(RulesLoopCliTest, SearchEnumeratesTheRulesAndItsWisdomGoesStaleWhenTheFileChanges) {
  ProgramResult s = splgen({"search", "DFT(64)", "--isa", "scalar", "--strategy", "estimate", "--quiet", "--show", "100",
                            "--rules", kRadix4});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(contains(s.out, "  radix4_dit(4,16)\n")) << s.out;  // its choice, enumerated like dit's

  // radix8_dit(8,8) is the formula of the model's best plan (dit(8,8)); the file's rule comes
  // first, so the plan is stored under its name, with the file's stamp.
  std::string rules = dir.write("radix8.rules",
                                "# Radix-8 DIT\nrule radix8_dit: DFT(8*m, k) => (DFT(8, k) (x) I(m)) * T(8*m, m, k) * "
                                "(I(8) (x) DFT(m, k)) * L(8*m, 8)\n  if m > 1;\n");
  std::string wisdom = dir.file("r8.wisdom");
  ProgramResult w = splgen({"search", "DFT(64)", "--isa", "scalar", "--strategy", "estimate", "--quiet", "--rules",
                            rules, "--wisdom", wisdom});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_TRUE(contains(w.out, "best: radix8_dit(8,8)")) << w.out;
  search::Wisdom stored = search::load_wisdom(wisdom);
  ASSERT_EQ(stored.entries.size(), 1u);
  ASSERT_EQ(stored.entries[0].rule_files.size(), 1u);
  EXPECT_EQ(stored.entries[0].rule_files[0].hash, search::rule_file_hash(rules));

  ProgramResult used = splgen({"gen", "DFT(64)", "--wisdom", wisdom});
  ASSERT_EQ(used.exit_code, 0) << used.err;
  EXPECT_EQ(used.err, "");
  EXPECT_TRUE(contains(used.out, "// formula: " + stored.entries[0].formula)) << used.out.substr(0, 400);

  std::ofstream(rules, std::ios::app) << "# an edit\n";
  ProgramResult stale = splgen({"gen", "DFT(64)", "--wisdom", wisdom});
  EXPECT_EQ(stale.exit_code, 0) << stale.err;
  EXPECT_EQ(stale.out, splgen({"gen", "DFT(64)"}).out);  // the default plan
  EXPECT_TRUE(contains(stale.err, "is stale: its plan uses the rules of")) << stale.err;
  EXPECT_TRUE(contains(stale.err, "radix8.rules, which changed since the search; using the default plan")) << stale.err;
}

TEST_F(RulesLoopCliTest, BenchComparesTheRulesKernelWithTheDefaultAndFftw) {
  std::string csv = dir.file("c.csv");
  ProgramResult r = splgen({"bench", "--sizes", "64,256", "--rules", kRadix4, "--compare", "default", "--isa",
                            "scalar", "--reps", "3", "--min-time-ms", "0.2", "--no-patient", "--csv", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = test::text_lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;  // title, header, 64, 256
  EXPECT_TRUE(contains(lines[0], "splgen scalar rules vs")) << lines[0];
  EXPECT_TRUE(contains(lines[1], "splgen scalar rules  splgen default  FFTW_MEASURE  vs default  vs MEASURE"))
      << lines[1];
  for (std::size_t i = 2; i < 4; ++i) {
    std::vector<std::string> cells = words(lines[i]);
    ASSERT_EQ(cells.size(), 7u) << lines[i];  // n, three speeds, two ratios, the error
    for (std::size_t c = 1; c < 4; ++c) EXPECT_GT(std::stod(cells[c]), 0) << lines[i];
    // A ratio is the rules' kernel's speed over the other's.
    const double ratio = std::stod(cells[1]) / std::stod(cells[2]);
    EXPECT_NEAR(std::stod(cells[4]), ratio, 0.01 + 0.02 * ratio) << lines[i];  // both rounded to 2 decimals
    EXPECT_LT(std::stod(cells[6]), 1e-13) << lines[i];  // the rules' kernel is checked before it is timed
  }
  std::vector<std::string> records = test::text_lines(test::read_text_file(csv));
  ASSERT_EQ(records.size(), 3u);
  for (const char *column : {"splgen_scalar_rules_ns", "splgen_default_ns", "fftw_measure_ns", "ratio_vs_splgen_default",
                             "rules"})
    EXPECT_TRUE(contains(records[0], column)) << column << ": " << records[0];
  EXPECT_TRUE(contains(records[1], "radix4.rules")) << records[1];  // the metadata names the files
}

TEST_F(RulesLoopCliTest, AResearchersSmpRuleIsUsedByTheThreadsLowering) {
  const std::string variant = test_rules("smp_variant.rules");
  ProgramResult with = splgen({"lower", "DFT(2^13)", "--threads", "2", "--rules", variant, "--dump-after=sigma"});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  std::string applied = test::text_lines(with.out).at(1);
  EXPECT_EQ(applied.rfind("tag rules applied: ", 0), 0u) << applied;
  EXPECT_TRUE(contains(applied, "my_smp_twiddle [" + variant + ":4]")) << applied;
  EXPECT_FALSE(contains(applied, " smp_twiddle [")) << applied;  // the file's rule came first

  ProgramResult shipped = splgen({"lower", "DFT(2^13)", "--threads", "2", "--dump-after=sigma"});
  ASSERT_EQ(shipped.exit_code, 0) << shipped.err;
  EXPECT_TRUE(contains(test::text_lines(shipped.out).at(1), " smp_twiddle [")) << shipped.out.substr(0, 300);

  // The kernel made with it computes the DFT (Ergun's checks, no reference FFT needed).
  ProgramResult check = splgen({"selftest", "DFT(2^13)", "--threads", "2", "--rules", variant, "--rounds", "2"});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_TRUE(contains(check.out, "OK: time shift")) << check.out;
}


// ---- the tutorial of docs/rule-language.md, as written ----------------------------------

struct Example {
  std::vector<std::string> args;      // after "$ splgen"
  std::vector<std::string> expected;  // the lines shown under it
  bool prefix = false;                // a "..." line: only the lines before it are compared
};

// "expand \"DFT(256)\" --rules F" -> {expand, DFT(256), --rules, F}
std::vector<std::string> shell_words(const std::string &line) {
  std::vector<std::string> out;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted, any = true;
    } else if (c == ' ' && !quoted) {
      if (any) out.push_back(word);
      word.clear(), any = false;
    } else {
      word += c, any = true;
    }
  }
  if (any) out.push_back(word);
  return out;
}

// The `$ splgen ...` examples of the section's text blocks.
std::vector<Example> tutorial_examples() {
  std::string doc = test::read_text_file(std::string(SPLGEN_TEST_DIR) + "/../docs/rule-language.md");
  std::size_t begin = doc.find("## The rule researcher's loop");
  std::size_t end = doc.find("\n## ", begin + 1);
  std::vector<Example> out;
  bool in_text = false;
  for (const std::string &line : test::text_lines(doc.substr(begin, end == std::string::npos ? end : end - begin))) {
    if (line.rfind("```", 0) == 0) {
      in_text = !in_text && line == "```text";
      continue;
    }
    if (!in_text) continue;
    if (line.rfind("$ splgen ", 0) == 0) {
      out.push_back({shell_words(line.substr(9)), {}, false});
    } else if (!out.empty() && !out.back().prefix) {
      if (line == "...")
        out.back().prefix = true;
      else
        out.back().expected.push_back(line);
    }
  }
  return out;
}

std::string without_times(std::string line) { return std::regex_replace(line, std::regex(" in [0-9.]+ s:"), " in T s:"); }

TEST(RulesLoopTutorial, RunsAsWritten) {
  const std::string root = std::string(SPLGEN_TEST_DIR) + "/..";
  test::TempDir scratch("splgen-tutorial");
  int checked = 0;
  for (const Example &e : tutorial_examples()) {
    const std::string &sub = e.args.at(0);
    if (sub != "rules" && sub != "expand" && sub != "lower") continue;  // bench, search: timed, elsewhere
    std::string command = "cd " + kernel::shell_quote(root) + " && exec " + kernel::shell_quote(SPLGEN_BINARY);
    for (const std::string &a : e.args) command += " " + kernel::shell_quote(a);
    ProgramResult r = test::run_program("/bin/sh", {"-c", command}, scratch.path().string());
    std::vector<std::string> got = test::text_lines(r.out + r.err);
    if (e.prefix && got.size() > e.expected.size()) got.resize(e.expected.size());
    std::vector<std::string> want = e.expected;
    for (std::string &l : got) l = without_times(l);
    for (std::string &l : want) l = without_times(l);
    EXPECT_EQ(got, want) << "$ splgen " << command;
    EXPECT_EQ(r.exit_code, want.at(0).rfind("splgen: error: ", 0) == 0 ? 2 : 0) << command;
    ++checked;
  }
  EXPECT_GE(checked, 8);  // check, three expands, two errors, stats, lower
}

}  // namespace
}  // namespace splgen
