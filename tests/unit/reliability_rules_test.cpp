// Regression tests of issue 18 for rules, rewriting and the checker: checked size
// arithmetic (item 1), rewriting that must end (item 2), rules proved at large sizes and
// from $SPLGEN_RULES (item 5), the checker's lazy enumeration (item 7) and inputs that were
// super-linear (item 12).
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "generator/ir/apply.h"
#include "generator/ir/dense.h"
#include "generator/ir/divisors.h"
#include "generator/ir/size_arith.h"
#include "generator/parse/formula_parser.h"
#include "generator/parse/rule_parser.h"
#include "generator/prove/checker.h"
#include "generator/prove/size_tuples.h"
#include "generator/rewrite/engine.h"
#include "generator/rewrite/size_expr.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::ProgramResult;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

class ReliabilityCli : public test::SplgenCommandTest {
 protected:
  ReliabilityCli() : SplgenCommandTest("splgen-reliability-test") {}
  // splgen with SPLGEN_RULES=dir in its environment.
  ProgramResult splgen_with_rules_dir(const std::string &rules_dir, std::vector<std::string> args) {
    args.insert(args.begin(), {"SPLGEN_RULES=" + rules_dir, SPLGEN_BINARY});
    return test::run_program("/usr/bin/env", args, dir.path().string());
  }
  std::string file_with(const std::string &name, const std::string &text) {
    std::string path = dir.file(name);
    write_file(path, text);
    return path;
  }
};

// ---- item 1: size arithmetic never traps ------------------------------------------------

TEST(SizeArithmetic, FaultsInsteadOfTraps) {
  EXPECT_EQ(size_arith(SizeOp::Div, INT64_MIN, -1).fault, SizeFault::Overflow);
  EXPECT_EQ(size_arith(SizeOp::Neg, INT64_MIN).fault, SizeFault::Overflow);
  SizeResult mod = size_arith(SizeOp::Mod, INT64_MIN, -1);
  EXPECT_TRUE(mod.ok());
  EXPECT_EQ(mod.value, 0);
  EXPECT_EQ(size_arith(SizeOp::Add, INT64_MAX, 1).fault, SizeFault::Overflow);
  EXPECT_EQ(size_arith(SizeOp::Sub, INT64_MIN, 1).fault, SizeFault::Overflow);
  EXPECT_EQ(size_arith(SizeOp::Mul, INT64_MAX, 2).fault, SizeFault::Overflow);
  EXPECT_EQ(size_arith(SizeOp::Pow, 2, 63).fault, SizeFault::Overflow);
  EXPECT_EQ(size_arith(SizeOp::Pow, -2, 63).value, INT64_MIN);
  EXPECT_EQ(size_arith(SizeOp::Pow, 1, INT64_MAX).value, 1);
  EXPECT_EQ(size_arith(SizeOp::Div, 7, 0).fault, SizeFault::DivisionByZero);
  EXPECT_EQ(size_arith(SizeOp::Div, 7, 2).fault, SizeFault::Inexact);
  EXPECT_EQ(size_arith(SizeOp::Div, -8, -2).value, 4);
}

TEST(SizeArithmetic, EvaluatingAndSolvingAtTheExtremes) {
  using rewrite::size_op;
  using rewrite::size_var;
  rewrite::Bindings b{{"n", INT64_MIN}};
  SizeExpr neg;
  neg.op = SizeOp::Neg;
  neg.args = {size_var("n")};
  EXPECT_FALSE(rewrite::eval_size(neg, b));
  EXPECT_FALSE(rewrite::eval_size(size_op(SizeOp::Div, size_var("n"), rewrite::size_const(-1)), b));
  EXPECT_EQ(rewrite::eval_size(size_op(SizeOp::Mod, size_var("n"), rewrite::size_const(-1)), b), 0);
  EXPECT_THROW(rewrite::eval_size_or_throw(neg, b, "test"), FormulaError);
  try {
    rewrite::eval_size_or_throw(neg, b, "test");
  } catch (const FormulaError &e) {
    EXPECT_TRUE(contains(e.what(), "overflows")) << e.what();
  }
  // Solving -n == INT64_MIN, (-1) * n == INT64_MIN, n - 1 == INT64_MAX ...: no 64-bit solution.
  auto none = [](const std::optional<std::vector<rewrite::Bindings>> &s) { return s && s->empty(); };
  EXPECT_TRUE(none(rewrite::solve_size(neg, INT64_MIN, {}, false)));
  EXPECT_TRUE(none(rewrite::solve_size(size_op(SizeOp::Mul, rewrite::size_const(-1), size_var("n")), INT64_MIN, {}, false)));
  EXPECT_TRUE(none(rewrite::solve_size(size_op(SizeOp::Sub, size_var("n"), rewrite::size_const(1)), INT64_MAX, {}, false)));
  EXPECT_TRUE(none(rewrite::solve_size(size_op(SizeOp::Div, rewrite::size_const(INT64_MIN), size_var("n")), -1, {}, false)));
  auto start = std::chrono::steady_clock::now();
  auto big = rewrite::solve_size(size_op(SizeOp::Mul, size_var("m"), size_var("n")), INT64_MAX, {});
  ASSERT_TRUE(big);
  EXPECT_EQ(big->size(), 96u);  // every factorisation m * n of 2^63 - 1
  EXPECT_LT(seconds_since(start), 2.0);
}

TEST(SizeArithmetic, DivisorsOfLargeSizesAreFast) {
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(divisors_of(12), (std::vector<int64_t>{1, 2, 3, 4, 6, 12}));
  EXPECT_EQ(prime_factors_of(12), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(prime_factors_of(10006), (std::vector<int64_t>{2, 5003}));
  EXPECT_EQ(prime_factors_of(1), (std::vector<int64_t>{}));
  EXPECT_EQ(prime_factors_of(2305843009213693951), (std::vector<int64_t>{2305843009213693951}));
  EXPECT_EQ(divisors_of(1), (std::vector<int64_t>{1}));
  std::vector<int64_t> big = divisors_of(INT64_MAX);
  for (int64_t d : big) EXPECT_EQ(INT64_MAX % d, 0);
  EXPECT_EQ(big.size(), 96u);  // 2^63 - 1 = 7^2 * 73 * 127 * 337 * 92737 * 649657
  EXPECT_EQ(divisors_of(2305843009213693951).size(), 2u);  // the prime 2^61 - 1
  EXPECT_EQ(divisors_of(int64_t(1) << 62).size(), 63u);
  EXPECT_LT(seconds_since(start), 2.0);
}

TEST(SizeArithmetic, ConstantOverflowInARuleFileIsASyntaxError) {
  for (const char *size : {"(-9223372036854775807-1)/-1", "-(-9223372036854775807-1)", "2^64", "(9223372036854775807+1)",
                           "n + 1/0"}) {
    std::string text = std::string("rule r: DFT(n) => DFT(n) * I(n + ") + size + ");";
    try {
      parse::parse_rule_file(text, "f.rules");
      ADD_FAILURE() << "accepted " << text;
    } catch (const parse::RuleSyntaxError &e) {
      EXPECT_TRUE(contains(e.what(), "f.rules:1:")) << e.what();
      EXPECT_TRUE(contains(e.what(), "overflows") || contains(e.what(), "divides by zero")) << e.what();
    }
  }
}

TEST_F(ReliabilityCli, SizeOverflowIsAnErrorNotACrash) {
  std::string f = file_with("f.rules", "rule r: DFT(n) => DFT(n) * I(n + (-9223372036854775807-1)/-1);\n");
  expect_error({"rules", "check", f}, "f.rules:1:", 2);
  expect_error({"expand", "DFT(16)", "--rules", f}, "overflows 64-bit integers", 2);
  // % -1 is 0, whatever the left operand: a true rule.
  std::string g = file_with("g.rules", "rule r: DFT(n) => DFT(n) * I(n + (-9223372036854775807-1) % -1);\n");
  ProgramResult r = splgen({"rules", "check", g});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // An overflow that depends on the sizes: the rule fails its check, with the reason.
  std::string h = file_with("h.rules", "rule r: DFT(n) => DFT(n) * I(n^70 / n^69) if n > 1;\n");
  ProgramResult c = splgen({"rules", "check", h});
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
  EXPECT_TRUE(contains(c.out, "overflows 64-bit integers")) << c.out;
}

// ---- item 2: rewriting ends ---------------------------------------------------------------

TEST_F(ReliabilityCli, VectorisingAnIdentityEnds) {
  for (const char *formula : {"vec(2)[ I(4) ]", "vec(4)[ I(64) ]", "vec(2)[ I(4) (x) DFT(2) ]", "vec(4)[ DFT(16) ]"}) {
    auto start = std::chrono::steady_clock::now();
    ProgramResult r = splgen({"rewrite", formula});
    EXPECT_EQ(r.exit_code, 0) << formula << ": " << r.err;
    EXPECT_LT(seconds_since(start), 10.0) << formula;
  }
  ProgramResult r = splgen({"rewrite", "vec(2)[ I(4) ]"});
  EXPECT_TRUE(contains(r.out, "== spl ==\nI(4)\n")) << r.out;
}

TEST(RewriteProgress, AGrowingRuleSetIsStoppedWithItsNames) {
  // True (L L' = I) but each step grows the formula: the size bound stops it long before
  // 10,000 steps would.
  Rule grow = parse::parse_rule("rule grow: L(m*n, m) => L(m*n, m) * L(m*n, n) * L(m*n, m) if m > 1, n > 1;");
  auto start = std::chrono::steady_clock::now();
  try {
    rewrite::rewrite_to_fixpoint(make_stride(16, 4), {&grow});
    ADD_FAILURE() << "rewriting a growing rule set ended";
  } catch (const FormulaError &e) {
    EXPECT_TRUE(contains(e.what(), "does not terminate") || contains(e.what(), "takes too long")) << e.what();
    EXPECT_TRUE(contains(e.what(), "(rules grow keep applying)")) << e.what();
  }
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST(RewriteProgress, RulesThatUndoEachOtherAreStoppedAtOnce) {
  // (Not an identity: the engine applies rules, the checker proves them.)
  Rule swap = parse::parse_rule("rule swap: DFT(n) (x) DFT(m) => DFT(m) (x) DFT(n);");
  auto start = std::chrono::steady_clock::now();
  try {
    rewrite::rewrite_to_fixpoint(tensor(make_dft(2), make_dft(3)), {&swap});
    ADD_FAILURE() << "a rule that undoes itself ended";
  } catch (const FormulaError &e) {
    EXPECT_TRUE(contains(e.what(), "after 2 steps the formula is one it was before")) << e.what();
    EXPECT_TRUE(contains(e.what(), "swap")) << e.what();
  }
  EXPECT_LT(seconds_since(start), 1.0);
}

// ---- item 5: rules are proved at large sizes, from every source --------------------------

TEST(ApplySpl, AgreesWithDenseMatrices) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Spl> formulas;
  for (int64_t n : {1, 2, 3, 5, 6, 12, 16, 17, 30, 67, 134, 323})
    for (int64_t k : {int64_t(1), n - 1}) formulas.push_back(make_dft(n, n == 1 ? 1 : k));
  formulas.push_back(make_dft_nd({3, 4}, 1));
  formulas.push_back(make_stride(24, 4));
  formulas.push_back(make_twiddle(24, 6, 5));
  formulas.push_back(make_diag({1.0, cplx(0, 2), 3.0}));
  formulas.push_back(make_perm({2, 0, 1}));
  formulas.push_back(make_dense(2, 3, {1.0, 2.0, 3.0, 4.0, cplx(0, 5), 6.0}));
  formulas.push_back(tensor(make_dense(2, 3, {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}), make_dft(4)));
  formulas.push_back(tensor(make_identity(3), make_dense(2, 1, {1.0, cplx(0, 1)})));
  formulas.push_back(make_tensor({make_dft(2), make_identity(3), make_dft(3)}));
  formulas.push_back(make_direct_sum({make_dft(3), make_stride(4, 2)}));
  formulas.push_back(parse::parse_formula("(DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) DFT(4)) * L(16,4)"));
  formulas.push_back(make_tagged(Tag{TagKind::Vec, {2}}, make_dft(8)));
  for (const Spl &f : formulas) {
    std::vector<cplx> x(std::size_t(f->cols));
    for (cplx &v : x) v = cplx(u(rng), u(rng));
    Matrix m = to_dense(f);
    std::vector<cplx> want(std::size_t(f->rows)), got = apply_spl(f, x);
    for (int64_t r = 0; r < f->rows; ++r)
      for (int64_t c = 0; c < f->cols; ++c) want[std::size_t(r)] += m.at(r, c) * x[std::size_t(c)];
    ASSERT_EQ(got.size(), want.size());
    double err = 0;
    for (std::size_t i = 0; i < got.size(); ++i) err = std::max(err, std::abs(got[i] - want[i]));
    EXPECT_LT(err, 1e-9) << f->rows << "x" << f->cols << " kind " << kind_name(f->kind);
  }
  EXPECT_THROW(apply_spl(make_dft(4), std::vector<cplx>(3)), FormulaError);
}

TEST(RuleChecker, ARuleFalseOnlyAtLargeSizesIsRefuted) {
  RuleFile file = parse::load_rule_file(std::string(SPLGEN_TEST_DIR) + "/rules/false_above_8192.rules");
  ASSERT_EQ(file.rules.size(), 1u);
  prove::CheckOptions options;
  options.max_size = 4096;
  prove::CheckResult r = prove::check_rule(file.rules[0], options);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.counterexample, "large instance")) << r.error << r.counterexample;
  // The true Cooley-Tukey passes, large instances included.
  RuleFile dft = parse::load_rule_file(rewrite::builtin_rules_dir() + "/dft.rules");
  prove::CheckResult ok = prove::check_rule(dft.rules.at(0));
  EXPECT_TRUE(ok.ok) << ok.error << ok.counterexample;
  EXPECT_GT(ok.large_instances, 0);
}

TEST_F(ReliabilityCli, LargeSizesAreCheckedByRulesCheckAndGen) {
  std::string wrong = std::string(SPLGEN_TEST_DIR) + "/rules/false_above_8192.rules";
  ProgramResult r = splgen({"rules", "check", wrong, "--max-size", "4096"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "FAIL")) << r.out;
  expect_error({"gen", "DFT(1024)", "--rules", wrong}, "does not hold", 2);
}

// A copy of the shipped rules, with `extra` appended to dft.rules.
std::string copy_of_shipped_rules(const fs::path &to, const std::string &extra) {
  fs::create_directories(to);
  for (const auto &entry : fs::directory_iterator(rewrite::builtin_rules_dir()))
    if (entry.path().extension() == ".rules") fs::copy_file(entry.path(), to / entry.path().filename());
  std::ofstream(to / "dft.rules", std::ios::app) << extra;
  return to.string();
}

TEST_F(ReliabilityCli, RulesFromTheEnvironmentAreProved) {
  const char *false_ct =
      "\n# twiddles on the wrong side\n"
      "rule ct_env_wrong: DFT(m*n) => (DFT(m) (x) I(n)) * (I(m) (x) DFT(n)) * T(m*n, n) * L(m*n, m) if m > 1, n > 1;\n";
  std::string bad = copy_of_shipped_rules(dir.path() / "bad", false_ct);
  ProgramResult r = splgen_with_rules_dir(bad, {"gen", "DFT(64)"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "ct_env_wrong does not hold")) << r.err;
  EXPECT_EQ(r.out, "");
  // An unchanged copy is trusted (its rules are the built-in ones), and fast.
  std::string same = copy_of_shipped_rules(dir.path() / "same", "");
  auto start = std::chrono::steady_clock::now();
  ProgramResult ok = splgen_with_rules_dir(same, {"gen", "DFT(64)"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_LT(seconds_since(start), 20.0);
}

TEST_F(ReliabilityCli, AnEmptyRulesDirectoryIsAnError) {
  fs::create_directories(dir.path() / "empty");
  ProgramResult r = splgen_with_rules_dir((dir.path() / "empty").string(), {"gen", "DFT(64)"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "no rule found")) << r.err;
  EXPECT_EQ(r.out, "");
  fs::create_directories(dir.path() / "other");
  write_file((dir.path() / "other" / "README").string(), "not rules\n");
  ProgramResult o = splgen_with_rules_dir((dir.path() / "other").string(), {"expand", "DFT(64)"});
  EXPECT_EQ(o.exit_code, 2) << o.err;
}

// ---- item 7: the checker enumerates sizes lazily --------------------------------------------

TEST(SizeTuples, SumThenLexicographicOrder) {
  std::vector<std::vector<int64_t>> got;
  prove::for_each_size_tuple(3, 30, 1 << 20, [&](const std::vector<int64_t> &t) {
    got.push_back(t);
    return true;
  });
  std::vector<std::vector<int64_t>> want;
  for (int64_t a = 1; a <= 30; ++a)
    for (int64_t b = 1; a * b <= 30; ++b)
      for (int64_t c = 1; a * b * c <= 30; ++c) want.push_back({a, b, c});
  std::stable_sort(want.begin(), want.end(), [](const auto &x, const auto &y) {
    int64_t sx = x[0] + x[1] + x[2], sy = y[0] + y[1] + y[2];
    return sx != sy ? sx < sy : x < y;
  });
  EXPECT_EQ(got, want);
}

TEST(SizeTuples, TwentyVariablesAreNotMaterialised) {
  auto start = std::chrono::steady_clock::now();
  int64_t n = 0;
  int64_t visited = prove::for_each_size_tuple(20, 512, 100000, [&](const std::vector<int64_t> &) { return ++n < 5000; });
  EXPECT_EQ(visited, 5000);
  EXPECT_LT(seconds_since(start), 5.0);
}

TEST_F(ReliabilityCli, ARuleWithTwentySizeVariablesIsCheckedInBoundedMemory) {
  std::string f = file_with("many.rules",
                            "rule many: DFT(a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t) =>\n"
                            "  DFT(a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t);\n"
                            "rule none: DFT(a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t) => DFT(a) if a > 600;\n");
  auto start = std::chrono::steady_clock::now();
  ProgramResult r = splgen({"rules", "check", f});
  EXPECT_LT(seconds_since(start), 30.0);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // `none` has no instance
  EXPECT_TRUE(contains(r.out, "many: ok")) << r.out;
  EXPECT_TRUE(contains(r.out, "none: FAIL: no instance")) << r.out;
}

// ---- item 12: no super-linear blow-ups --------------------------------------------------------

std::string joined(const std::string &factor, const std::string &op, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += (i ? op : "") + factor;
  return out;
}

TEST_F(ReliabilityCli, LongChainsAreFast) {
  auto start = std::chrono::steady_clock::now();
  ProgramResult r = splgen({"rewrite", joined("DFT(2)", " | ", 400)});
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 300);
  EXPECT_LT(seconds_since(start), 10.0) << "rewrite of 400 fenced factors";
  start = std::chrono::steady_clock::now();
  r = splgen({"lower", joined("DFT(2)", " * ", 2000)});
  EXPECT_LT(seconds_since(start), 10.0) << "lower of 2000 factors: " << r.err.substr(0, 300);
}

TEST_F(ReliabilityCli, ListingManyRulesIsFast) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "# rule number " + std::to_string(i) + "\nrule r" + std::to_string(i) + ": DFT(n) => DFT(n);\n";
  std::string f = file_with("many.rules", text);
  auto start = std::chrono::steady_clock::now();
  ProgramResult r = splgen({"rules", "list", f});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(seconds_since(start), 5.0);
  EXPECT_EQ(test::text_lines(r.out).size(), 40000u);
}

}  // namespace
}  // namespace splgen
