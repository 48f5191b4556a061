// SPL nodes: factories check and normalise, equal formulas hash equal, and to_dense of
// every node kind matches its definition in docs/design.md, "SPL constructs".
#include <gtest/gtest.h>

#include <cmath>

#include "generator/expand/breakdown.h"
#include "generator/expand/cost_estimate.h"
#include "generator/expand/expand.h"
#include "generator/ir/dense.h"
#include "generator/ir/print.h"

namespace splgen {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

cplx w(int64_t n, int64_t e) { return std::polar(1.0, -2 * kPi * double(e) / double(n)); }

TEST(Spl, DftMatrix) {
  for (int64_t n : {1, 2, 3, 8, 12})
    for (int64_t k : {1, -1}) {
      Matrix m = to_dense(make_dft(n, k));
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) EXPECT_LT(std::abs(m.at(r, c) - w(n, k * r * c)), 1e-14);
    }
}

TEST(Spl, StridePermutationDefinition) {  // y[i*n + j] = x[j*m + i]
  int64_t m = 3, n = 4;
  Matrix p = to_dense(make_stride(m * n, m));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) EXPECT_EQ(p.at(i * n + j, j * m + i), cplx(1.0));
  EXPECT_LT(max_abs_difference(to_dense(compose(make_stride(12, 3), make_stride(12, 4))), Matrix::identity(12)), 1e-15);
}

TEST(Spl, TwiddleDefinition) {  // diag(w_mn^(i*j)) at i*n + j
  Matrix d = to_dense(make_twiddle(12, 4));
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) EXPECT_LT(std::abs(d.at(i * 4 + j, i * 4 + j) - w(12, i * j)), 1e-15);
  Matrix di = to_dense(make_twiddle(12, 4, -1));
  EXPECT_LT(std::abs(di.at(5, 5) - w(12, -1)), 1e-15);
}

TEST(Spl, DiagPermTensorSumCompose) {
  Spl d = make_diag({2.0, cplx(0, 1)});
  Spl p = make_perm({1, 2, 0});  // y[i] = x[p[i]]
  Matrix pm = to_dense(p);
  EXPECT_EQ(pm.at(0, 1), cplx(1.0));
  EXPECT_EQ(pm.at(2, 0), cplx(1.0));
  EXPECT_EQ(to_dense(d).at(1, 1), cplx(0, 1));
  Matrix t = to_dense(tensor(d, p));
  EXPECT_EQ(t.at(3 + 0, 3 + 1), cplx(0, 1));
  Matrix s = to_dense(make_direct_sum({d, p}));
  EXPECT_EQ(s.rows, 5);
  EXPECT_EQ(s.at(2, 3), cplx(1.0));
  Matrix c = to_dense(compose(make_dft(2), d));
  EXPECT_EQ(c.at(1, 1), cplx(0, -1));
}

TEST(Spl, FactoriesNormalise) {
  EXPECT_TRUE(equal(tensor(make_identity(1), make_dft(4)), make_dft(4)));
  EXPECT_TRUE(equal(tensor(make_identity(2), make_identity(3)), make_identity(6)));
  EXPECT_TRUE(equal(make_stride(8, 1), make_identity(8)));
  EXPECT_TRUE(equal(make_stride(8, 8), make_identity(8)));
  EXPECT_TRUE(equal(make_twiddle(8, 1), make_identity(8)));
  EXPECT_TRUE(equal(make_perm({0, 1, 2}), make_identity(3)));
  EXPECT_TRUE(equal(make_diag({1.0, 1.0}), make_identity(2)));
  EXPECT_TRUE(equal(compose(make_identity(4), make_dft(4)), make_dft(4)));
  Spl abc = make_compose({make_dft(4), make_stride(4, 2), make_dft(4)});
  EXPECT_TRUE(equal(compose(compose(make_dft(4), make_stride(4, 2)), make_dft(4)), abc));
  EXPECT_EQ(abc->children.size(), 3u);
  EXPECT_TRUE(equal(make_dft(5, 6), make_dft(5, 1)));
  EXPECT_TRUE(equal(make_dft(5, -1), make_dft(5, 4)));
}

TEST(Spl, StructuralHashing) {
  Spl a = compose(tensor(make_dft(2), make_identity(2)), make_stride(4, 2));
  Spl b = compose(tensor(make_dft(2), make_identity(2)), make_stride(4, 2));
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(a->hash, b->hash);
  EXPECT_TRUE(equal(a, b));
  EXPECT_FALSE(equal(a, compose(tensor(make_identity(2), make_dft(2)), make_stride(4, 2))));
}

TEST(Spl, FactoriesRejectBadInput) {
  EXPECT_THROW(make_dft(0), FormulaError);
  EXPECT_THROW(make_dft(-4), FormulaError);
  EXPECT_THROW(make_dft(4, 2), FormulaError);  // root not primitive
  EXPECT_THROW(make_stride(12, 5), FormulaError);
  EXPECT_THROW(make_twiddle(12, 5), FormulaError);
  EXPECT_THROW(make_perm({0, 0, 1}), FormulaError);
  EXPECT_THROW(make_perm({0, 3}), FormulaError);
  EXPECT_THROW(compose(make_dft(4), make_dft(3)), FormulaError);
  EXPECT_THROW(make_tagged(Tag{TagKind::Smp, {2}}, make_dft(4)), FormulaError);
  EXPECT_THROW(make_identity(int64_t(1) << 50), FormulaError);
  EXPECT_THROW(to_dense(make_dft(1 << 13)), FormulaError);  // too large for a dense check
}

TEST(Spl, RootsOfUnityAreAccurate) {
  for (int64_t n : {3, 7, 8, 1000, 1 << 20})
    for (int64_t e : {int64_t(0), int64_t(1), n / 4, n / 3, n - 1}) {
      long double angle = -2.0L * 3.141592653589793238462643383279502884L * (long double)e / (long double)n;
      cplx exact((double)std::cos(angle), (double)std::sin(angle));
      EXPECT_LT(std::abs(root_of_unity(n, e) - exact), 2e-16) << n << " " << e;
    }
}

// The cached table (RootsOfUnity) gives exactly root_of_unity's values, in any order of e,
// for n of every residue mod 8 (the octant grid's step is gcd(8, 2n)).
TEST(Spl, RootsOfUnityTableEqualsEachRoot) {
  for (int64_t n : {1, 2, 3, 5, 6, 8, 12, 1000, 1024, 4099, 65536}) {
    RootsOfUnity table(n);
    for (int64_t e = 3 * n - 1; e >= -n; e -= (n > 1000 ? 7 : 1)) {
      cplx a = table(e), b = root_of_unity(n, e);
      ASSERT_EQ(a.real(), b.real()) << n << " " << e;
      ASSERT_EQ(a.imag(), b.imag()) << n << " " << e;
    }
  }
}

TEST(Expand, EveryBreakdownChoiceIsCorrect) {
  std::vector<const Rule *> breakdown = expand::breakdown_rules(expand::shipped_rules());
  ASSERT_FALSE(breakdown.empty());
  int choices = 0;
  for (Spl dft : {make_dft(4), make_dft(6), make_dft(12), make_dft(16, -1), make_dft(30), make_dft(7), make_dft(13, -1),
                  make_dft_nd({3, 4}), make_dft_nd({2, 3, 2}, -1)})
    for (const Rule *rule : breakdown)
      for (const rewrite::Match &m : rewrite::matches(*rule, dft)) {
        Spl f = rewrite::instantiate_spl(rule->rhs, m);
        EXPECT_LT(max_abs_difference(to_dense(f), to_dense(dft)), 1e-9) << rule->name << ": " << print(f);
        ++choices;
      }
  EXPECT_GT(choices, 20);
}

TEST(Expand, DefaultTreesAreBalancedWithCodeletLeaves) {
  expand::Expansion e = expand::expand(make_dft(1024));
  ASSERT_EQ(e.trees.size(), 1u);
  ASSERT_EQ(e.trees[0]->children.size(), 2u);
  for (const expand::RuletreePtr &c : e.trees[0]->children) {
    EXPECT_EQ(c->rule, "DFT_Codelet");
    EXPECT_EQ(c->node->a, 32);
  }
  EXPECT_EQ(expand::expand(make_dft(16)).trees[0]->rule, "DFT_Codelet");
  for (int64_t n : {1, 2, 5, 48, 100, 210, 37})
    EXPECT_LT(max_abs_difference(to_dense(expand::expand(make_dft(n)).formula), to_dense(make_dft(n))), 1e-10) << n;
  EXPECT_LT(max_abs_difference(to_dense(expand::expand(make_dft_nd({6, 8})).formula), to_dense(make_dft_nd({6, 8}))), 1e-10);
}

// The size classes of SplitKnobs (expand.cpp): the top split m x n of DFT(N).
TEST(Expand, DefaultSplitsBySizeClass) {
  auto top_split = [](int64_t N, bool vector_target) {
    expand::ExpandOptions o;
    o.vector_target = vector_target;
    expand::RuletreePtr t = expand::expand(make_dft(N), o).trees.at(0);
    return std::make_pair(t->children.at(0)->node->a, t->children.at(1)->node->a);
  };
  using Split = std::pair<int64_t, int64_t>;
  EXPECT_EQ(top_split(1024, true), Split(32, 32));      // balanced
  EXPECT_EQ(top_split(96, true), Split(8, 12));
  EXPECT_EQ(top_split(60, false), Split(6, 10));
  EXPECT_EQ(top_split(60, true), Split(15, 4));         // vector: 4 x a codelet, the 4 last
  EXPECT_EQ(top_split(100, true), Split(10, 10));       // but not past a 16-point codelet
  EXPECT_EQ(top_split(2048, true), Split(64, 32));      // vector: the codelet last
  EXPECT_EQ(top_split(3072, true), Split(96, 32));
  EXPECT_EQ(top_split(8192, true), Split(8, 1024));     // vector: a child of about 1024
  EXPECT_EQ(top_split(4096, false), Split(32, 128));    // scalar: radix 32 first
  EXPECT_EQ(top_split(16384, false), Split(32, 512));
  EXPECT_EQ(top_split(1 << 17, false), Split(128, 1024));  // out of cache: m near 128
  EXPECT_EQ(top_split(1 << 20, true), Split(128, 8192));

  // vector targets: the codelet a whole number of vectors of `lanes` (expand.cpp, lane_multiple_radix)
  auto lane_split = [](int64_t N, int64_t lanes, int registers = 32) {
    expand::ExpandOptions o;
    o.vector_target = true;
    o.vector_lanes = lanes;
    o.vector_registers = registers;
    expand::RuletreePtr t = expand::expand(make_dft(N), o).trees.at(0);
    return std::make_pair(t->children.at(0)->node->a, t->children.at(1)->node->a);
  };
  EXPECT_EQ(lane_split(1000, 4), Split(50, 20));    // balanced 25 x 40: DFT(40) is not a codelet
  EXPECT_EQ(lane_split(1000, 8), Split(125, 8));
  EXPECT_EQ(lane_split(1000, 0), Split(25, 40));    // lanes unknown: the balanced split
  EXPECT_EQ(lane_split(1200, 4), Split(50, 24));    // 1025 .. 4096: the codelet last, 24 not 30
  EXPECT_EQ(lane_split(1500, 8), Split(50, 30));    // no multiple of 8 divides 1500
  EXPECT_EQ(lane_split(900, 4), Split(30, 30));     // balanced children are codelets: unchanged
  EXPECT_EQ(lane_split(3072, 8), Split(96, 32));
  EXPECT_EQ(lane_split(60, 4), Split(15, 4));
  EXPECT_EQ(lane_split(100, 8), Split(10, 10));
  // 8 lanes in 16 registers (AVX2 float), 512 .. 1024: the codelet DFT(8) (prefers_radix_eight_last)
  EXPECT_EQ(lane_split(1024, 8, 16), Split(128, 8));
  EXPECT_EQ(lane_split(512, 8, 16), Split(64, 8));
  EXPECT_EQ(lane_split(512, 8, 32), Split(16, 32));
  EXPECT_EQ(lane_split(512, 4, 16), Split(16, 32));
  EXPECT_EQ(lane_split(256, 8, 16), Split(16, 16));
  EXPECT_EQ(lane_split(2048, 8, 16), Split(64, 32));

  // vector targets: a spec up to 32 points is one codelet, except multiples of 8 above 8
  expand::ExpandOptions o;
  o.top_split_multiple = 8;
  for (int64_t n : {8, 12, 13, 30}) EXPECT_EQ(expand::expand(make_dft(n), o).trees.at(0)->rule, "DFT_Codelet") << n;
  for (int64_t n : {16, 24, 32}) EXPECT_EQ(expand::expand(make_dft(n), o).trees.at(0)->rule, "dft_ct_dit") << n;
}

// Primes: Rader where p - 1 is smooth, Bluestein with a smooth M where p - 1 has a large prime
// factor and Rader would nest (generator/expand/cost_estimate.h).
TEST(Expand, PrimesPickTheFamilyTheModelEstimatesCheaper) {
  auto top = [](int64_t N) { return expand::expand(make_dft(N)).trees.at(0); };
  for (int64_t p : {37, 97, 257, 1009, 12289, 65537}) EXPECT_EQ(top(p)->rule, "dft_rader") << p;  // p - 1 smooth
  for (auto [p, M] : std::vector<std::pair<int64_t, int64_t>>{{4099, 9216}, {10007, 20480}, {10247, 20736}, {262139, 524288}}) {
    expand::RuletreePtr t = top(p);  // 4098 = 2 3 683, 10006 = 2 5003, 10246 = 2 47 109, 262138 = 2 131069
    EXPECT_EQ(t->rule, "dft_bluestein") << p;
    ASSERT_EQ(t->children.size(), 2u) << p;
    EXPECT_EQ(t->children.at(0)->node->a, M) << p;
  }
  EXPECT_LT(expand::estimated_dft_cost(20480), expand::estimated_dft_cost(32768));
  EXPECT_LT(expand::estimated_choice_cost(10007, {20480, 20480}), expand::estimated_choice_cost(10007, {10006, 10006}));
  EXPECT_GT(expand::estimated_choice_cost(1009, {2048, 2048}), expand::estimated_choice_cost(1009, {1008, 1008}));
}

}  // namespace
}  // namespace splgen
