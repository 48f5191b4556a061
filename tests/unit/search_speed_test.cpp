// What makes the search cheap (docs/search.md, "Cost of a search"): the precompiled kernel
// headers, the compile that falls back without them, and dp's pruned rounds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "generator/ir/spl.h"
#include "generator/measure/compile.h"
#include "generator/search/evaluate.h"
#include "generator/search/precompiled.h"
#include "generator/search/search.h"
#include "tests/support/quick_search.h"

namespace splgen::search {
namespace {

TEST(SearchPrecompiled, HeaderIsMadeAndRefusedCompilersGiveNone) {
  measure::TempDir dir("splgen-pch-test");
  std::string header = precompile_kernel_headers(dir.path().string(), "", "-O1");
  ASSERT_FALSE(header.empty());
  EXPECT_TRUE(std::filesystem::exists(header + ".gch"));
  std::ifstream in(header);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, kernel_headers());
  EXPECT_EQ(precompile_kernel_headers(dir.path().string(), "false", "-O1"), "");  // a compiler that fails
}

// A unit compiled with a header the compiler cannot read is compiled again without it.
TEST(SearchPrecompiled, UnitsCompileWithoutABadHeader) {
  EvalOptions o;
  o.flags = "-O1";
  o.repetitions = 3;
  o.min_sample_seconds = 1e-5;
  o.include_header = "/nonexistent/splgen_kernel_headers.h";
  Plan codelet;
  codelet.formula = make_dft(8);
  codelet.tree = "8";
  std::vector<Evaluation> e = evaluate_plans(make_dft(8), {codelet}, o);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].status, Evaluation::Status::Ok) << e[0].message;
}

SearchOptions dp(const std::string &spec) { return test::quick_search(spec, "dp", 1); }

// DFT(16) has 6 splits (dit and dif of 2x8, 4x4, 8x2); with 2 of them modelled and the
// alternates of 1, fewer candidates are timed than with every split.
TEST(SearchDp, ModelAndAlternatesPruneTheRounds) {
  SearchOptions all = dp("DFT(16)");
  all.model_splits = 0;
  SearchResult every = run_search(all);
  SearchOptions few = dp("DFT(16)");
  few.model_splits = 2;
  few.alternate_splits = 1;
  SearchResult pruned = run_search(few);
  EXPECT_LT(pruned.done, every.done);
  EXPECT_GT(pruned.done, 3);
  EXPECT_GT(pruned.best_ns, 0);
  EXPECT_EQ(pruned.candidates.front().eval.status, Evaluation::Status::Ok);
}

}  // namespace
}  // namespace splgen::search
