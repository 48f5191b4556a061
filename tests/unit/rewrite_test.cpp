// The rewrite engine: size solving, pattern matching (chains, identity splitting, tags),
// instantiation of SPL and Sigma-SPL right sides, strategies and the rule checker.
// Rules are built by hand here (a small builder below); RuleText tests parse rule text.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/prove/checker.h"
#include "generator/lower/lower_with_rules.h"
#include "generator/rewrite/engine.h"
#include "generator/rewrite/functions.h"
#include "generator/rewrite/instantiate.h"
#include "generator/rewrite/library.h"
#include "generator/rewrite/match.h"
#include "generator/parse/rule_parser.h"
#include "generator/rewrite/size_expr.h"
#include "generator/rewrite/strategy.h"

namespace splgen::rewrite {

using parse::parse_rule;
using parse::parse_rule_file;
using parse::RuleSyntaxError;
using prove::check_rule;
using prove::CheckResult;
namespace {

Sigma plain_lowering(const Spl &f) { return lower::lower_to_sigma(f); }


// ---- a tiny builder for rules ----------------------------------------------------------------

SizeExpr V(const char *name) { return size_var(name); }
SizeExpr C(int64_t v) { return size_const(v); }
SizeExpr operator*(SizeExpr a, SizeExpr b) { return size_op(SizeOp::Mul, std::move(a), std::move(b)); }
SizeExpr operator/(SizeExpr a, SizeExpr b) { return size_op(SizeOp::Div, std::move(a), std::move(b)); }
SizeExpr operator+(SizeExpr a, SizeExpr b) { return size_op(SizeOp::Add, std::move(a), std::move(b)); }
SizeExpr operator^(SizeExpr a, SizeExpr b) { return size_op(SizeOp::Pow, std::move(a), std::move(b)); }

Term node(SplKind kind, std::vector<SizeExpr> sizes = {}, std::vector<Term> children = {}) {
  Term t;
  t.kind = kind;
  t.sizes = std::move(sizes);
  t.children = std::move(children);
  return t;
}
Term DFT(SizeExpr n) { return node(SplKind::DFT, {std::move(n)}); }
Term DFT(SizeExpr n, SizeExpr k) { return node(SplKind::DFT, {std::move(n), std::move(k)}); }
Term I(SizeExpr n) { return node(SplKind::Identity, {std::move(n)}); }
Term L(SizeExpr N, SizeExpr s) { return node(SplKind::Stride, {std::move(N), std::move(s)}); }
Term T(SizeExpr N, SizeExpr n, SizeExpr k) { return node(SplKind::Twiddle, {std::move(N), std::move(n), std::move(k)}); }
Term X(std::vector<Term> c) { return node(SplKind::Tensor, {}, std::move(c)); }
Term Mul(std::vector<Term> c) { return node(SplKind::Compose, {}, std::move(c)); }
Term Var(std::string name, std::vector<SizeExpr> shape = {}) {
  Term t = node(SplKind::FormulaVar);
  t.name = std::move(name);
  t.shape = std::move(shape);
  return t;
}
Term Tagged(TagKind tag, std::vector<SizeExpr> params, Term child) {
  Term t = node(SplKind::Tagged, std::move(params), {std::move(child)});
  t.tag = tag;
  return t;
}
Term Sum(const char *var, SizeExpr n, Term body, SumMode mode = SumMode::Plain) {
  Term t = node(SplKind::Sum, {std::move(n)}, {std::move(body)});
  t.name = var;
  t.mode = mode;
  return t;
}
Term Access(SplKind kind, FnKind fn, std::vector<SizeExpr> args, bool dma) {
  Term t = node(kind);
  t.fn.kind = fn;
  t.fn.args = std::move(args);
  t.dma = dma;
  return t;
}
Term G(FnKind fn, std::vector<SizeExpr> args, bool dma = false) { return Access(SplKind::Gather, fn, std::move(args), dma); }
Term S(FnKind fn, std::vector<SizeExpr> args, bool dma = false) { return Access(SplKind::Scatter, fn, std::move(args), dma); }

Condition cmp(SizeExpr a, const char *op, SizeExpr b) {
  Condition c;
  c.kind = ConditionKind::Compare;
  c.op = op;
  c.args = {std::move(a), std::move(b)};
  return c;
}
Condition divides(SizeExpr a, SizeExpr b) {
  Condition c;
  c.kind = ConditionKind::Divides;
  c.args = {std::move(a), std::move(b)};
  return c;
}
Condition let(const char *name, SizeExpr e) {
  Condition c;
  c.kind = ConditionKind::Let;
  c.name = name;
  c.args = {std::move(e)};
  return c;
}

Rule make_rule(const char *name, Term lhs, Term rhs, std::vector<Condition> conds = {}) {
  Rule r;
  r.name = name;
  r.family = "test";
  r.lhs = std::move(lhs);
  r.rhs = std::move(rhs);
  r.conditions = std::move(conds);
  return r;
}

// DFT(m*n, k) => (DFT(m, k) (x) I(n)) * T(m*n, n, k) * (I(m) (x) DFT(n, k)) * L(m*n, m)  if m > 1, n > 1
Rule cooley_tukey() {
  SizeExpr m = V("m"), n = V("n"), k = V("k");
  return make_rule("dft_ct_dit", DFT(m * n, k),
                   Mul({X({DFT(m, k), I(n)}), T(m * n, n, k), X({I(m), DFT(n, k)}), L(m * n, m)}),
                   {cmp(m, ">", C(1)), cmp(n, ">", C(1))});
}

// The twiddle on the wrong side of the right-hand DFTs: false.
Rule cooley_tukey_wrong() {
  SizeExpr m = V("m"), n = V("n"), k = V("k");
  return make_rule("dft_ct_wrong", DFT(m * n, k),
                   Mul({X({DFT(m, k), I(n)}), X({I(m), DFT(n, k)}), T(m * n, n, k), L(m * n, m)}),
                   {cmp(m, ">", C(1)), cmp(n, ">", C(1))});
}

// (6) par(p, mu)[ I(n) (x) A[m] ] => Sum_par(k < p) S(h(k*n*m/p, 1)) * (Sum(j < n/p) S(h(j*m, 1)) * A * G(h(j*m, 1)))
//                                     * G(h(k*n*m/p, 1))   if divides(p, n)
Rule par_rule() {
  SizeExpr p = V("p"), n = V("n"), m = V("m"), k = V("k"), j = V("j");
  Term inner = Sum("j", n / p, Mul({S(FnKind::H, {j * m, C(1)}), Var("A"), G(FnKind::H, {j * m, C(1)})}));
  Term rhs = Sum("k", p, Mul({S(FnKind::H, {k * n * m / p, C(1)}), inner, G(FnKind::H, {k * n * m / p, C(1)})}),
                 SumMode::Parallel);
  return make_rule("par_i_tensor_a", Tagged(TagKind::Par, {p, V("mu")}, X({I(n), Var("A", {m})})), rhs,
                   {divides(p, n)});
}

// (9) stream(s)[ I(n) (x) A[m] ] => Sum_stream(k < s) S_dma(q(k, 1, m*mu)) * (Sum(j < mu) S(h(j*m, 1)) * A
//                                    * G(h(j*m, 1))) * G_dma(q(k, 1, m*mu))   if divides(s, n), let mu = n/s
Rule stream_rule() {
  SizeExpr s = V("s"), n = V("n"), m = V("m"), k = V("k"), j = V("j"), mu = V("mu");
  Term inner = Sum("j", mu, Mul({S(FnKind::H, {j * m, C(1)}), Var("A"), G(FnKind::H, {j * m, C(1)})}));
  Term rhs = Sum("k", s, Mul({S(FnKind::Q, {k, C(1), m * mu}, true), inner, G(FnKind::Q, {k, C(1), m * mu}, true)}),
                 SumMode::Stream);
  return make_rule("stream_i_tensor_a", Tagged(TagKind::Stream, {s}, X({I(n), Var("A", {m})})), rhs,
                   {divides(s, n), let("mu", n / s)});
}

Matrix loops_to_dense(const Function &f) {
  Matrix m(f.rows, f.cols);
  for (int64_t c = 0; c < f.cols; ++c) {
    std::vector<cplx> x(std::size_t(f.cols), 0.0);
    x[std::size_t(c)] = 1.0;
    std::vector<cplx> y = interpret(f, x);
    for (int64_t r = 0; r < f.rows; ++r) m.at(r, c) = y[std::size_t(r)];
  }
  return m;
}

std::vector<std::pair<int64_t, int64_t>> pairs(const std::vector<Match> &ms, const char *a, const char *b) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const Match &m : ms) out.push_back({m.sizes.at(a), m.sizes.at(b)});
  return out;
}

// ---- size expressions ---------------------------------------------------------------------

TEST(RewriteSize, ProductGivesEveryFactorisation) {
  auto s = solve_size(V("m") * V("n"), 12, {});
  ASSERT_TRUE(s);
  ASSERT_EQ(s->size(), 6u);
  EXPECT_EQ((*s)[0], (Bindings{{"m", 1}, {"n", 12}}));
  EXPECT_EQ((*s)[5], (Bindings{{"m", 12}, {"n", 1}}));
  // One side known: division.
  s = solve_size(V("m") * V("n"), 12, {{"m", 3}});
  ASSERT_TRUE(s);
  ASSERT_EQ(s->size(), 1u);
  EXPECT_EQ((*s)[0].at("n"), 4);
  EXPECT_TRUE(solve_size(V("m") * V("n"), 12, {{"m", 5}})->empty());
  EXPECT_TRUE(solve_size(C(2) * V("n"), 7, {})->empty());
}

TEST(RewriteSize, InversesAndUndetermined) {
  auto s = solve_size(V("n") ^ C(2), 16, {});
  ASSERT_TRUE(s && s->size() == 1);
  EXPECT_EQ((*s)[0].at("n"), 4);
  EXPECT_TRUE(solve_size(V("n") ^ C(2), 15, {})->empty());
  s = solve_size(V("n") / V("p"), 4, {{"p", 3}});
  ASSERT_TRUE(s && s->size() == 1);
  EXPECT_EQ((*s)[0].at("n"), 12);
  s = solve_size(V("n") + C(1), 8, {});
  ASSERT_TRUE(s && s->size() == 1);
  EXPECT_EQ((*s)[0].at("n"), 7);
  EXPECT_FALSE(solve_size(V("m") + V("n"), 5, {}));  // not determined
  EXPECT_EQ(*eval_size(V("n") / C(2), {{"n", 6}}), 3);
  EXPECT_FALSE(eval_size(V("n") / C(4), {{"n", 6}}));  // exact division only
  // m*n*p: three factors of 12.
  s = solve_size(V("m") * V("n") * V("p"), 12, {});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size(), 18u);
}

// ---- matching -------------------------------------------------------------------------------

TEST(RewriteMatch, DftSizesAndConditions) {
  Rule ct = cooley_tukey();
  std::vector<Match> all = match(ct.lhs, make_dft(12));
  EXPECT_EQ(pairs(all, "m", "n"),
            (std::vector<std::pair<int64_t, int64_t>>{{1, 12}, {2, 6}, {3, 4}, {4, 3}, {6, 2}, {12, 1}}));
  std::vector<Match> ok = matches(ct, make_dft(12));
  EXPECT_EQ(pairs(ok, "m", "n"), (std::vector<std::pair<int64_t, int64_t>>{{2, 6}, {3, 4}, {4, 3}, {6, 2}}));
  EXPECT_EQ(ok[0].sizes.at("k"), 1);
  EXPECT_TRUE(match(ct.lhs, make_identity(12)).empty());
}

TEST(RewriteMatch, RootsCompareModuloTheSize) {
  std::vector<Match> ms = match(DFT(V("n"), V("k")), make_dft(8, -1));
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("k"), 7);
  EXPECT_TRUE(match(DFT(V("n")), make_dft(8, -1)).empty());  // no k: the forward DFT only
  EXPECT_EQ(match(DFT(V("n")), make_dft(8)).size(), 1u);
  EXPECT_EQ(match(DFT(V("n"), C(-1)), make_dft(8, 7)).size(), 1u);
  EXPECT_EQ(match(DFT(C(8), C(15)), make_dft(8, 7)).size(), 1u);
  EXPECT_TRUE(match(DFT(C(8), C(3)), make_dft(8, 7)).empty());
}

TEST(RewriteMatch, ChainsPartitionTheWholeNode) {
  Spl x = make_dft(2), y = make_stride(4, 2), z = make_dft(4, 3);
  Spl f = make_compose({tensor(x, make_identity(2)), y, z});
  std::vector<Match> ms = match(Mul({Var("A"), Var("B")}), f);
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_TRUE(equal(ms[0].formulas.at("A"), f->children[0]));
  EXPECT_TRUE(equal(ms[0].formulas.at("B"), compose(y, z)));
  EXPECT_TRUE(equal(ms[1].formulas.at("A"), compose(f->children[0], y)));
  EXPECT_TRUE(equal(ms[1].formulas.at("B"), z));
  // Three operands: exactly one way; a shaped variable constrains.
  EXPECT_EQ(match(Mul({Var("A"), Var("B"), Var("C")}), f).size(), 1u);
  EXPECT_EQ(match(Mul({Var("A", {V("m")}), L(V("N"), V("s"))}), compose(x, make_stride(2, 2))).size(), 0u);
  // A variable met twice must meet equal formulas.
  EXPECT_EQ(match(Mul({Var("A"), Var("A")}), compose(z, z)).size(), 1u);
  EXPECT_TRUE(match(Mul({Var("A"), Var("A")}), compose(z, make_dft(4))).empty());
}

TEST(RewriteMatch, TensorSplitsIdentities) {
  Spl f = tensor(make_identity(6), make_dft(2));
  std::vector<Match> ms = match(X({I(V("m")), Var("A")}), f);
  ASSERT_EQ(ms.size(), 4u);
  std::vector<int64_t> m;
  for (const Match &x : ms) m.push_back(x.sizes.at("m"));
  EXPECT_EQ(m, (std::vector<int64_t>{6, 3, 2, 1}));
  EXPECT_TRUE(equal(ms[0].formulas.at("A"), make_dft(2)));
  EXPECT_TRUE(equal(ms[1].formulas.at("A"), tensor(make_identity(2), make_dft(2))));
  EXPECT_TRUE(equal(ms[3].formulas.at("A"), f));
  // With a shape: A[n] fixes the split.
  ms = match(X({I(V("m")), Var("A", {V("n")})}), f);
  EXPECT_EQ(ms.size(), 4u);
  ms = match(X({I(V("m")), Var("A", {C(4)})}), f);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("m"), 3);
  // Splitting at the end: A (x) I(n).
  ms = match(X({Var("A"), I(V("n"))}), tensor(make_dft(2), make_identity(6)));
  std::vector<int64_t> n;
  for (const Match &x : ms) n.push_back(x.sizes.at("n"));
  EXPECT_EQ(n, (std::vector<int64_t>{6, 3, 2}));
  // Adjacent pattern identities act as one: I(a) (x) I(b) (x) DFT(c).
  ms = match(X({I(V("a")), I(C(2)), DFT(V("c"))}), tensor(make_identity(6), make_dft(2)));
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("a"), 3);
  // The middle of a chain: I(2) (x) DFT(3) (x) I(4) against A (x) DFT(n) (x) I(k).
  ms = match(X({Var("A"), DFT(V("n")), I(V("k"))}),
             make_tensor({make_identity(2), make_dft(3), make_identity(4)}));
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("k"), 4);
  EXPECT_TRUE(equal(ms[0].formulas.at("A"), make_identity(2)));
  // An identity alone is a chain of one: I(m) (x) I(n) against I(4).
  EXPECT_EQ(match(X({I(V("m")), I(V("n"))}), make_identity(4)).size(), 3u);
}

TEST(RewriteMatch, TagPatterns) {
  Spl inner = tensor(make_identity(4), make_dft(2));
  Spl f = make_tagged(Tag{TagKind::Par, {2, 1}}, inner);
  Term pat = Tagged(TagKind::Par, {V("p"), V("mu")}, X({I(V("n")), Var("A", {V("m")})}));
  std::vector<Match> ms = match(pat, f);
  ASSERT_FALSE(ms.empty());
  EXPECT_EQ(ms[0].sizes.at("p"), 2);
  EXPECT_EQ(ms[0].sizes.at("mu"), 1);
  EXPECT_EQ(ms[0].sizes.at("n"), 4);
  EXPECT_EQ(ms[0].sizes.at("m"), 2);
  // Another tag, or no tag, does not match a tag pattern.
  EXPECT_TRUE(match(pat, make_tagged(Tag{TagKind::Smp, {2, 1}}, inner)).empty());
  EXPECT_TRUE(match(pat, inner).empty());
  EXPECT_TRUE(match(Tagged(TagKind::Par, {C(4), V("mu")}, Var("A")), f).empty());
  // Tags are transparent to untagged patterns.
  EXPECT_EQ(match(X({I(V("n")), Var("A")}), f).size(), 3u);
  EXPECT_EQ(match(DFT(V("n")), make_tagged(Tag{TagKind::Vec, {4}}, make_dft(8))).size(), 1u);
  // A formula variable takes the tagged node itself.
  ms = match(Var("A"), f);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_TRUE(equal(ms[0].formulas.at("A"), f));
}

TEST(RewriteMatch, FencesDirectSumsTilesAndMultiDimensionalDfts) {
  Spl a = make_dft(4), b = make_stride(4, 2), c = make_twiddle(4, 2);
  Term fence = node(SplKind::Fence, {}, {Var("A"), Var("B")});
  std::vector<Match> ms = match(fence, make_fence({a, b, c}));
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_TRUE(equal(ms[0].formulas.at("B"), make_fence({b, c})));
  EXPECT_TRUE(match(fence, make_compose({a, b, c})).empty());  // * is not |
  Term dsum = node(SplKind::DirectSum, {}, {Var("A", {V("m")}), DFT(V("n"))});
  ms = match(dsum, make_direct_sum({make_identity(2), a, make_dft(3)}));
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("m"), 6);
  EXPECT_EQ(ms[0].sizes.at("n"), 3);
  Term tile = node(SplKind::TileTensor, {}, {I(V("t")), X({I(V("k")), Var("A")})});
  ms = match(tile, make_tile_tensor(make_identity(4), tensor(make_identity(2), a)));
  ASSERT_FALSE(ms.empty());
  EXPECT_EQ(ms[0].sizes.at("t"), 4);
  EXPECT_EQ(ms[0].sizes.at("k"), 2);
  EXPECT_TRUE(match(tile, make_tensor({make_identity(4), make_identity(2), a})).empty());  // (x) is not (x)~
  Term nd = node(SplKind::DFTnd, {V("m"), V("n")});
  ms = match(nd, make_dft_nd({2, 3}));
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("m"), 2);
  EXPECT_EQ(ms[0].sizes.at("n"), 3);
  EXPECT_TRUE(match(nd, make_dft(6)).empty());
  EXPECT_TRUE(match(nd, make_dft_nd({2, 3}, -1)).empty());
}

TEST(RewriteMatch, Transpose) {
  Term pat = node(SplKind::Transpose, {}, {L(V("N"), V("s"))});
  std::vector<Match> ms = match(pat, make_stride(12, 3));
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].sizes.at("s"), 4);  // L(12,3) = L(12,4)'
}

// ---- instantiation --------------------------------------------------------------------------

TEST(RewriteInstantiate, CooleyTukeyEqualsTheDft) {
  Rule ct = cooley_tukey();
  for (int64_t k : {1, -1, 5}) {
    Spl f = make_dft(12, k);
    std::vector<Match> ms = matches(ct, f);
    ASSERT_EQ(ms.size(), 4u);
    for (const Match &m : ms) {
      Spl r = instantiate_spl(ct.rhs, m);
      EXPECT_LT(max_abs_difference(to_dense(r), to_dense(f)), 1e-12) << print(r);
    }
  }
  Match m;
  m.sizes = {{"m", 2}};
  EXPECT_THROW(instantiate_spl(ct.rhs, m), FormulaError);  // n and k unbound
}

void expect_sigma_rule_holds(const Rule &rule, const Spl &f) {
  std::vector<Match> ms = matches(rule, f);
  ASSERT_FALSE(ms.empty()) << print(f);
  Sigma s = instantiate_sigma(rule.rhs, ms.front(), f->rows, f->cols, plain_lowering);
  Matrix want = to_dense(f);
  EXPECT_LT(max_abs_difference(to_dense(s), want), 1e-9) << print(s);
  Sigma merged = lower::merge_loops(s);
  EXPECT_LT(max_abs_difference(to_dense(merged), want), 1e-9) << print(merged);
  Function loops = lower::sigma_to_loops(merged, "k");
  EXPECT_LT(max_abs_difference(loops_to_dense(loops), want), 1e-9) << print(merged) << to_string(loops);
}

TEST(RewriteInstantiate, ParallelRuleSix) {
  Rule par = par_rule();
  expect_sigma_rule_holds(par, make_tagged(Tag{TagKind::Par, {2, 1}}, tensor(make_identity(4), make_dft(3))));
  expect_sigma_rule_holds(par, make_tagged(Tag{TagKind::Par, {4, 2}}, tensor(make_identity(8), make_dft(4))));
  // A lowered kernel with its own loops inside the rule's loops: ids stay distinct.
  Spl inner = tensor(make_identity(2), make_compose({tensor(make_dft(2), make_identity(3)), make_stride(6, 2)}));
  expect_sigma_rule_holds(par, make_tagged(Tag{TagKind::Par, {2, 1}}, tensor(make_identity(4), inner)));
  Spl f = make_tagged(Tag{TagKind::Par, {2, 1}}, tensor(make_identity(4), make_dft(3)));
  Sigma s = instantiate_sigma(par.rhs, matches(par, f).front(), 12, 12, plain_lowering);
  EXPECT_EQ(s->kind, SigmaKind::Sum);
  EXPECT_EQ(s->mode, SumMode::Parallel);
  EXPECT_EQ(s->var.id, 0);  // renumbered
  EXPECT_EQ(s->var.extent, 2);
}

TEST(RewriteInstantiate, StreamRuleNine) {
  Rule stream = stream_rule();
  expect_sigma_rule_holds(stream, make_tagged(Tag{TagKind::Stream, {2}}, tensor(make_identity(4), make_dft(3))));
  expect_sigma_rule_holds(stream, make_tagged(Tag{TagKind::Stream, {3}}, tensor(make_identity(6), make_dft(2))));
  expect_sigma_rule_holds(stream, make_tagged(Tag{TagKind::Stream, {1}}, tensor(make_identity(2), make_dft(5))));
  Spl f = make_tagged(Tag{TagKind::Stream, {2}}, tensor(make_identity(4), make_dft(3)));
  Sigma s = instantiate_sigma(stream.rhs, matches(stream, f).front(), 12, 12, plain_lowering);
  ASSERT_EQ(s->kind, SigmaKind::Sum);
  EXPECT_EQ(s->mode, SumMode::Stream);
  const Sigma &body = s->children.front();
  ASSERT_EQ(body->kind, SigmaKind::Compose);
  EXPECT_TRUE(body->children.front()->dma);
  EXPECT_EQ(body->children.front()->fn->kind, FnKind::Q);
  EXPECT_EQ(body->children.front()->fn->domain, 6);  // m*mu = 3*2
  EXPECT_EQ(body->children.front()->fn->range, 12);
}

TEST(RewriteInstantiate, SigmaErrors) {
  Rule r = make_rule("bad", Var("A", {V("n")}), Sum("j", V("n"), Mul({S(FnKind::H, {V("j") * V("j"), C(1)}), Var("A"),
                                                                          G(FnKind::H, {V("j"), C(1)})})));
  Match m;
  m.sizes = {{"n", 3}};
  m.formulas = {{"A", make_dft(3)}};
  EXPECT_THROW(instantiate_sigma(r.rhs, m, 3, 3, plain_lowering), FormulaError);  // j*j is not affine
  EXPECT_THROW(instantiate_spl(r.rhs, m), FormulaError);                          // Sigma-SPL, not SPL
}

// ---- strategies -----------------------------------------------------------------------------

TEST(RewriteStrategy, FixpointExpandsToPrimes) {
  Rule ct = cooley_tukey();
  Spl f = make_dft(24, -1);
  Spl r = rewrite_to_fixpoint(f, {&ct});
  EXPECT_LT(max_abs_difference(to_dense(r), to_dense(f)), 1e-9);
  std::function<void(const Spl &)> leaves_prime = [&](const Spl &g) {
    if (g->kind == SplKind::DFT) {
      EXPECT_TRUE(g->a == 2 || g->a == 3) << print(g);
    }
    for (const Spl &c : g->children) leaves_prime(c);
  };
  leaves_prime(r);
}

TEST(RewriteStrategy, ChainPatternInsideALongerComposition) {
  // L(m*n, m) * L(m*n, n) => I(m*n)
  Rule inv = make_rule("stride_inverse", Mul({L(V("m") * V("n"), V("m")), L(V("m") * V("n"), V("n"))}),
                       I(V("m") * V("n")));
  Spl a = tensor(make_dft(4), make_identity(2)), t = make_twiddle(8, 2);
  Spl f = make_compose({a, make_stride(8, 2), make_stride(8, 4), t});
  Spl r = rewrite_to_fixpoint(f, {&inv});
  EXPECT_TRUE(equal(r, compose(a, t))) << print(r);
  // Also inside a tag and below a tensor.
  Spl g = make_tagged(Tag{TagKind::Vec, {2}}, tensor(make_identity(3), f));
  EXPECT_TRUE(equal(rewrite_to_fixpoint(g, {&inv}),
                    make_tagged(Tag{TagKind::Vec, {2}}, tensor(make_identity(3), compose(a, t)))));
}

TEST(RewriteStrategy, TagKeptWhenAnUntaggedRuleAppliesBelowIt) {
  Rule ct = cooley_tukey();
  Spl f = make_tagged(Tag{TagKind::Vec, {2}}, make_dft(4));
  Spl r = rewrite_to_fixpoint(f, {&ct});
  ASSERT_EQ(r->kind, SplKind::Tagged);
  EXPECT_EQ(r->children[0]->kind, SplKind::Compose);
  EXPECT_LT(max_abs_difference(to_dense(r), to_dense(f)), 1e-12);
}

TEST(RewriteStrategy, MaxStepsIsAnError) {
  // L(N, s) => L(N, N/s) flips forever: refused as soon as a formula comes back.
  Rule flip = make_rule("flip", L(V("N"), V("s")), L(V("N"), V("N") / V("s")));
  try {
    rewrite_to_fixpoint(make_stride(6, 2), {&flip}, 50);
    FAIL() << "expected FormulaError";
  } catch (const FormulaError &e) {
    EXPECT_NE(std::string(e.what()).find("flip"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is one it was before"), std::string::npos) << e.what();
  }
  // DFT(101, k) => DFT(101, k+1) comes back only after 100 steps: the step bound fires first.
  Rule rotate = make_rule("rotate", DFT(V("n"), V("k")), DFT(V("n"), V("k") + C(1)));
  try {
    rewrite_to_fixpoint(make_dft(101), {&rotate}, 50);
    FAIL() << "expected FormulaError";
  } catch (const FormulaError &e) {
    EXPECT_NE(std::string(e.what()).find("rotate"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("50"), std::string::npos) << e.what();
  }
  // A rule that rewrites a formula into itself is not a step: it terminates.
  Rule same = make_rule("same", L(V("N"), V("s")), L(V("N"), V("s")));
  EXPECT_TRUE(equal(rewrite_to_fixpoint(make_stride(6, 2), {&same}, 5), make_stride(6, 2)));
  // SPL rules only: Sigma rules are ignored by rewriting.
  Rule par = par_rule();
  Spl f = make_tagged(Tag{TagKind::Par, {2, 1}}, tensor(make_identity(4), make_dft(3)));
  EXPECT_TRUE(equal(rewrite_to_fixpoint(f, {&par}), f));
}

TEST(RewriteStrategy, LowerWithRules) {
  Rule par = par_rule(), stream = stream_rule();
  Spl tagged = make_tagged(Tag{TagKind::Par, {2, 1}}, tensor(make_identity(4), make_dft(3)));
  Spl f = make_compose({tagged, make_stride(12, 3), make_tagged(Tag{TagKind::Stream, {2}},
                                                                tensor(make_identity(4), make_dft(3)))});
  Spl g = tensor(make_identity(2), f);
  for (const Spl &x : {f, g}) {
    Sigma s = lower::lower_with_rules(x, {&par, &stream});
    Matrix want = to_dense(x);
    EXPECT_LT(max_abs_difference(to_dense(s), want), 1e-9) << print(s);
    Sigma merged = lower::merge_loops(s);
    EXPECT_LT(max_abs_difference(loops_to_dense(lower::sigma_to_loops(merged, "k")), want), 1e-9) << print(merged);
    std::string text = print(s);
    EXPECT_NE(text.find("Sum_par"), std::string::npos) << text;
    EXPECT_NE(text.find("Sum_stream"), std::string::npos) << text;
  }
  // Without a matching rule: exactly lower_to_sigma.
  Spl plain = tensor(make_identity(4), make_dft(3));
  EXPECT_EQ(print(lower::lower_with_rules(plain, {&par})), print(lower::lower_to_sigma(plain)));
}

// ---- the checker ----------------------------------------------------------------------------

TEST(RewriteCheck, CooleyTukeyHolds) {
  Rule ct = cooley_tukey();
  CheckResult r = check_rule(ct);
  EXPECT_TRUE(r.ok) << r.error << r.counterexample;
  EXPECT_GT(r.instances, 50);
  EXPECT_EQ(r.rule, &ct);
}

TEST(RewriteCheck, WrongTwiddleSideIsRefutedAtTheSmallestSizes) {
  Rule wrong = cooley_tukey_wrong();
  CheckResult r = check_rule(wrong);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.counterexample.rfind("k=1, m=2, n=2: max abs error", 0), 0u) << r.counterexample;
}

TEST(RewriteCheck, SigmaRulesHold) {
  for (const Rule &rule : {par_rule(), stream_rule()}) {
    CheckResult r = check_rule(rule);
    EXPECT_TRUE(r.ok) << rule.name << ": " << r.error << r.counterexample;
    EXPECT_GT(r.instances, 10) << rule.name;
  }
  // A false Sigma rule: the inner gather reads at the wrong stride.
  Rule bad = par_rule();
  bad.rhs.children[0].children[1].children[0].children[2].fn.args[1] = C(2);
  CheckResult r = check_rule(bad);
  EXPECT_FALSE(r.ok);
}

TEST(RewriteCheck, NoInstanceIsAnError) {
  Rule ct = cooley_tukey();
  ct.conditions.push_back(cmp(V("m"), ">", C(600)));
  CheckResult r = check_rule(ct);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "no instance satisfies the conditions up to size 512");
}

TEST(RewriteCheck, ShapelessFormulaVariables) {
  // (A * B)' = B' * A'
  Term lhs = node(SplKind::Transpose, {}, {Mul({Var("A"), Var("B")})});
  Term rhs = Mul({node(SplKind::Transpose, {}, {Var("B")}), node(SplKind::Transpose, {}, {Var("A")})});
  CheckResult r = check_rule(make_rule("transpose_product", lhs, rhs));
  EXPECT_TRUE(r.ok) << r.error << r.counterexample;
  // A * B = B * A is false (and not even well-formed for most shapes).
  CheckResult w = check_rule(make_rule("commute", Mul({Var("A", {V("n")}), Var("B", {V("n")})}),
                                       Mul({Var("B", {V("n")}), Var("A", {V("n")})})));
  EXPECT_FALSE(w.ok);
  EXPECT_EQ(w.counterexample.rfind("n=2:", 0), 0u) << w.counterexample << w.error;
}

// ---- rule text (generator/parse/rule_parser.h) -------------------------------------------

constexpr const char *kRuleText = R"(
# Cooley-Tukey, decimation in time
rule dft_ct_dit: DFT(m*n, k) => (DFT(m, k) (x) I(n)) * T(m*n, n, k) * (I(m) (x) DFT(n, k)) * L(m*n, m)
  if m > 1, n > 1;
# decimation in frequency
rule dft_ct_dif: DFT(m*n, k) => L(m*n, n) * (I(m) (x) DFT(n, k)) * T(m*n, n, k) * (DFT(m, k) (x) I(n))
  if m > 1, n > 1;
rule dft_good_thomas: DFT(m*n, k) => @gt_out(m, n) * (DFT(m, k) (x) DFT(n, k)) * @gt_in(m, n)
  if m > 1, n > 1, coprime(m, n);
rule dft_2d: DFT(m x n, k) => (DFT(m, k) (x) I(n)) * (I(m) (x) DFT(n, k));
rule stride_inverse: L(m*n, m) * L(m*n, n) => I(m*n);
rule sandwich: L(m*n, n) * (A[m] (x) I(n)) * L(m*n, m) => I(n) (x) A;
rule vec_transpose: L(n*nu, n) => (I(n/nu) (x) L(nu^2, nu)) * (L(n, n/nu) (x) I(nu)) if divides(nu, n);
rule par_i_tensor_a: par(p, mu)[ I(n) (x) A[m] ] =>
   Sum_par(k < p) S(h(k*n*m/p, 1)) * (Sum(j < n/p) S(h(j*m, 1)) * A * G(h(j*m, 1))) * G(h(k*n*m/p, 1))
  if divides(p, n);
rule stream_i_tensor_a: stream(s)[ I(n) (x) A[m] ] =>
    Sum_stream(k < s) S_dma(q(k, 1, m*mu)) * (Sum(j < mu) S(h(j*m, 1)) * A * G(h(j*m, 1))) * G_dma(q(k, 1, m*mu))
  if divides(s, n), let mu = n / s;
rule stream_a_tensor_i: stream(s)[ A[m] (x) I(n) ] =>
    Sum_stream(k < s) S_dma(q(k, s, mu)) * (Sum(j < mu) S(h(j, mu)) * A * G(h(j, mu))) * G_dma(q(k, s, mu))
  if divides(s, n), let mu = n / s;
rule tiled_i_tensor_a: tiled(k)[ I(n) (x) A[n] ] => I(n/k) (x)~ I(k) (x) A if divides(k, n);
ruleset breakdown = dft_ct_dit, dft_ct_dif, dft_good_thomas;
)";

TEST(RewriteRuleText, ShippedStyleRulesCheck) {
  RuleLibrary lib;
  lib.add_file(parse_rule_file(kRuleText, "rules/test.rules"));
  ASSERT_EQ(lib.all().size(), 11u);
  for (const Rule *rule : lib.all()) {
    CheckResult r = check_rule(*rule);
    EXPECT_TRUE(r.ok) << rule->name << ": " << r.error << r.counterexample;
  }
  std::vector<const Rule *> breakdown = lib.set("breakdown");
  ASSERT_EQ(breakdown.size(), 3u);
  EXPECT_EQ(breakdown[2]->name, "dft_good_thomas");
  EXPECT_EQ(lib.set("test").size(), 11u);
  EXPECT_TRUE(lib.set("nothing").empty());
  EXPECT_TRUE(has_set(lib, "breakdown") && has_set(lib, "test") && !has_set(lib, "nothing"));
  EXPECT_EQ(lib.find("sandwich")->family, "test");
  // Good-Thomas: the coprime factorisations of 12 only.
  std::vector<Match> ms = matches(*lib.find("dft_good_thomas"), make_dft(12));
  EXPECT_EQ(pairs(ms, "m", "n"), (std::vector<std::pair<int64_t, int64_t>>{{3, 4}, {4, 3}}));
  Spl r = instantiate_spl(lib.find("dft_good_thomas")->rhs, ms[0]);
  EXPECT_LT(max_abs_difference(to_dense(r), to_dense(make_dft(12))), 1e-9);
}

TEST(RewriteRuleText, FalseRulesAreRefuted) {
  Rule wrong = parse_rule(
      "rule ct_wrong: DFT(m*n, k) => (DFT(m, k) (x) I(n)) * (I(m) (x) DFT(n, k)) * T(m*n, n, k) * L(m*n, m) "
      "if m > 1, n > 1;");
  CheckResult r = check_rule(wrong);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.counterexample.rfind("k=1, m=2, n=2: max abs error", 0), 0u) << r.counterexample;
  // The stride permutation on the wrong side of a Sigma-SPL rule: refuted by both checks.
  Rule stream = parse_rule(
      "rule stream_wrong: stream(s)[ A[m] (x) I(n) ] => Sum_stream(k < s) S_dma(q(k, s, mu)) * "
      "(Sum(j < mu) S(h(j*m, 1)) * A * G(h(j, mu))) * G_dma(q(k, s, mu)) if divides(s, n), let mu = n / s;");
  r = check_rule(stream);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.counterexample.empty()) << r.error;
  // Unbound variables on the right are reported before any instance.
  r = check_rule(parse_rule("rule unbound: I(n^2) => I(n/k) (x) I(k*n) if divides(k, n);"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("k"), std::string::npos) << r.error;
}

TEST(RewriteRuleText, CallsInPatterns) {
  // @reverse(n) * DFT(n) => DFT(n, -1): n is bound by the DFT, then the call is compared.
  Rule rule = parse_rule("rule reverse_dft: @reverse(n) * DFT(n) => DFT(n, -1);");
  EXPECT_TRUE(check_rule(rule).ok);
  const RuleFunction *reverse = find_rule_function("reverse");
  ASSERT_NE(reverse, nullptr);
  Spl f = make_compose({make_twiddle(8, 2), reverse->make({8}), make_dft(8)});
  Spl r = rewrite_to_fixpoint(f, {&rule});
  EXPECT_TRUE(equal(r, compose(make_twiddle(8, 2), make_dft(8, -1)))) << print(r);
  EXPECT_TRUE(match(rule.lhs, compose(reverse->make({8}), make_dft(8, 3))).empty());  // not DFT(n)
  EXPECT_TRUE(match(rule.lhs, compose(make_stride(8, 2), make_dft(8))).empty());     // not @reverse(8)
}

TEST(RewriteRuleText, LibraryFilesAndSets) {
  RuleLibrary lib;
  lib.add_file(parse_rule_file("rule a: I(n) => I(n);\nrule b: L(n, s) => L(n, s);", "dir/x.rules"));
  // The same name again in the set "x" (another file of that stem) is an error.
  EXPECT_THROW(lib.add_file(parse_rule_file("rule a: I(n) => I(n);", "other/x.rules")), RuleSyntaxError);
  // In another set it is allowed; find() gives the first.
  lib.add_file(parse_rule_file("rule a: DFT(n) => DFT(n);", "dir/y.rules"));
  EXPECT_EQ(lib.find("a")->family, "x");
  EXPECT_EQ(lib.set("y").size(), 1u);
  lib.add_file(parse_rule_file("rule c: I(n) => I(n);\nruleset s = c, zz;\nruleset t = c, a;", "dir/z.rules"));
  EXPECT_THROW(lib.set("s"), RuleSyntaxError);  // zz is unknown
  ASSERT_EQ(lib.set("t").size(), 2u);
  EXPECT_EQ(lib.set("t")[1]->family, "x");  // the first rule a of the library
  // load(): a directory's *.rules files, sorted.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("splgen_rewrite_test_{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "b.rules") << "rule rb: I(n) => I(n);\n";
  std::ofstream(dir / "a.rules") << "rule ra: I(n) => I(n);\n";
  std::ofstream(dir / "notes.txt") << "not rules\n";
  RuleLibrary loaded;
  loaded.load(dir.string());
  ASSERT_EQ(loaded.all().size(), 2u);
  EXPECT_EQ(loaded.all()[0]->name, "ra");
  EXPECT_EQ(loaded.all()[1]->name, "rb");
  // default_rules_dir(): $SPLGEN_RULES first.
  ::setenv("SPLGEN_RULES", dir.c_str(), 1);
  EXPECT_EQ(default_rules_dir(), dir.string());
  ::unsetenv("SPLGEN_RULES");
  EXPECT_FALSE(default_rules_dir().empty());
  fs::remove_all(dir);
}

TEST(RewriteRuleText, ShippedRulesCheck) {
  // Every shipped rule holds (and checking them all is quick).
  std::string dir = default_rules_dir();
  if (!std::filesystem::is_directory(dir) || std::filesystem::is_empty(dir)) GTEST_SKIP() << "no rules in " << dir;
  RuleLibrary lib;
  lib.load(dir);
  for (const Rule *rule : lib.all()) {
    CheckResult r = check_rule(*rule);
    EXPECT_TRUE(r.ok) << rule->name << ": " << r.error << r.counterexample;
  }
}

}  // namespace
}  // namespace splgen::rewrite
