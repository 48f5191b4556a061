// The rule researcher's loop in process (docs/rule-language.md, "The rule researcher's loop"):
// rule selection in the expander (preferred rules, closed sets, the file and line of each
// rule used), operation counts of loop programs, and the rule files wisdom entries depend on.
// The command end to end: rules_loop_cli_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/expand/expand.h"
#include "generator/ir/dense.h"
#include "generator/ir/loops.h"
#include "generator/ir/print.h"
#include "generator/lower/count_operations.h"
#include "generator/search/wisdom.h"
#include "tests/support/kernel_loader.h"

namespace splgen {
namespace {

std::string radix4_file() { return std::string(SPLGEN_TEST_DIR) + "/rules/radix4.rules"; }

std::string read(const std::string &path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write(const std::string &path, const std::string &text) { std::ofstream(path) << text; }

bool ends_with(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The rules of `--rules radix4.rules`, and the breakdown rules among them.
struct Radix4 {
  rewrite::RuleLibrary library = driver::rules_with_files({radix4_file()});
  std::vector<const Rule *> breakdown = expand::breakdown_rules(library);
  const Rule *rule = library.find("radix4_dit");
};

TEST(RuleSelection, APreferredRuleWinsWhereItApplies) {
  Radix4 r;
  ASSERT_NE(r.rule, nullptr);
  expand::Expansion plain = expand::expand(make_dft(256), r.breakdown);
  EXPECT_EQ(plain.trees.at(0)->rule, "dft_ct_dit");  // as good as 16 x 16 it is not: only ties go to it
  expand::ExpandOptions o;
  o.preferred = {r.rule};
  expand::Expansion preferred = expand::expand(make_dft(256), r.breakdown, o);
  const expand::RuletreePtr &root = preferred.trees.at(0);
  EXPECT_EQ(root->rule, "radix4_dit");
  EXPECT_EQ(root->choice, "k=1, m=64");
  EXPECT_TRUE(ends_with(root->source, "tests/rules/radix4.rules:5")) << root->source;
  ASSERT_EQ(root->children.size(), 2u);  // DFT(4), a codelet, and DFT(64), split by the rule again
  EXPECT_EQ(root->children[1]->rule, "radix4_dit");
  EXPECT_EQ(root->children[0]->source, "");  // the codelet is C++, not a rule of a file
  EXPECT_LT(max_abs_difference(to_dense(preferred.formula), to_dense(make_dft(256))), 1e-9);
}

TEST(RuleSelection, AClosedSetThatCannotExpandASpecIsAnError) {
  Radix4 r;
  expand::ExpandOptions o;
  o.closed = true;
  expand::Expansion ok = expand::expand(make_dft(512), {r.rule}, o);
  EXPECT_EQ(ok.trees.at(0)->rule, "radix4_dit");
  try {
    expand::expand(make_dft(1000), {r.rule}, o);  // 1000 = 4 x 250, and 250 is no multiple of 4
    FAIL() << "DFT(250) cannot be expanded by radix4_dit alone";
  } catch (const FormulaError &e) {
    EXPECT_NE(std::string(e.what()).find("--only-rules radix4_dit: no rule of the set breaks DFT(250) down"),
              std::string::npos) << e.what();
  }
  o.closed = false;  // an open set leaves it to an O(n^2) loop
  EXPECT_EQ(expand::expand(make_dft(1000), {r.rule}, o).trees.at(0)->children.at(1)->rule, "DFT_Direct");
}

TEST(RuleSelection, TheDriverRefusesUnknownAndNonBreakdownNames) {
  driver::GenOptions g;
  g.rule_files = {radix4_file()};
  g.only_rules = {"radix4_dti"};
  EXPECT_THROW(driver::start("DFT(64)", g), FormulaError);
  g.only_rules = {"smp_compose"};  // a tag rule
  EXPECT_THROW(driver::start("DFT(64)", g), FormulaError);
  g.only_rules = {"radix4_dit", "dft_base_2"};
  driver::Compilation c = driver::start("DFT(64)", g);
  driver::run_until(c, driver::Stage::Expand);
  EXPECT_EQ(c.expansion.trees.at(0)->rule, "radix4_dit");
  driver::GenOptions prefer;
  prefer.prefer_rules = true;  // without --rules there is nothing to prefer
  EXPECT_THROW(driver::start("DFT(64)", prefer), FormulaError);
}

// y[i] = x[i].re + 2 x[i].im for 4 values: one loop, one store per iteration.
Function small_function(int loops) {
  Function f;
  f.rows = f.cols = 4;
  f.buffers = {Buffer{0, BufferRole::Input, 4, "x", {}, {}, false}, Buffer{1, BufferRole::Output, 4, "y", {}, {}, false}};
  std::vector<Stmt> body;
  for (int l = 0; l < loops; ++l) {
    LoopVar i{l, 4};
    Idx at = idx_affine(Affine::var(i));
    Expr value = e_add(e_load(0, at, 0), e_mul(e_load(0, at, 1), e_const(2)));
    body.push_back(make_for(i, make_store(1, at, 0, value)));
  }
  body.push_back(make_store(1, idx_const(0), 1, e_const(0)));  // straight-line code
  f.body = make_block(body);
  return f;
}

TEST(OperationCounts, EachStatementOncePerIteration) {
  lower::OperationCount c = lower::count_operations(small_function(2));
  EXPECT_EQ(c.adds, 8);
  EXPECT_EQ(c.muls, 8);
  EXPECT_EQ(c.loads, 16);
  EXPECT_EQ(c.stores, 9);
  EXPECT_DOUBLE_EQ(c.passes, 9.0 / 8.0);  // 9 reals stored, the result holds 8
}

lower::OperationCount kernel_counts(const std::string &spec) {
  driver::Compilation c = driver::start(spec, driver::GenOptions{});
  driver::run_until(c, driver::Stage::Loops);
  return lower::count_operations(c.program.loops);
}

TEST(OperationCounts, TheButterfliesOfKnownCost) {
  // DFT(2): two complex additions; DFT(4): the radix-4 butterfly, 16 real additions and no
  // multiplication (the factors are +-1 and +-i). Each reads x and writes y once.
  lower::OperationCount two = kernel_counts("DFT(2)"), four = kernel_counts("DFT(4)");
  EXPECT_EQ(two.adds, 4);
  EXPECT_EQ(two.muls, 0);
  EXPECT_EQ(two.loads, 4);
  EXPECT_EQ(two.stores, 4);
  EXPECT_DOUBLE_EQ(two.passes, 1);
  EXPECT_EQ(four.adds, 16);
  EXPECT_EQ(four.muls, 0);
  EXPECT_EQ(four.loads, 8);
  EXPECT_EQ(four.stores, 8);
  EXPECT_DOUBLE_EQ(four.passes, 1);
  // DFT(16): the split-radix count (Yavne 1968; Duhamel & Hollmann 1984), 4 n log2 n - 6 n + 8 =
  // 168 real operations, 144 additions and 24 multiplications.
  lower::OperationCount sixteen = kernel_counts("DFT(16)");
  EXPECT_EQ(sixteen.adds, 144);
  EXPECT_EQ(sixteen.muls, 24);
}

class RuleFileStamps : public ::testing::Test {
 protected:
  test::TempDir dir{"splgen-stamps"};
  std::string rules = dir.write("radix4.rules", read(radix4_file()));
  search::Plan plan(const std::string &tree, bool is_default = false) {
    search::Plan p;
    p.tree = tree;
    p.is_default = is_default;
    return p;
  }
};

TEST_F(RuleFileStamps, APlanDependsOnTheFilesOfTheRulesItNames) {
  std::vector<search::RuleFileStamp> used = search::plan_rule_files(plan("dit(4,radix4_dit(4,16))"), {rules});
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].file, std::filesystem::absolute(rules).lexically_normal().string());
  EXPECT_EQ(used[0].hash, search::rule_file_hash(rules));
  EXPECT_EQ(used[0].hash.rfind("fnv1a64:", 0), 0u);
  EXPECT_TRUE(search::plan_rule_files(plan("dit(16,16)"), {rules}).empty());
  EXPECT_EQ(search::plan_rule_files(plan("default", true), {rules}).size(), 1u);  // the default may use them
}

TEST_F(RuleFileStamps, AnEntryWhoseRuleFileChangedIsStale) {
  driver::GenOptions g;
  search::WisdomEntry e;
  e.key = search::wisdom_key("DFT(64)", g);
  e.formula = print(search::default_plan("DFT(64)", g).formula);
  e.tree = "radix4_dit(4,16)";
  e.ns = 100;
  e.rule_files = search::plan_rule_files(plan(e.tree), {rules});
  std::string file = dir.file("w.wisdom");
  search::update_wisdom(file, {e});
  EXPECT_NE(read(file).find("\"rule_files\""), std::string::npos) << read(file);
  EXPECT_EQ(search::load_wisdom(file).entries.at(0).rule_files, e.rule_files);  // read back as written
  EXPECT_TRUE(search::lookup_wisdom(file, "DFT(64)", g).plan.has_value());

  write(rules, read(rules) + "# changed\n");
  search::WisdomLookup stale = search::lookup_wisdom(file, "DFT(64)", g);
  EXPECT_FALSE(stale.plan.has_value());
  EXPECT_NE(stale.message.find("is stale: its plan uses the rules of"), std::string::npos) << stale.message;
  EXPECT_NE(stale.message.find("which changed since the search"), std::string::npos) << stale.message;
  std::filesystem::remove(rules);
  EXPECT_NE(search::rule_files_problem(e).find("cannot be read"), std::string::npos);

  e.ns = 1000;  // slower, but the stale entry gives way to it
  e.rule_files.clear();
  search::update_wisdom(file, {e});
  EXPECT_TRUE(search::lookup_wisdom(file, "DFT(64)", g).plan.has_value());
}

}  // namespace
}  // namespace splgen
