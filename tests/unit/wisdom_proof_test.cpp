// Wisdom that is wrong, corrupt or large (issue 18, items 3, 4, 12, 13; docs/search.md, "Wisdom
// files"): a plan read from a file is proved before it is used or merged; a wrong one is never a
// kernel and never replaces a good entry; invalid UTF-8 is refused; big files read fast.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/search/wisdom.h"
#include "generator/support/json.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen::search {
namespace {

using test::contains;

const char *const kGoodPlan64 = "(DFT(8) (x) I(8)) * T(64,8) * (I(8) (x) DFT(8)) * L(64,8)";
// Hand-edited plans for DFT(64) of the right size that are not DFT(64).
const std::vector<std::string> kWrongPlans64{
    "I(64)",
    "(DFT(8) (x) I(8)) * (I(8) (x) DFT(8)) * L(64,8)",            // the twiddles missing
    "DFT(64,-1)",                                                // the inverse
    "(DFT(8) (x) I(8)) * T(64,8,3) * (I(8) (x) DFT(8)) * L(64,8)",  // another root in the twiddles
    "L(64,8) * DFT(64)"};

// An entry for SPEC on this machine (the key gen --wisdom looks up), with FORMULA and time NS.
WisdomEntry entry(const std::string &spec, const std::string &formula, double ns) {
  WisdomEntry e;
  e.key = wisdom_key(spec, driver::GenOptions{});
  e.formula = formula;
  e.tree = "hand";
  e.ns = ns;
  e.default_ns = 2 * ns;
  e.strategy = "dp";
  return e;
}

std::string file_of(const std::vector<WisdomEntry> &entries) {
  Wisdom w;
  w.entries = entries;  // as a hand-edited file would hold them: unproved
  return format_wisdom(w);
}

TEST(WisdomProof, LookupRefusesAPlanThatIsNotTheSpec) {
  test::TempDir dir("splgen-wisdom-proof");
  for (const std::string &plan : kWrongPlans64) {
    SCOPED_TRACE(plan);
    std::string path = dir.write("w.wisdom", file_of({entry("DFT(64)", plan, 10)}));
    WisdomLookup found = lookup_wisdom(path, "DFT(64)", driver::GenOptions{});
    EXPECT_FALSE(found.plan);
    EXPECT_TRUE(contains(found.message, path) && contains(found.message, "DFT(64) (scalar, double)") &&
                contains(found.message, "unusable") && contains(found.message, "using the default plan"))
        << found.message;
  }
  std::string path = dir.write("w.wisdom", file_of({entry("DFT(64)", kGoodPlan64, 10)}));
  EXPECT_TRUE(lookup_wisdom(path, "DFT(64)", driver::GenOptions{}).plan);
  // The inverse: DFT(64,63) is its key, and a forward plan is wrong for it.
  driver::GenOptions inverse;
  inverse.inverse = true;
  WisdomEntry i = entry("DFT(64)", kGoodPlan64, 10);
  i.key = wisdom_key("DFT(64)", inverse);
  path = dir.write("w.wisdom", file_of({i}));
  EXPECT_FALSE(lookup_wisdom(path, "DFT(64)", inverse).plan);
}

TEST(WisdomProof, EntryProblemNamesWhatIsWrong) {
  EXPECT_EQ(entry_problem(entry("DFT(64)", kGoodPlan64, 10)), "");
  EXPECT_EQ(entry_problem(entry("DFT(64)", "DFT(64)", 0)), "");  // untimed (estimate), the default expansion
  EXPECT_TRUE(contains(entry_problem(entry("DFT(64)", "I(64)", 10)), "relative RMS error"));
  EXPECT_TRUE(contains(entry_problem(entry("DFT(64)", "DFT(32)", 10)), "32 x 32"));
  EXPECT_TRUE(contains(entry_problem(entry("DFT(64)", "DFT(64", 10)), "does not parse"));
  EXPECT_TRUE(contains(entry_problem(entry("DFT(64)", kGoodPlan64, -1)), "time_ns"));
  WisdomEntry isa = entry("DFT(64)", kGoodPlan64, 10);
  isa.key.isa = "avx9";
  EXPECT_TRUE(contains(entry_problem(isa), "avx9"));
}

// Item 4: a wrong entry, however fast, never replaces a good one; a good one replaces a wrong
// one, however slow.
TEST(WisdomProof, UpdateNeverStoresAWrongPlan) {
  test::TempDir dir("splgen-wisdom-proof");
  std::string path = dir.file("w.wisdom");
  WisdomUpdate u = update_wisdom(path, {entry("DFT(64)", kGoodPlan64, 100)});
  EXPECT_TRUE(u.left_out.empty());
  u = update_wisdom(path, {entry("DFT(64)", "I(64)", 1), entry("DFT(64)", "DFT(64", 0)});
  EXPECT_EQ(u.left_out.size(), 2u);
  ASSERT_EQ(load_wisdom(path).entries.size(), 1u);
  EXPECT_EQ(load_wisdom(path).entries[0].formula, kGoodPlan64);

  dir.write("w.wisdom", file_of({entry("DFT(64)", "I(64)", 1)}));  // hand-edited
  update_wisdom(path, {entry("DFT(64)", kGoodPlan64, 100)});
  EXPECT_EQ(load_wisdom(path).entries.at(0).formula, kGoodPlan64);
}

class WisdomProofCli : public test::SplgenCommandTest {
 protected:
  WisdomProofCli() : SplgenCommandTest("splgen-wisdom-proof-cli") {}
};

// Item 3: gen --wisdom with a wrong plan emits the default kernel, with one line naming the
// file and the entry.
TEST_F(WisdomProofCli, GenFallsBackFromAWrongPlan) {
  test::ProgramResult plain = splgen({"gen", "DFT(64)"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const std::string &plan : kWrongPlans64) {
    SCOPED_TRACE(plan);
    std::string path = dir.write("w.wisdom", file_of({entry("DFT(64)", plan, 10)}));
    test::ProgramResult r = splgen({"gen", "DFT(64)", "--wisdom", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, plain.out);
    EXPECT_EQ(test::text_lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "splgen: wisdom " + path + ": the entry for DFT(64) (scalar, double) is unusable"))
        << r.err;
  }
}

// Item 4: wisdom merge proves each incoming entry, keeps the good one, names the file of a bad
// one; invalid UTF-8 is refused with its line and column.
TEST_F(WisdomProofCli, MergeKeepsGoodEntries) {
  std::string good = dir.write("good.wisdom", file_of({entry("DFT(64)", kGoodPlan64, 100)}));
  std::string bad = dir.write("bad.wisdom", file_of({entry("DFT(64)", "I(64)", 1), entry("DFT(32)", "DFT(32", 0)}));
  std::string before = test::read_text_file(good);
  test::ProgramResult r = splgen({"wisdom", "merge", good, bad});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, good + ": 1 entry\n");
  EXPECT_EQ(test::text_lines(r.err).size(), 2u) << r.err;
  EXPECT_TRUE(contains(r.err, "splgen: wisdom " + bad + ": the entry for DFT(64) (scalar, double) is left out"))
      << r.err;
  EXPECT_EQ(test::read_text_file(good), before);

  std::string text = file_of({entry("DFT(64)", kGoodPlan64, 1)});
  text.replace(text.find("hand"), 4, "h\xC3(d");
  std::string utf8 = dir.write("utf8.wisdom", text);
  expect_error({"wisdom", "merge", good, utf8}, "utf8.wisdom:", 2);
  expect_error({"wisdom", "merge", good, utf8}, "invalid UTF-8", 2);
  EXPECT_EQ(test::read_text_file(good), before);
}

TEST(WisdomJson, RefusesInvalidUtf8) {
  using support::parse_json;
  EXPECT_EQ(parse_json("\"d\xC3\xA9j\xC3\xA0 \xF0\x9F\x98\x80\"").as_string(), "d\xC3\xA9j\xC3\xA0 \xF0\x9F\x98\x80");
  EXPECT_EQ(parse_json("\"\\ud83d\\ude00\"").as_string(), "\xF0\x9F\x98\x80");
  for (const char *bad : {"\"\xC3(\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"", "\"\xF5\x80\x80\x80\"", "\"\xE2\x82\""}) {
    try {
      parse_json(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const support::JsonError &e) {
      EXPECT_TRUE(contains(e.what(), "1:2: invalid UTF-8")) << e.what();
    }
  }
  EXPECT_EQ(parse_json(support::json_quote("a\xC3\xA9\xFF")).as_string(), "a\xC3\xA9\xEF\xBF\xBD");  // U+FFFD
  EXPECT_THROW(parse_json("\"\\ud83d\""), support::JsonError);  // a lone surrogate
  EXPECT_THROW(parse_json("\"\\ude00x\""), support::JsonError);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Item 12: near-linear reading. Before: 18.6 s for 100k members, 38 s for 4000 entries.
TEST(WisdomJson, ManyMembersReadFast) {
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) text += fmt::format("{}\"m{}\": {}", i ? ", " : "", i, i);
  text += ", \"m5\": \"last\"}";
  auto start = std::chrono::steady_clock::now();
  support::Json j = support::parse_json(text);
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_EQ(j.members().size(), 100000u);
  EXPECT_EQ(j.members()[5].first, "m5");  // a name given twice: the first place, the last value
  EXPECT_EQ(j.find("m5")->as_string(), "last");
}

TEST(WisdomProof, BigFilesReadFast) {
  std::vector<WisdomEntry> entries;
  for (int i = 0; i < 4000; ++i) {
    WisdomEntry e = entry(fmt::format("DFT({})", 2 + i % 1000), "DFT(2)", 10);
    e.key.cpu = fmt::format("CPU {}", i / 1000);
    e.formula = e.key.spec;
    entries.push_back(e);
  }
  test::TempDir dir("splgen-wisdom-proof");
  std::string path = dir.write("w.wisdom", file_of(entries));
  auto start = std::chrono::steady_clock::now();
  Wisdom w = load_wisdom(path);
  WisdomLookup found = lookup_wisdom(path, "DFT(64)", driver::GenOptions{});
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_EQ(w.entries.size(), 4000u);
  EXPECT_EQ(w.entries.front().key.spec, "DFT(2)");  // sorted by size
  EXPECT_EQ(w.entries.back().key.spec, "DFT(1001)");
  EXPECT_FALSE(found.plan);  // stale: another CPU
}

}  // namespace
}  // namespace splgen::search
