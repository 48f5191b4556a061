// Rules with Sigma-SPL left sides (docs/rule-language.md, "Sigma-SPL left sides"): parsing,
// matching against Sigma-SPL (loops, index functions, diagonals, formula variables), the
// checker, and the par all-to-all composition rule of seed 004 applied by lower_with_rules.
#include <gtest/gtest.h>

#include <string>

#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/parse/formula_parser.h"
#include "generator/prove/checker.h"
#include "generator/lower/lower_with_rules.h"
#include "generator/rewrite/engine.h"
#include "generator/rewrite/library.h"
#include "generator/parse/rule_parser.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::rewrite {

using parse::parse_rule;
using prove::check_rule;
using prove::CheckResult;
namespace {

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

RuleLibrary shipped_par() {
  RuleLibrary lib;
  lib.load(default_rules_dir() + "/par.rules");
  return lib;
}

// Sigma-SPL of a par-tagged formula lowered with the tag rules only (no Sigma-SPL rewrites).
Sigma lowered_without_sigma_rules(const std::string &formula, const RuleLibrary &lib) {
  std::vector<const Rule *> tag_rules;
  for (const Rule *r : lib.all())
    if (!is_sigma_rule(*r)) tag_rules.push_back(r);
  Spl f = rewrite_to_fixpoint(parse::parse_formula(formula), tag_rules);
  return lower::lower_with_rules(f, tag_rules);
}

void expect_same_matrix(const Sigma &s, const Spl &want) {
  Matrix w = to_dense(want);
  EXPECT_LT(max_abs_difference(to_dense(s), w), 1e-9) << print(s);
  EXPECT_LT(max_abs_difference(to_dense(lower::sigma_to_loops(lower::merge_loops(s), "t")), w), 1e-9) << print(s);
}

TEST(SigmaRules, LeftSidesParse) {
  Rule r = parse_rule(
      "rule a: (Sum_par(k < p) X[c] * G_dma(q(k, p, nu))) * Diag(D[p*c] o h(0, 1)) => "
      "Sum_par(k < p) X * Diag(D o q(k, p, nu)) * G_dma(q(k, p, nu));");
  EXPECT_TRUE(is_sigma_rule(r));
  ASSERT_EQ(r.lhs.kind, SplKind::Compose);
  ASSERT_EQ(r.lhs.children.size(), 2u);
  EXPECT_EQ(r.lhs.children[0].kind, SplKind::Sum);
  EXPECT_EQ(r.lhs.children[0].mode, SumMode::Parallel);
  const Term &diag = r.lhs.children[1];
  ASSERT_EQ(diag.kind, SplKind::Diag);
  EXPECT_EQ(diag.children.at(0).kind, SplKind::FormulaVar);
  EXPECT_EQ(diag.fn.kind, FnKind::H);
  EXPECT_FALSE(is_sigma_rule(parse_rule("rule b: par(p, mu)[ I(n) (x) A ] => Sum_par(k < p) A;")));
}

TEST(SigmaRules, MatchBindsLoopsIndexFunctionsAndFormulas) {
  // Sum_par(i0 < 2) S_dma(q(i0, 2, 4)) X G_dma(q(i0, 2, 4)) of the (7) stage of DFT(64) on 2 workers.
  RuleLibrary lib = shipped_par();
  Sigma s = lowered_without_sigma_rules("par(2,4)[ DFT(8) (x) I(8) ]", lib);
  Rule r = parse_rule("rule a: Sum_par(k < p) S_dma(q(k, p, nu)) * X[c] * G_dma(q(k, p, nu)) => X;");
  std::vector<Match> ms = match(r.lhs, s);
  ASSERT_EQ(ms.size(), 1u) << print(s);
  EXPECT_EQ(ms[0].sizes, (Bindings{{"c", 32}, {"nu", 4}, {"p", 2}}));
  ASSERT_EQ(ms[0].loops.count("k"), 1u);
  EXPECT_EQ(ms[0].loops.at("k").id, s->var.id);
  ASSERT_EQ(ms[0].sigmas.count("X"), 1u);
  EXPECT_EQ(ms[0].sigmas.at("X")->kind, SigmaKind::Sum);  // the inner loop of 4 DFT(8)'s
  // Other packet sizes, strides, non-DMA gathers, other sum modes do not match.
  for (const char *text : {"rule a: Sum_par(k < p) S_dma(q(k, p, 2)) * X * G_dma(q(k, p, 2)) => X;",
                           "rule a: Sum_par(k < p) S_dma(q(k, 1, nu)) * X * G_dma(q(k, 1, nu)) => X;",
                           "rule a: Sum_par(k < p) S_dma(q(k, p, nu)) * X * G(q(k, p, nu)) => X;",
                           "rule a: Sum(k < p) S_dma(q(k, p, nu)) * X * G_dma(q(k, p, nu)) => X;",
                           "rule a: Sum_par(k < 4) S_dma(q(k, p, nu)) * X * G_dma(q(k, p, nu)) => X;",
                           "rule a: Sum_par(k < p) S_dma(q(2*k, p, nu)) * X * G_dma(q(k, p, nu)) => X;"})
    EXPECT_TRUE(match(parse_rule(text).lhs, s).empty()) << text;
  // A base that depends on a loop the pattern does not name does not match a constant one.
  Sigma inner = s->children.front()->children.at(1);  // Sum(i1 < 4, S(h(i1, 4)) DFT(8) G(h(i1, 4)))
  ASSERT_EQ(inner->kind, SigmaKind::Sum) << print(s);
  EXPECT_EQ(match(parse_rule("rule a: Sum(j < n) S(h(j, n)) * A * G(h(j, n)) => A;").lhs, inner).size(), 1u);
  EXPECT_TRUE(match(parse_rule("rule a: Sum(j < n) S(h(0, n)) * A * G(h(j, n)) => A;").lhs, inner).empty());
  // An SPL pattern matches a kernel: A bound above is DFT(8); DFT(m) binds m.
  std::vector<Match> dft = match(parse_rule("rule a: Sum(j < n) S(h(j, n)) * DFT(m) * G(h(j, n)) => I(1);").lhs, inner);
  ASSERT_EQ(dft.size(), 1u);
  EXPECT_EQ(dft[0].sizes.at("m"), 8);
}

TEST(SigmaRules, ShippedCompositionRulesHoldAndFalseOnesAreRefuted) {
  RuleLibrary lib = shipped_par();
  for (const char *name : {"par_diag_into_dma_gather", "par_fuse_exchange", "par_fuse_exchange_local"}) {
    const Rule *r = lib.find(name);
    ASSERT_NE(r, nullptr) << name;
    EXPECT_TRUE(is_sigma_rule(*r));
    CheckResult c = check_rule(*r);
    EXPECT_TRUE(c.ok) << name << ": " << c.error << c.counterexample;
    EXPECT_GT(c.instances, 20) << name;
  }
  // The local reordering transposed the wrong way, the packets sent to the wrong offsets, and
  // the twiddles read at the wrong positions are all refuted.
  const char *wrong[] = {
      "rule w: (Sum_par(k < p) S_dma(q(k, p, nu)) * X[c] * G_dma(q(k, p, nu))) * "
      "(Sum_par(l < p) S(h(l*c, 1)) * Y[c] * G_dma(q(l, p, rho))) => "
      "(Sum_par(k < p) S_dma(q(k, p, nu)) * X * G(h(k*c, 1))) * "
      "(Sum_par(l < p) S_dma(q(l, p, c/p)) * (L(c/nu, c/nu/p) (x) I(nu)) * Y * G_dma(q(l, p, rho))) "
      "if divides(nu, c), divides(p, c / nu), divides(rho, c);",
      "rule w: (Sum_par(k < p) S_dma(q(k, p, nu)) * X[c] * G_dma(q(k, p, nu))) * "
      "(Sum_par(l < p) S(h(l*c, 1)) * Y[c] * G(h(l*c, 1))) => "
      "(Sum_par(k < p) S_dma(q(k, p, nu)) * X * G(h(k*c, 1))) * "
      "(Sum_par(l < p) S(h(l*c, 1)) * (L(c/nu, p) (x) I(nu)) * Y * G(h(l*c, 1))) "
      "if divides(nu, c), divides(p, c / nu);",
      "rule w: (Sum_par(k < p) S_dma(q(k, p, nu)) * X[c] * G_dma(q(k, p, nu))) * Diag(D[p*c] o h(0, 1)) => "
      "Sum_par(k < p) S_dma(q(k, p, nu)) * X * Diag(D o h(k*c, 1)) * G_dma(q(k, p, nu)) if divides(nu, c);",
  };
  for (const char *text : wrong) {
    CheckResult c = check_rule(parse_rule(text));
    EXPECT_FALSE(c.ok) << text;
    EXPECT_FALSE(c.counterexample.empty()) << text << ": " << c.error;
  }
}

TEST(SigmaRules, LoweringFusesTheExchangeBetweenTheStagesOfA1dDft) {
  // par(2,4)[DFT(64)]: two parallel stages, (8) then (7) (eq. (8) of seed 004). Lowered with
  // the tag rules alone, the first stage scatters to main memory in blocks and the second
  // gathers packets back by DMA, with the twiddles in between.
  RuleLibrary lib = shipped_par();
  Sigma before = lowered_without_sigma_rules("par(2,4)[ DFT(64) ]", lib);
  std::string b = print(before);
  EXPECT_EQ(count(b, "G_dma(q[64<-32](i0, 2, 4))"), 1) << b;
  EXPECT_EQ(count(b, "S(h[64<-32](32*i2, 1))"), 1) << b;
  EXPECT_EQ(count(b, "Diag(T(64,8) o h[64<-64](0, 1))"), 1) << b;
  // With the Sigma-SPL rules: the twiddles move into the second stage, and its gather and
  // the first stage's scatter become one all-to-all exchange of packets of 32/2 = 16.
  std::vector<const Rule *> all = lib.all();
  Spl f = rewrite_to_fixpoint(parse::parse_formula("par(2,4)[ DFT(64) ]"), all);
  Sigma after = lower::lower_with_rules(f, all);
  std::string a = print(after);
  EXPECT_EQ(count(a, "S_dma(q[64<-32](i2, 2, 16))"), 1) << a;     // the fused exchange
  EXPECT_EQ(count(a, "G(h[64<-32](32*i0, 1))"), 1) << a;          // the second stage reads locally
  EXPECT_EQ(count(a, "Diag(T(64,8) o q[64<-32](i0, 2, 4))"), 1) << a;
  EXPECT_EQ(count(a, "G_dma"), 1) << a;                            // only the input gather is left
  EXPECT_EQ(count(a, "S_dma"), 2) << a;
  expect_same_matrix(after, make_dft(64));
  // The 2D DFT: (7) after (6), the local-gather variant.
  Sigma two_d = lower::lower_with_rules(rewrite_to_fixpoint(parse::parse_formula("par(2,4)[ DFT(8 x 8) ]"), all), all);
  std::string t = print(two_d);
  EXPECT_EQ(count(t, "S_dma(q[64<-32](i2, 2, 16))"), 1) << t;
  EXPECT_EQ(count(t, "G_dma"), 0) << t;
  expect_same_matrix(two_d, make_dft_nd({8, 8}));
  // Four workers, larger sizes.
  Sigma four = lower::lower_with_rules(rewrite_to_fixpoint(parse::parse_formula("par(4,2)[ DFT(256) ]"), all), all);
  EXPECT_EQ(count(print(four), "G_dma"), 1) << print(four);
  expect_same_matrix(four, make_dft(256));
}

TEST(SigmaRules, LowerWithRulesTriesSubChainsOfCompositions) {
  // An untagged chain rule (seed 004, table 2: (I_n (x) A_m) L^mn_n as one loop) matches the
  // last two factors of a three-factor composition.
  Rule stride_loop = parse_rule(
      "rule stride_loop: (I(n) (x) A[m]) * L(m*n, n) => Sum(j < n) S(h(j*m, 1)) * A * G(h(j, n));");
  ASSERT_TRUE(check_rule(stride_loop).ok);
  Spl f = parse::parse_formula("(DFT(4) (x) I(4)) * (I(4) (x) DFT(4)) * L(16, 4)");
  EXPECT_NE(print(lower::lower_to_sigma(f)).find("l(16, 4)"), std::string::npos) << print(lower::lower_to_sigma(f));
  Sigma s = lower::lower_with_rules(f, {&stride_loop});
  EXPECT_EQ(print(s).find("l(16"), std::string::npos) << print(s);
  EXPECT_EQ(count(print(s), "G(h[16<-4](i1, 4))"), 1) << print(s);
  expect_same_matrix(s, f);
  // Under a tag: the first three factors are the (8) stage with twiddles, the last one (6);
  // no rule matches the whole tagged composition, each part keeps the tag.
  RuleLibrary lib = shipped_par();
  std::vector<const Rule *> all = lib.all();
  Spl g = parse::parse_formula("par(2,4)[ T(64,8) * (I(8) (x) DFT(8)) * L(64,8) * (I(8) (x) DFT(8)) ]");
  Sigma t = lower::lower_with_rules(g, all);
  EXPECT_EQ(count(print(t), "Sum_par("), 2) << print(t);
  EXPECT_EQ(count(print(t), "G_dma(q[64<-32](i0, 2, 4))"), 1) << print(t);
  expect_same_matrix(t, parse::parse_formula("T(64,8) * (I(8) (x) DFT(8)) * L(64,8) * (I(8) (x) DFT(8))"));
}

TEST(SigmaRules, RewriteToFixpointIsBoundedAndNamesTheRule) {
  // A Sigma-SPL rule that always applies again (it swaps two equal-shaped factors).
  Rule loop = parse_rule("rule swap: (Sum(j < n) A) * (Sum(i < m) B) => (Sum(i < m) B) * (Sum(j < n) A);");
  Sigma s = lower::lower_to_sigma(parse::parse_formula("(I(2) (x) DFT(2)) * (I(2) (x) DFT(2))"));
  try {
    rewrite_sigma_to_fixpoint(s, {&loop}, lower::lower_rule_part, 5);
    FAIL() << "no error";
  } catch (const FormulaError &e) {
    EXPECT_NE(std::string(e.what()).find("swap"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace splgen::rewrite
