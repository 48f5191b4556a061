// Rule-file parser (generator/parse/rule_*, generator/parse/rule_parser.h): the syntax
// tree of every construct of docs/rule-language.md, precedence, where a Sum's body ends,
// comments, families, source positions, error messages with FILE:LINE:COL, robustness on
// arbitrary input, speed, and the golden files in tests/golden/rules (NAME.rules ->
// NAME.expect: the dump() of the parsed file, or the exact error line).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "generator/ir/rule.h"
#include "generator/parse/rule_parser.h"

namespace splgen::parse {
namespace {

// The error message for `text`, or "" when it parses. Fails the test on any other exception.
std::string parse_error(std::string_view text, const std::string &path = "t.rules") {
  try {
    parse_rule_file(text, path);
  } catch (const RuleSyntaxError &e) {
    return e.what();
  } catch (const std::exception &e) {
    ADD_FAILURE() << "unexpected exception type: " << e.what();
    return "<other exception>";
  }
  return "";
}

std::string rule_error(std::string_view text) {
  try {
    parse_rule(text);
  } catch (const RuleSyntaxError &e) {
    return e.what();
  }
  return "";
}

Rule only_rule(std::string_view text) {
  RuleFile f = parse_rule_file(text, "rules/test.rules");
  EXPECT_EQ(f.rules.size(), 1u);
  return f.rules.at(0);
}

// "m", "(m * n)", "-1" ... (fully parenthesised).
std::string show(const SizeExpr &e) {
  auto bin = [&](const char *op) {
    std::string out(1, '(');
    out += show(e.args.at(0));
    out += ' ';
    out += op;
    out += ' ';
    out += show(e.args.at(1));
    out += ')';
    return out;
  };
  switch (e.op) {
    case SizeOp::Const: return std::to_string(e.value);
    case SizeOp::Var: return e.name;
    case SizeOp::Add: return bin("+");
    case SizeOp::Sub: return bin("-");
    case SizeOp::Mul: return bin("*");
    case SizeOp::Div: return bin("/");
    case SizeOp::Mod: return bin("%");
    case SizeOp::Pow: return bin("^");
    case SizeOp::Neg: return "neg(" + show(e.args.at(0)) + ")";
  }
  return "?";
}

std::string show_sizes(const std::vector<SizeExpr> &v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += show(v[i]);
  }
  return out;
}

// A compact S-expression of a term: kinds and sizes, no positions.
std::string show(const Term &t) {
  std::string out;
  auto children = [&] {
    for (const Term &c : t.children) {
      out += ' ';
      out += show(c);
    }
  };
  switch (t.kind) {
    case SplKind::DFT: return "DFT(" + show_sizes(t.sizes) + ")";
    case SplKind::DFTnd:
      return "DFTnd(" + show_sizes(t.sizes) + (t.has_root ? ";" + show(t.root) : std::string()) + ")";
    case SplKind::Identity: return "I(" + show_sizes(t.sizes) + ")";
    case SplKind::RealTransform: return std::string(real_kind_name(t.real)) + "(" + show_sizes(t.sizes) + ")";
    case SplKind::Stride: return "L(" + show_sizes(t.sizes) + ")";
    case SplKind::Twiddle: return "T(" + show_sizes(t.sizes) + ")";
    case SplKind::FormulaVar: return t.name + (t.shape.empty() ? "" : "[" + show_sizes(t.shape) + "]");
    case SplKind::Call: return "@" + t.name + "(" + show_sizes(t.sizes) + ")";
    case SplKind::Gather:
    case SplKind::Scatter:
      return std::string(t.kind == SplKind::Gather ? "G" : "S") + (t.dma ? "_dma" : "") + "(" +
             (t.fn.kind == FnKind::H ? "h" : "q") + "(" + show_sizes(t.fn.args) + "))";
    case SplKind::Diag:
      return "Diag(" + show(t.children.at(0)) + " o " + (t.fn.kind == FnKind::H ? "h" : "q") + "(" +
             show_sizes(t.fn.args) + "))";
    case SplKind::Tensor: out = "(tensor"; break;
    case SplKind::TileTensor: out = "(tile"; break;
    case SplKind::Compose: out = "(compose"; break;
    case SplKind::Fence: out = "(fence"; break;
    case SplKind::DirectSum: out = "(dsum"; break;
    case SplKind::Transpose: out = "(transpose"; break;
    case SplKind::Tagged: out = std::string("(") + tag_name(t.tag) + "(" + show_sizes(t.sizes) + ")"; break;
    case SplKind::Sum:
      out = std::string("(") + (t.mode == SumMode::Plain ? "Sum" : t.mode == SumMode::Parallel ? "Sum_par" : "Sum_stream") +
            " " + t.name + "<" + show_sizes(t.sizes);
      break;
    case SplKind::Perm:
    case SplKind::Dense: return "?";  // no term has these kinds
  }
  children();
  return out + ")";
}

std::string lhs_of(std::string_view text) { return show(only_rule(text).lhs); }
std::string rhs_of(std::string_view text) { return show(only_rule(text).rhs); }

void for_each_term(const Term &t, const std::function<void(const Term &)> &f) {
  f(t);
  for (const Term &c : t.children) for_each_term(c, f);
}

// ---------------------------------------------------------------- rules and their parts

TEST(RuleParser, CooleyTukeyFromTheLanguageDocument) {
  const std::string text =
      "# Cooley-Tukey, decimation in time (Cooley & Tukey 1965; docs/design.md, \"Breakdown rules\"):\n"
      "#   DFT_mn -> (DFT_m (x) I_n) T^mn_n (I_m (x) DFT_n) L^mn_m\n"
      "rule dft_ct_dit: DFT(m*n, k) => (DFT(m, k) (x) I(n)) * T(m*n, n, k) * (I(m) (x) DFT(n, k)) * L(m*n, m)\n"
      "  if m > 1, n > 1;\n";
  RuleFile f = parse_rule_file(text, "rules/dft.rules");
  EXPECT_EQ(f.path, "rules/dft.rules");
  ASSERT_EQ(f.rules.size(), 1u);
  const Rule &r = f.rules[0];
  EXPECT_EQ(r.name, "dft_ct_dit");
  EXPECT_EQ(r.family, "dft");
  EXPECT_EQ(r.comment,
            "Cooley-Tukey, decimation in time (Cooley & Tukey 1965; docs/design.md, \"Breakdown rules\"):\n"
            "  DFT_mn -> (DFT_m (x) I_n) T^mn_n (I_m (x) DFT_n) L^mn_m");
  EXPECT_EQ(show(r.lhs), "DFT((m * n),k)");
  EXPECT_EQ(show(r.rhs),
            "(compose (tensor DFT(m,k) I(n)) T((m * n),n,k) (tensor I(m) DFT(n,k)) L((m * n),m))");
  ASSERT_EQ(r.conditions.size(), 2u);
  EXPECT_EQ(r.conditions[0].kind, ConditionKind::Compare);
  EXPECT_EQ(r.conditions[0].op, ">");
  EXPECT_EQ(show(r.conditions[0].args[0]), "m");
  EXPECT_EQ(show(r.conditions[0].args[1]), "1");
  EXPECT_EQ(r.conditions[1].op, ">");
  EXPECT_EQ(show(r.conditions[1].args[0]), "n");
  // Positions: file, line and column of the first character.
  EXPECT_EQ(r.pos.file, "rules/dft.rules");
  EXPECT_EQ(r.pos.line, 3);
  EXPECT_EQ(r.pos.column, 1);
  EXPECT_EQ(r.lhs.pos.line, 3);
  EXPECT_EQ(r.lhs.pos.column, 18);
  EXPECT_EQ(r.rhs.pos.column, 33);              // the '(' that starts the composition
  EXPECT_EQ(r.rhs.children[0].pos.column, 34);  // DFT(m, k) (x) I(n)
  EXPECT_EQ(r.rhs.children[1].pos.column, 56);  // T(m*n, n, k)
  EXPECT_EQ(r.conditions[0].pos.line, 4);
  EXPECT_EQ(r.conditions[0].pos.column, 6);
  EXPECT_EQ(r.conditions[1].pos.column, 13);
}

TEST(RuleParser, EveryTermAndConditionHasItsFile) {
  const std::string text =
      "rule a: par(p,mu)[ I(n) (x) A[m] ] => Sum_par(k < p) S(h(k*n*m/p, 1)) * (Sum(j < n/p) S(h(j*m, 1)) * A * "
      "G(h(j*m, 1))) * G(h(k*n*m/p, 1)) if divides(p, n), let mu = n/p;\n";
  RuleFile f = parse_rule_file(text, "dir/par.rules");
  const Rule &r = f.rules.at(0);
  int terms = 0;
  for (const Term *side : {&r.lhs, &r.rhs})
    for_each_term(*side, [&](const Term &t) {
      ++terms;
      EXPECT_EQ(t.pos.file, "dir/par.rules");
      EXPECT_EQ(t.pos.line, 1);
      EXPECT_GE(t.pos.column, 1);
    });
  EXPECT_EQ(terms, 13);
  for (const Condition &c : r.conditions) EXPECT_EQ(c.pos.file, "dir/par.rules");
}

TEST(RuleParser, ParRuleSixFromDesign) {
  const Rule r = only_rule(
      "rule par_i_tensor_a: par(p,mu)[ I(n) (x) A[m] ] => Sum_par(k < p) S(h(k*n*m/p, 1)) * "
      "(Sum(j < n/p) S(h(j*m, 1)) * A * G(h(j*m, 1))) * G(h(k*n*m/p, 1)) if divides(p, n), let mu = n/p;");
  EXPECT_EQ(show(r.lhs), "(par(p,mu) (tensor I(n) A[m]))");
  // The sum over k covers the whole composition: its scatter, the inner sum and its gather.
  EXPECT_EQ(show(r.rhs),
            "(Sum_par k<p (compose S(h((((k * n) * m) / p),1)) (Sum j<(n / p) (compose S(h((j * m),1)) A "
            "G(h((j * m),1)))) G(h((((k * n) * m) / p),1))))");
  ASSERT_EQ(r.rhs.kind, SplKind::Sum);
  EXPECT_EQ(r.rhs.mode, SumMode::Parallel);
  EXPECT_EQ(r.rhs.name, "k");
  ASSERT_EQ(r.rhs.children.size(), 1u);
  ASSERT_EQ(r.conditions.size(), 2u);
  EXPECT_EQ(r.conditions[0].kind, ConditionKind::Divides);
  EXPECT_EQ(show_sizes(r.conditions[0].args), "p,n");
  EXPECT_EQ(r.conditions[1].kind, ConditionKind::Let);
  EXPECT_EQ(r.conditions[1].name, "mu");
  EXPECT_EQ(show_sizes(r.conditions[1].args), "(n / p)");
}

TEST(RuleParser, SumBodyIsTheRestOfTheComposition) {
  EXPECT_EQ(rhs_of("rule a: A => Sum(j < n) S(h(j, n)) * A * G(h(j, n));"),
            "(Sum j<n (compose S(h(j,n)) A G(h(j,n))))");
  // A parenthesised body means the same.
  EXPECT_EQ(rhs_of("rule a: A => Sum(j < n) (S(h(j, n)) * A * G(h(j, n)));"),
            rhs_of("rule a: A => Sum(j < n) S(h(j, n)) * A * G(h(j, n));"));
  // A Sum in the middle of a composition takes the factors to its right.
  EXPECT_EQ(rhs_of("rule a: A => X * Sum(j < n) A * B;"), "(compose X (Sum j<n (compose A B)))");
  // Parenthesising the Sum ends its body.
  EXPECT_EQ(rhs_of("rule a: A => (Sum(j < n) A) * B;"), "(compose (Sum j<n A) B)");
  // '|' ends it; tighter operators belong to it.
  EXPECT_EQ(rhs_of("rule a: A => Sum(j < n) A | B;"), "(fence (Sum j<n A) B)");
  EXPECT_EQ(rhs_of("rule a: A => Sum(j < n) A (x) B (+) C';"), "(Sum j<n (dsum (tensor A B) (transpose C)))");
  // The closing bracket of a tag ends it.
  EXPECT_EQ(rhs_of("rule a: A => vec(4)[ Sum(j < n) A ] * B;"), "(compose (vec(4) (Sum j<n A)) B)");
  // Nested sums, all three modes.
  EXPECT_EQ(rhs_of("rule a: A => Sum_stream(k < s) Sum_par(i < p) Sum(j < n) A;"),
            "(Sum_stream k<s (Sum_par i<p (Sum j<n A)))");
  // The bound is a size expression.
  EXPECT_EQ(rhs_of("rule a: A => Sum(j < n/p + 1) A;"), "(Sum j<((n / p) + 1) A)");
}

TEST(RuleParser, Precedence) {
  // Loosest first: |, *, (+), (x)~, (x), postfix '.
  EXPECT_EQ(rhs_of("rule a: A => A | B * C (+) D (x)~ E (x) F';"),
            "(fence A (compose B (dsum C (tile D (tensor E (transpose F))))))");
  EXPECT_EQ(rhs_of("rule a: A => A' (x) B (x)~ C (+) D * E | F;"),
            "(fence (compose (dsum (tile (tensor (transpose A) B) C) D) E) F)");
  EXPECT_EQ(rhs_of("rule a: A => (A | B) * C;"), "(compose (fence A B) C)");
  EXPECT_EQ(rhs_of("rule a: A => (A * B)';"), "(transpose (compose A B))");
  EXPECT_EQ(rhs_of("rule a: A => A'';"), "(transpose (transpose A))");
  EXPECT_EQ(rhs_of("rule a: A => I(n/k) (x)~ I(k) (x) A;"), "(tile I((n / k)) (tensor I(k) A))");
}

TEST(RuleParser, ChainsAreFlat) {
  EXPECT_EQ(rhs_of("rule a: A => A * B * C;"), "(compose A B C)");
  EXPECT_EQ(rhs_of("rule a: A => (A * B) * (C * D);"), "(compose A B C D)");
  EXPECT_EQ(rhs_of("rule a: A => A (x) (B (x) C);"), "(tensor A B C)");
  EXPECT_EQ(rhs_of("rule a: A => (A (+) B) (+) C;"), "(dsum A B C)");
  EXPECT_EQ(rhs_of("rule a: A => A | (B | C);"), "(fence A B C)");
  EXPECT_EQ(rhs_of("rule a: A => ((((A))));"), "A");
  // (x)~ is binary and groups to the left.
  EXPECT_EQ(rhs_of("rule a: A => A (x)~ B (x)~ C;"), "(tile (tile A B) C)");
  EXPECT_EQ(rhs_of("rule a: A => A (x)~ (B (x)~ C);"), "(tile A (tile B C))");
  // A transposed chain is not spliced.
  EXPECT_EQ(rhs_of("rule a: A => A * (B * C)';"), "(compose A (transpose (compose B C)))");
}

TEST(RuleParser, Atoms) {
  EXPECT_EQ(lhs_of("rule a: DFT(n) => A;"), "DFT(n)");
  EXPECT_EQ(lhs_of("rule a: DFT(n, -1) => A;"), "DFT(n,-1)");
  EXPECT_EQ(lhs_of("rule a: I(n^2) => A;"), "I((n ^ 2))");
  EXPECT_EQ(lhs_of("rule a: L(m*n, m) => A;"), "L((m * n),m)");
  EXPECT_EQ(lhs_of("rule a: T(m*n, n) => A;"), "T((m * n),n)");
  EXPECT_EQ(lhs_of("rule a: T(m*n, n, k) => A;"), "T((m * n),n,k)");
  EXPECT_EQ(lhs_of("rule a: A => A;"), "A");
  EXPECT_EQ(lhs_of("rule a: Am[m] => A;"), "Am[m]");
  EXPECT_EQ(lhs_of("rule a: B[r, c] => A;"), "B[r,c]");
  EXPECT_EQ(lhs_of("rule a: Ix => A;"), "Ix");  // not the keyword I
  EXPECT_EQ(lhs_of("rule a: Sum_x => A;"), "Sum_x");
  EXPECT_EQ(lhs_of("rule a: @rader(n, k) => A;"), "@rader(n,k)");
  EXPECT_EQ(lhs_of("rule a: @f() => A;"), "@f()");
  EXPECT_EQ(lhs_of("rule a: @F_2(n) => A;"), "@F_2(n)");
  EXPECT_EQ(lhs_of("rule a: @ f (n) => A;"), "@f(n)");
}

TEST(RuleParser, MultiDimensionalDft) {
  Rule r = only_rule("rule a: DFT(m x n) => DFT(n x n x n, k);");
  ASSERT_EQ(r.lhs.kind, SplKind::DFTnd);
  EXPECT_EQ(show_sizes(r.lhs.sizes), "m,n");
  EXPECT_FALSE(r.lhs.has_root);
  EXPECT_EQ(r.lhs.root.op, SizeOp::Const);
  EXPECT_EQ(r.lhs.root.value, 1);
  ASSERT_EQ(r.rhs.kind, SplKind::DFTnd);
  EXPECT_EQ(show_sizes(r.rhs.sizes), "n,n,n");
  EXPECT_TRUE(r.rhs.has_root);
  EXPECT_EQ(show(r.rhs.root), "k");
  EXPECT_EQ(lhs_of("rule a: DFT(2x3) => A;"), "DFTnd(2,3)");
  EXPECT_EQ(lhs_of("rule a: DFT(m*n x n^2, -1) => A;"), "DFTnd((m * n),(n ^ 2);-1)");
  // A one-dimensional DFT is a DFT, root in sizes.
  EXPECT_EQ(lhs_of("rule a: DFT(xn) => A;"), "DFT(xn)");
}

TEST(RuleParser, Tags) {
  EXPECT_EQ(lhs_of("rule a: vec(nu)[ A ] => A;"), "(vec(nu) A)");
  EXPECT_EQ(lhs_of("rule a: smp(p, mu)[ A ] => A;"), "(smp(p,mu) A)");
  EXPECT_EQ(lhs_of("rule a: par(p, mu)[ A ] => A;"), "(par(p,mu) A)");
  EXPECT_EQ(lhs_of("rule a: stream(s)[ A ] => A;"), "(stream(s) A)");
  EXPECT_EQ(lhs_of("rule a: tiled(k)[ A ] => A;"), "(tiled(k) A)");
  EXPECT_EQ(lhs_of("rule a: cubic(k)[ A ] => A;"), "(cubic(k) A)");
  EXPECT_EQ(lhs_of("rule a: stream(s)[ I(n) (x) A[m] | B * C ] => A;"),
            "(stream(s) (fence (tensor I(n) A[m]) (compose B C)))");
  EXPECT_EQ(lhs_of("rule a: smp(2, 4)[ I(2) (x) stream(4)[ DFT(8) (x) I(16) ] * L(256, 2) ] => A;"),
            "(smp(2,4) (compose (tensor I(2) (stream(4) (tensor DFT(8) I(16)))) L(256,2)))");
  Rule r = only_rule("rule a: par(p, mu)[ A ] => A;");
  EXPECT_EQ(r.lhs.tag, TagKind::Par);
}

TEST(RuleParser, GathersAndScatters) {
  Rule r = only_rule("rule a: A => S(h(b, s)) * S_dma(q(b, s, mu)) * G(h(0, 1)) * G_dma(q(k, 1, m*mu));");
  EXPECT_EQ(show(r.rhs), "(compose S(h(b,s)) S_dma(q(b,s,mu)) G(h(0,1)) G_dma(q(k,1,(m * mu))))");
  const auto &c = r.rhs.children;
  EXPECT_EQ(c[0].kind, SplKind::Scatter);
  EXPECT_FALSE(c[0].dma);
  EXPECT_EQ(c[1].kind, SplKind::Scatter);
  EXPECT_TRUE(c[1].dma);
  EXPECT_EQ(c[1].fn.kind, FnKind::Q);
  EXPECT_EQ(c[2].kind, SplKind::Gather);
  EXPECT_EQ(c[2].fn.kind, FnKind::H);
  EXPECT_TRUE(c[3].dma);
}

TEST(RuleParser, SizeExpressions) {
  auto size = [](const std::string &e) { return show(only_rule("rule a: I(" + e + ") => A;").lhs.sizes.at(0)); };
  EXPECT_EQ(size("4"), "4");
  EXPECT_EQ(size("m*n"), "(m * n)");
  EXPECT_EQ(size("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(size("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(size("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(size("a / b * c % d"), "(((a / b) * c) % d)");
  EXPECT_EQ(size("n^2"), "(n ^ 2)");
  EXPECT_EQ(size("n^k^2"), "(n ^ (k ^ 2))");
  EXPECT_EQ(size("2*n^2"), "(2 * (n ^ 2))");
  EXPECT_EQ(size("-1"), "-1");
  EXPECT_EQ(size("- 1"), "-1");
  EXPECT_EQ(size("--1"), "1");
  EXPECT_EQ(size("-n"), "neg(n)");
  EXPECT_EQ(size("-n^2"), "neg((n ^ 2))");
  EXPECT_EQ(size("(-n)^2"), "(neg(n) ^ 2)");
  EXPECT_EQ(size("n - -1"), "(n - -1)");
  EXPECT_EQ(size("a * -b"), "(a * neg(b))");
  EXPECT_EQ(size("(k+1) % m"), "((k + 1) % m)");
  EXPECT_EQ(size("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(size("-9223372036854775807"), "-9223372036854775807");
  EXPECT_EQ(size("mu_2 + n1"), "(mu_2 + n1)");
  EXPECT_EQ(size("((((n))))"), "n");
}

TEST(RuleParser, Conditions) {
  Rule r = only_rule(
      "rule a: DFT(n) => DFT(n) if n == 1, n != 2, n < 3, n <= 4, n > 5, n >= 6, divides(p, n), coprime(m, n),\n"
      "  prime(n), pow2(n - 1), n in 2..m^2, let mu = n/p, mu*p == n;");
  const std::vector<std::string> expected = {
      "Compare n == 1", "Compare n != 2", "Compare n < 3",  "Compare n <= 4",  "Compare n > 5",
      "Compare n >= 6", "Divides p,n",    "Coprime m,n",    "Prime n",         "PowerOf2 (n - 1)",
      "Range n,2,(m ^ 2)", "Let mu (n / p)", "Compare (mu * p) == n"};
  ASSERT_EQ(r.conditions.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Condition &c = r.conditions[i];
    std::string text;
    switch (c.kind) {
      case ConditionKind::Compare: text = "Compare " + show(c.args.at(0)) + " " + c.op + " " + show(c.args.at(1)); break;
      case ConditionKind::Divides: text = "Divides " + show_sizes(c.args); break;
      case ConditionKind::Coprime: text = "Coprime " + show_sizes(c.args); break;
      case ConditionKind::Prime: text = "Prime " + show_sizes(c.args); break;
      case ConditionKind::PowerOf2: text = "PowerOf2 " + show_sizes(c.args); break;
      case ConditionKind::Range: text = "Range " + show_sizes(c.args); break;
      case ConditionKind::Let: text = "Let " + c.name + " " + show_sizes(c.args); break;
    }
    EXPECT_EQ(text, expected[i]) << "condition " << i;
  }
  EXPECT_EQ(r.conditions[8].pos.line, 2);
  EXPECT_EQ(r.conditions[8].pos.column, 3);
  // A predicate name not followed by '(' is a size variable.
  Rule v = only_rule("rule a: DFT(prime) => DFT(prime) if prime > 2, prime(prime);");
  EXPECT_EQ(v.conditions.at(0).kind, ConditionKind::Compare);
  EXPECT_EQ(v.conditions.at(1).kind, ConditionKind::Prime);
}

TEST(RuleParser, RuleSets) {
  RuleFile f = parse_rule_file(
      "rule a: A => A; rule b: B => B;\n"
      "ruleset breakdown = a, b;\n"
      "ruleset one =\n  a\n;\n",
      "rules/x.rules");
  ASSERT_EQ(f.sets.size(), 2u);
  EXPECT_EQ(f.sets[0].name, "breakdown");
  EXPECT_EQ(f.sets[0].rules, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(f.sets[0].pos.line, 2);
  EXPECT_EQ(f.sets[0].pos.column, 1);
  EXPECT_EQ(f.sets[0].pos.file, "rules/x.rules");
  EXPECT_EQ(f.sets[1].name, "one");
  EXPECT_EQ(f.sets[1].rules, (std::vector<std::string>{"a"}));
  EXPECT_EQ(f.rules.size(), 2u);
  EXPECT_EQ(f.rules[1].pos.column, 17);
}

TEST(RuleParser, Comments) {
  RuleFile f = parse_rule_file(
      "# file header\n"
      "\n"
      "# doc of a\n"
      "#   indented math\n"
      "#\n"
      "#tight\n"
      "rule a: A => A; # trailing\n"
      "rule b: A => A;\n"
      "  # indented doc of c   \n"
      "rule c: A # inside\n"
      "  => A # inside too\n"
      "  ;\n"
      "# the end\n",
      "c.rules");
  ASSERT_EQ(f.rules.size(), 3u);
  EXPECT_EQ(f.rules[0].comment, "doc of a\n  indented math\n\ntight");
  EXPECT_EQ(f.rules[1].comment, "");
  EXPECT_EQ(f.rules[2].comment, "indented doc of c");
  EXPECT_EQ(f.rules[2].rhs.pos.line, 11);
  // CRLF line ends.
  RuleFile g = parse_rule_file("# one\r\n# two\r\nrule a:\r\n A => A;\r\n", "c.rules");
  EXPECT_EQ(g.rules.at(0).comment, "one\ntwo");
  EXPECT_EQ(g.rules.at(0).lhs.pos.line, 4);
  EXPECT_EQ(g.rules.at(0).lhs.pos.column, 2);
}

// The text `rules list` shows: each rule's own, also where rules share a line (found by
// tests/fuzz/rule_parser_fuzz.cpp) or a comment with ':' stands before the name.
TEST(RuleParser, RuleText) {
  RuleFile f = parse_rule_file("rule a: I(n) => I(n); rule b: DFT(n) =>\n  DFT(n) # why: none\n if n > 1;\n"
                               "rule # odd: but allowed\n c: A => A;",
                               "t.rules");
  ASSERT_EQ(f.rules.size(), 3u);
  EXPECT_EQ(f.rules[0].text, "I(n) => I(n)");
  EXPECT_EQ(f.rules[1].text, "DFT(n) => DFT(n) if n > 1");
  EXPECT_EQ(f.rules[2].text, "A => A");
  EXPECT_EQ(parse_rule("  rule r: A  =>\tA").text, "A => A");
  // A comment ends at '\r' too (x3::eol, as the skipper ends it); \f and \v are white space.
  EXPECT_EQ(parse_rule("rule r: A # c\r=>\f\vA").text, "A => A");
}

TEST(RuleParser, Families) {
  EXPECT_EQ(parse_rule_file("rule a: A => A;", "rules/dft.rules").rules.at(0).family, "dft");
  EXPECT_EQ(parse_rule_file("rule a: A => A;", "/abs/path/my.tiled.rules").rules.at(0).family, "my.tiled");
  EXPECT_EQ(parse_rule_file("rule a: A => A;", "sigma").rules.at(0).family, "sigma");
  EXPECT_EQ(parse_rule("rule a: A => A;").family, "cmdline");
  EXPECT_EQ(parse_rule("rule a: A => A;").pos.file, "<command line>");
  EXPECT_EQ(parse_rule("rule a: A => A;", "rules/par.rules").family, "par");
}

TEST(RuleParser, EmptyFiles) {
  EXPECT_TRUE(parse_rule_file("", "e.rules").rules.empty());
  EXPECT_TRUE(parse_rule_file("  \n\t\n", "e.rules").rules.empty());
  EXPECT_TRUE(parse_rule_file("# nothing\n# here", "e.rules").rules.empty());
}

TEST(RuleParser, SingleRule) {
  Rule r = parse_rule("# doc\nrule r: DFT(n) => DFT(n) if n > 1");  // the final ';' is optional
  EXPECT_EQ(r.name, "r");
  EXPECT_EQ(r.comment, "doc");
  EXPECT_EQ(r.conditions.size(), 1u);
  EXPECT_EQ(parse_rule("rule r: A => B;").name, "r");
  EXPECT_EQ(rule_error("rule r: A => B; rule s: A => B;"), "<command line>:1:17: expected end of input");
  EXPECT_EQ(rule_error("rule r: A => B B"), "<command line>:1:16: expected end of input");
  EXPECT_EQ(rule_error(""), "<command line>:1:1: expected a rule");
  EXPECT_EQ(rule_error("ruleset s = a;"), "<command line>:1:1: expected a rule");
  EXPECT_EQ(rule_error("rule r: A =>"), "<command line>:1:13: expected a formula");
}

// ---------------------------------------------------------------- errors

TEST(RuleParser, ErrorMessages) {
  struct Case {
    std::string text, error;
  };
  const std::vector<Case> cases = {
      {"rule a: A => A", "t.rules:1:15: expected ';'"},
      {"rule a: A => A\nrule b: A => A;", "t.rules:2:1: expected ';'"},
      {"rule a: A A;", "t.rules:1:11: expected '=>'"},
      {"rule a: A = > A;", "t.rules:1:11: expected '=>'"},
      {"rule a: A => I(n +);", "t.rules:1:19: expected a size expression"},
      {"rule a: A => I();", "t.rules:1:16: expected a size expression"},
      {"rule a: A => I(n ^ -1);", "t.rules:1:20: expected a size expression"},
      {"rule a: A => I((n);", "t.rules:1:19: expected ')'"},
      {"rule a: A => I(n));", "t.rules:1:18: expected ';'"},
      {"rule a: A => I(2n);", "t.rules:1:17: expected ')'"},
      {"rule a: simd(4)[ A ] => A;", "t.rules:1:9: unknown tag 'simd'"},
      {"rule a: A => vector[ A ];", "t.rules:1:14: unknown tag 'vector'"},
      {"rule a: A => n;", "t.rules:1:14: expected a formula"},
      {"rule a: A => Foo(2);", "t.rules:1:14: unknown name 'Foo'"},
      {"rule a: A => Perm(0, 1);", "t.rules:1:14: unknown name 'Perm'"},
      {"rule a: A => G;", "t.rules:1:15: expected '('"},
      {"rule a: A => I;", "t.rules:1:15: expected '('"},
      {"rule a: A => DFT(n,);", "t.rules:1:20: expected a size expression"},
      {"rule a: A => DFT(m x);", "t.rules:1:21: expected a size expression"},
      {"rule a: A => T(n);", "t.rules:1:17: expected ','"},
      {"rule a: A => A[];", "t.rules:1:16: expected a size expression"},
      {"rule a: A => A[m, n, k];", "t.rules:1:20: expected ']'"},
      {"rule a: A => G(x(1, 2));", "t.rules:1:16: expected an index function h(b, s) or q(b, s, mu)"},
      {"rule a: A => G(q(1, 2));", "t.rules:1:22: expected ','"},
      {"rule a: A => Sum(j n) A;", "t.rules:1:20: expected '<'"},
      {"rule a: A => Sum(j < n);", "t.rules:1:24: expected a formula"},
      {"rule a: A => Sum(1 < n) A;", "t.rules:1:18: expected a loop variable"},
      {"rule a: A => vec(4) A;", "t.rules:1:21: expected '['"},
      {"rule a: A => vec()[ A ];", "t.rules:1:18: expected a size expression"},
      {"rule a: A => vec(4)[ A;", "t.rules:1:23: expected ']'"},
      {"rule a: A => @(n);", "t.rules:1:15: expected a function name"},
      {"rule a: A => @f;", "t.rules:1:16: expected '('"},
      {"rule a: A => @f(n,);", "t.rules:1:19: expected a size expression"},
      {"rule a: A => A if;", "t.rules:1:18: expected a condition"},
      {"rule a: A => A if n;", "t.rules:1:20: expected a comparison (==, !=, <, <=, >, >=) or 'in'"},
      {"rule a: A => A if n =< 2;", "t.rules:1:21: expected a comparison (==, !=, <, <=, >, >=) or 'in'"},
      {"rule a: A => A if n in 1..;", "t.rules:1:27: expected a size expression"},
      {"rule a: A => A if n in 1;", "t.rules:1:25: expected '..'"},
      {"rule a: A => A if divides(n);", "t.rules:1:28: expected ','"},
      {"rule a: A => A if prime(n, m);", "t.rules:1:26: expected ')'"},
      {"rule a: A => A if let = 2;", "t.rules:1:23: expected a size variable"},
      {"rule a: A => A if let m 2;", "t.rules:1:25: expected '='"},
      {"rule a: A => A if n > 1 m > 2;", "t.rules:1:25: expected ';'"},
      {"rule 1a: A => A;", "t.rules:1:6: expected a rule name"},
      {"rule a A => A;", "t.rules:1:8: expected ':'"},
      {"rule a:;", "t.rules:1:8: expected a formula"},
      {"rulea: A => A;", "t.rules:1:1: expected 'rule' or 'ruleset'"},
      {"A => A;", "t.rules:1:1: expected 'rule' or 'ruleset'"},
      {"rule a: A => A;;", "t.rules:1:16: expected 'rule' or 'ruleset'"},
      {"ruleset s a, b;", "t.rules:1:11: expected '='"},
      {"ruleset s = a b;", "t.rules:1:15: expected ';'"},
      {"ruleset s = a,;", "t.rules:1:15: expected a rule name"},
      {"rule a: A => A (x);", "t.rules:1:19: expected a formula"},
      {"rule a: A => A (x)~;", "t.rules:1:20: expected a formula"},
      {"rule a: A => A (+) | B;", "t.rules:1:20: expected a formula"},
      {"rule a: A => A * * B;", "t.rules:1:18: expected a formula"},
      {"rule a: A => | B;", "t.rules:1:14: expected a formula"},
      {"rule a: A => ( );", "t.rules:1:16: expected a formula"},
      {"rule a: A => I(99999999999999999999);", "t.rules:1:16: integer out of range '99999999999999999999'"},
      // Semantic errors, at the node.
      {"rule a: A => smp(2)[ A ];", "t.rules:1:14: tag smp takes 2 parameter(s), got 1"},
      {"rule a: A => vec(2, 4)[ A ];", "t.rules:1:14: tag vec takes 1 parameter(s), got 2"},
      {"rule a: Sum(j < 2) Sum(j < 2) A => A;", "t.rules:1:20: loop variable j is bound twice on the left side"},
      {"rule a: Sum_par(k < 2) A * (Sum(k < 2) B) => A;",
       "t.rules:1:29: loop variable k is bound twice on the left side"},
      {"rule a: Diag(T(4, 2) h(0, 1)) => A;", "t.rules:1:22: expected 'o'"},
      {"rule a: Diag(T(4, 2) o I(4)) => A;", "t.rules:1:24: expected an index function h(b, s) or q(b, s, mu)"},
      {"rule a: A => A;\nrule a: B => B;", "t.rules:2:1: duplicate rule name 'a' (first defined at line 1)"},
      {"ruleset s = a;\n\nruleset s = b;", "t.rules:3:1: duplicate ruleset name 's' (first defined at line 1)"},
      // Positions: lines, UTF-8 columns, tabs, comments skipped before the offending token.
      {"rule a: A => B;\n\n  rule b: A =>\n\n   # comment\n   ;", "t.rules:6:4: expected a formula"},
      {"# \xc3\xa9\xc3\xa9\xc3\xa9\nrule \xc3\xa9: A => A;", "t.rules:2:6: expected a rule name"},
      {"rule a: A => I(\xc3\xa9);", "t.rules:1:16: expected a size expression"},
      {"\trule a:\tA =>\t\t;", "t.rules:1:16: expected a formula"},
      {"rule a: A =>\r\n  ;", "t.rules:2:3: expected a formula"},
  };
  for (const Case &c : cases) EXPECT_EQ(parse_error(c.text), c.error) << "input: " << c.text;
}

TEST(RuleParser, UnterminatedBrackets) {
  // The '(' opened on line 3 is missing its ')': reported where the ')' should be.
  EXPECT_EQ(parse_error("rule a: A => B;\n"
                        "rule b: DFT(m*n) =>\n"
                        "  (DFT(m) (x) I(n) * L(m*n, m)\n"
                        "  if m > 1;\n"),
            "t.rules:4:3: expected ')'");
  EXPECT_EQ(parse_error("rule a: A => B;\nrule b: A =>\n  (A * B\n"), "t.rules:4:1: expected ')'");
  EXPECT_EQ(parse_error("rule a: A => B;\nrule b: A =>\n  vec(4)[ A * B\n;\n"), "t.rules:4:1: expected ']'");
  EXPECT_EQ(parse_error("rule a: A => B;\nrule b: A => I(n\n"), "t.rules:3:1: expected ')'");
  EXPECT_EQ(parse_error("rule a: A => B;\nrule b: A => A[m\n=> B;"), "t.rules:3:1: expected ']'");
}

TEST(RuleParser, ErrorCarriesItsPosition) {
  try {
    parse_rule_file("rule a: A => B\n  if n > 1\nrule b: A => B;", "rules/x.rules");
    FAIL() << "no error";
  } catch (const RuleSyntaxError &e) {
    EXPECT_EQ(e.pos.file, "rules/x.rules");
    EXPECT_EQ(e.pos.line, 3);
    EXPECT_EQ(e.pos.column, 1);
    EXPECT_STREQ(e.what(), "rules/x.rules:3:1: expected ';'");
  }
}

TEST(RuleParser, LoadRuleFile) {
  try {
    load_rule_file("/nonexistent/dir/none.rules");
    FAIL() << "no error";
  } catch (const RuleSyntaxError &e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/none.rules:0:0: cannot read file");
    EXPECT_EQ(e.pos.line, 0);
    EXPECT_EQ(e.pos.column, 0);
  }
  const std::string dir = std::string(SPLGEN_TEST_DIR) + "/golden/rules";
  try {
    load_rule_file(dir);  // a directory is not a rule file
    FAIL() << "no error";
  } catch (const RuleSyntaxError &e) {
    EXPECT_EQ(std::string(e.what()), dir + ":0:0: cannot read file");
  }
  RuleFile f = load_rule_file(dir + "/dft.rules");
  EXPECT_EQ(f.path, dir + "/dft.rules");
  ASSERT_FALSE(f.rules.empty());
  EXPECT_EQ(f.rules[0].family, "dft");
  EXPECT_EQ(f.rules[0].pos.file, dir + "/dft.rules");
  try {
    load_rule_file(dir + "/err_missing_arrow.rules");
    FAIL() << "no error";
  } catch (const RuleSyntaxError &e) {
    EXPECT_EQ(std::string(e.what()), dir + "/err_missing_arrow.rules:1:18: expected '=>'");
  }
}

// ---------------------------------------------------------------- robustness and speed

TEST(RuleParser, DeepNestingIsAnErrorNotACrash) {
  const std::string deep_parens = "rule a: A => " + std::string(100000, '(') + "A" + std::string(100000, ')') + ";";
  EXPECT_NE(parse_error(deep_parens).find("nested too deeply"), std::string::npos);
  const std::string deep_sizes = "rule a: A => I(" + std::string(100000, '(') + "n" + std::string(100000, ')') + ");";
  EXPECT_NE(parse_error(deep_sizes).find("nested too deeply"), std::string::npos);
  std::string deep_tags = "rule a: A => ";
  for (int i = 0; i < 100000; ++i) deep_tags += "vec(4)[ ";
  EXPECT_NE(parse_error(deep_tags).find("nested too deeply"), std::string::npos);
  std::string deep_sums = "rule a: A => ";
  for (int i = 0; i < 100000; ++i) deep_sums += "Sum(j < n) ";
  deep_sums += "A;";
  EXPECT_NE(parse_error(deep_sums).find("nested too deeply"), std::string::npos);
  std::string primes = "rule a: A => A" + std::string(100000, '\'') + ";";
  EXPECT_NE(parse_error(primes).find("nested too deeply"), std::string::npos);
  std::string minuses = "rule a: A => I(" + std::string(100000, '-') + "n);";
  EXPECT_NE(parse_error(minuses).find("nested too deeply"), std::string::npos);
  std::string sum_chain = "rule a: A => I(n";
  for (int i = 0; i < 100000; ++i) sum_chain += "+n";
  EXPECT_NE(parse_error(sum_chain + ");").find("nested too deeply"), std::string::npos);
  std::string tiles = "rule a: A => A";
  for (int i = 0; i < 100000; ++i) tiles += " (x)~ A";
  EXPECT_NE(parse_error(tiles + ";").find("nested too deeply"), std::string::npos);
  // Moderate nesting is fine, and long flat chains are fine.
  EXPECT_EQ(parse_error("rule a: A => " + std::string(150, '(') + "A" + std::string(150, ')') + ";"), "");
  std::string chain = "rule a: A => A";
  for (int i = 0; i < 20000; ++i) chain += " * A";
  EXPECT_EQ(parse_error(chain + ";"), "");
}

TEST(RuleParser, ArbitraryInputGivesOnlyRuleSyntaxErrors) {
  const std::string valid =
      "# doc\nrule par_i_tensor_a: par(p,mu)[ I(n) (x) A[m] ] => Sum_par(k < p) S(h(k*n*m/p, 1)) * "
      "(Sum(j < n/p) S(h(j*m, 1)) * A * G(h(j*m, 1))) * G(h(k*n*m/p, 1)) if divides(p, n), let mu = n/p;\n"
      "rule t: tiled(k)[ DFT(n x n, -1) ] => (L(n^2/k, n/k) (x) I(k))' * (I(n/k) (x)~ L(n*k, k)) | @f(n) (+) "
      "G_dma(q(k, 1, m*mu)) if n in 1..64, prime(n), pow2(k), coprime(n, k), n != k;\n"
      "ruleset s = par_i_tensor_a, t;\n";
  ASSERT_EQ(parse_error(valid), "");
  std::mt19937 rng(12345);
  const std::string alphabet = "()[]<>=!,;:*+-/%^|'~@#x \n\tIDFTLGSabkmnpqhA019._";
  int parsed = 0, failed = 0;
  auto check = [&](const std::string &text) {
    try {
      parse_rule_file(text, "f.rules");
      ++parsed;
    } catch (const RuleSyntaxError &e) {
      ++failed;
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("f.rules:", 0), 0u) << what;
      EXPECT_GE(e.pos.line, 1);
      EXPECT_GE(e.pos.column, 1);
    } catch (...) {
      ADD_FAILURE() << "other exception for input: " << text;
    }
  };
  // Every prefix of a valid file.
  for (std::size_t n = 0; n <= valid.size(); ++n) check(valid.substr(0, n));
  // Random single-character mutations, deletions and insertions.
  for (int i = 0; i < 3000; ++i) {
    std::string text = valid;
    const int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1); break;
        default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    check(text);
  }
  // Random strings, including bytes outside ASCII.
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    const int len = int(rng() % 80);
    for (int k = 0; k < len; ++k)
      text += rng() % 10 == 0 ? char(rng() % 256) : alphabet[rng() % alphabet.size()];
    check("rule a: " + text);
    check(text);
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(failed, 0);
}

TEST(RuleParser, ParsesHundredsOfRulesQuickly) {
  std::string text;
  for (int i = 0; i < 500; ++i) {
    text += "# rule " + std::to_string(i) + ": the stream rule (9)\n#   with its comment\n";
    text += "rule r" + std::to_string(i) +
            ": stream(s)[ I(n) (x) A[m] ] =>\n"
            "    Sum_stream(k < s) S_dma(q(k, 1, m*mu)) * (Sum(j < mu) S(h(j*m, 1)) * A * G(h(j*m, 1))) * "
            "G_dma(q(k, 1, m*mu))\n  if divides(s, n), let mu = n / s, n in 1..4096;\n";
  }
  const auto start = std::chrono::steady_clock::now();
  RuleFile f = parse_rule_file(text, "big.rules");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(f.rules.size(), 500u);
  EXPECT_EQ(f.rules[499].pos.line, 500 * 5 - 2);
  EXPECT_EQ(f.rules[499].comment, "rule 499: the stream rule (9)\n  with its comment");
  EXPECT_LT(seconds, 2.0) << "parsing 500 rules took " << seconds << " s";
}

// ---------------------------------------------------------------- golden files

std::string read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim_trailing_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// tests/golden/rules/NAME.rules is parsed with the path "NAME.rules"; NAME.expect holds the
// dump() of the result, or the error message. Files named err_* must fail, the others parse.
TEST(RuleParser, GoldenFiles) {
  const std::filesystem::path dir = std::filesystem::path(SPLGEN_TEST_DIR) / "golden" / "rules";
  std::vector<std::filesystem::path> inputs;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".rules") inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  ASSERT_GE(inputs.size(), 40u);
  int valid = 0, invalid = 0;
  for (const auto &input : inputs) {
    const std::string name = input.filename().string();
    std::filesystem::path expect_path = input;
    expect_path.replace_extension(".expect");
    ASSERT_TRUE(std::filesystem::exists(expect_path)) << "missing " << expect_path;
    const std::string expected = trim_trailing_newlines(read_file(expect_path));
    std::string actual;
    bool ok = true;
    try {
      actual = dump(parse_rule_file(read_file(input), name));
    } catch (const RuleSyntaxError &e) {
      actual = e.what();
      ok = false;
    }
    const bool should_fail = name.rfind("err_", 0) == 0;
    EXPECT_EQ(ok, !should_fail) << name;
    (ok ? valid : invalid)++;
    EXPECT_EQ(trim_trailing_newlines(actual), expected) << "golden file " << name;
  }
  EXPECT_GT(valid, 10);
  EXPECT_GT(invalid, 20);
}

}  // namespace
}  // namespace splgen::parse
