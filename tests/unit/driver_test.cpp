// The staged driver (generator/driver/pipeline.h): entered at any stage, left after any stage,
// and the same bytes whichever way the stages are run.
#include <gtest/gtest.h>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "generator/parse/formula_parser.h"

namespace splgen::driver {
namespace {

TEST(Driver, RunsOnlyAsFarAsAsked) {
  Compilation c = start("DFT(256)", GenOptions{});
  EXPECT_EQ(c.reached, Stage::Spec);
  run_until(c, Stage::Expand);
  EXPECT_EQ(c.reached, Stage::Expand);
  EXPECT_TRUE(c.expansion.formula);
  EXPECT_FALSE(c.sigma);
  EXPECT_TRUE(c.source.empty());
  EXPECT_THROW(dump_stage(c, Stage::Loops), std::invalid_argument);
  run_until(c, Stage::Code);
  EXPECT_EQ(c.source, run_pipeline("DFT(256)", GenOptions{}).source);
}

TEST(Driver, EntersAtAFormula) {
  GenOptions o;
  o.isa = Isa::Avx2;
  Compilation whole = run_pipeline("DFT(64)", o);
  Compilation c = start_at_formula(make_dft(64), whole.expansion.formula, o);
  run_until(c, Stage::Code);
  EXPECT_EQ(c.source, whole.source);
  EXPECT_THROW(start_at_formula(make_dft(32), whole.expansion.formula, o), FormulaError);
}

TEST(Driver, EntersAtSigmaAndAtLoops) {
  Compilation whole = run_pipeline("DFT(32 x 4)", GenOptions{});
  Compilation s = start_at_sigma(whole.spec, whole.merged, GenOptions{});
  run_until(s, Stage::Loops);
  EXPECT_LT(max_abs_difference(to_dense(s.program), to_dense(whole.spec)), 1e-9);
  Compilation l = start_at_loops(whole.spec, whole.program, GenOptions{});
  run_until(l, Stage::Code);
  EXPECT_NE(l.source.find("void "), std::string::npos);
}

TEST(Driver, LoopsStageShowsTheComplexCodelet) {
  GenOptions o;
  o.isa = Isa::Avx2;
  Compilation c = run_pipeline("DFT(12)", o);
  ASSERT_TRUE(c.program.codelet);
  EXPECT_EQ(dump_stage(c, Stage::Loops).rfind("complex codelet splgen_dft12", 0), 0u);
  EXPECT_LT(max_abs_difference(to_dense(c.program), to_dense(make_dft(12))), 1e-9);
}

}  // namespace
}  // namespace splgen::driver
