// The C++ functions that rule files call as @name(args) (generator/rewrite/functions.h): each
// identity they serve (Good-Thomas, Rader, Bluestein, roots) is checked with to_dense against
// make_dft for many sizes and roots, and bad arguments are refused with a FormulaError.
#include <gtest/gtest.h>

#include <set>

#include "generator/ir/dense.h"
#include "generator/rewrite/functions.h"

namespace splgen::rewrite {
namespace {

constexpr double kTol = 1e-9;

Spl call(const std::string &name, std::vector<int64_t> args) {
  const RuleFunction *f = find_rule_function(name);
  if (!f) throw std::runtime_error("no function " + name);
  return f->make(args);
}

bool is_prime(int64_t p) {
  if (p < 2) return false;
  for (int64_t d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

bool root_ok(int64_t n, int64_t k) { return gcd64(mod64(k, n), n) == 1; }

double error(const Spl &f, const Spl &g) { return max_abs_difference(to_dense(f), to_dense(g)); }

Spl one_plus(const Spl &f) { return make_direct_sum({make_identity(1), f}); }

TEST(RuleFunctions, RegistryNamesDocsAndArity) {
  std::set<std::string> names;
  for (const RuleFunction &f : rule_functions()) {
    EXPECT_TRUE(names.insert(f.name).second) << "duplicate function " << f.name;
    EXPECT_FALSE(f.doc.empty()) << f.name;
    EXPECT_EQ(find_rule_function(f.name), &f);
    std::vector<int64_t> wrong(f.arity + 1, 3);
    EXPECT_THROW(f.make(wrong), FormulaError) << f.name;
  }
  for (const char *name : {"gt_in", "gt_out", "rader_perm", "rader_out", "rader_diag", "chirp", "chirp_fft", "pad",
                           "trunc", "bluestein_pad", "bluestein_trunc", "bluestein_conv", "reverse", "root_perm",
                           "dft_matrix"})
    EXPECT_NE(find_rule_function(name), nullptr) << name;
  EXPECT_EQ(find_rule_function("no_such_function"), nullptr);
}

// DFT(mn, k) = gt_out(m, n) (DFT(m, k) (x) DFT(n, k)) gt_in(m, n), gcd(m, n) = 1.
TEST(RuleFunctions, GoodThomas) {
  int checked = 0;
  for (int64_t m = 1; m <= 13; ++m)
    for (int64_t n = 1; n <= 13; ++n) {
      if (gcd64(m, n) != 1) continue;
      for (int64_t k : {1, -1, 5, 7, 11}) {
        if (!root_ok(m * n, k)) continue;
        Spl f = make_compose({call("gt_out", {m, n}), tensor(make_dft(m, k), make_dft(n, k)), call("gt_in", {m, n})});
        EXPECT_LT(error(f, make_dft(m * n, k)), kTol) << "m=" << m << " n=" << n << " k=" << k;
        ++checked;
      }
    }
  EXPECT_GT(checked, 200);
}

TEST(RuleFunctions, GoodThomasPermutations) {
  Spl in = call("gt_in", {3, 4}), out = call("gt_out", {3, 4});
  ASSERT_EQ(in->kind, SplKind::Perm);
  // x'[l1*4 + l2] = x[(4 l1 + 3 l2) mod 12]
  for (int64_t l1 = 0; l1 < 3; ++l1)
    for (int64_t l2 = 0; l2 < 4; ++l2) EXPECT_EQ(in->perm[std::size_t(l1 * 4 + l2)], (4 * l1 + 3 * l2) % 12);
  ASSERT_EQ(out->kind, SplKind::Perm);
  EXPECT_TRUE(is_identity(call("gt_in", {1, 7})));
  EXPECT_THROW(call("gt_in", {4, 6}), FormulaError);
  EXPECT_THROW(call("gt_out", {2, 2}), FormulaError);
  EXPECT_THROW(call("gt_in", {0, 3}), FormulaError);
}

// DFT(p, k) = W_p' (I(1) (+) DFT(p-1)) E_p(k) (I(1) (+) DFT(p-1)) W_p, p prime.
TEST(RuleFunctions, Rader) {
  int checked = 0;
  for (int64_t p = 2; p <= 101; ++p) {
    if (!is_prime(p)) continue;
    for (int64_t k : {1, -1, 2, 3}) {
      if (!root_ok(p, k)) continue;
      Spl f = make_compose({call("rader_out", {p}), one_plus(make_dft(p - 1)), call("rader_diag", {p, k}),
                            one_plus(make_dft(p - 1)), call("rader_perm", {p})});
      EXPECT_LT(error(f, make_dft(p, k)), kTol) << "p=" << p << " k=" << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 90);
}

TEST(RuleFunctions, RaderPieces) {
  // rader_out is the transpose (inverse) of rader_perm.
  for (int64_t p : {3, 5, 7, 31}) {
    EXPECT_LT(error(call("rader_out", {p}), make_transpose(call("rader_perm", {p}))), kTol);
    EXPECT_LT(max_abs_difference(to_dense(compose(call("rader_out", {p}), call("rader_perm", {p}))),
                                 Matrix::identity(p)),
              kTol);
  }
  // W_7 with the primitive root 3: x'[1+b] = x[3^-b mod 7] = x[1], x[5], x[4], x[6], x[2], x[3].
  Spl w7 = call("rader_perm", {7});
  ASSERT_EQ(w7->kind, SplKind::Perm);
  EXPECT_EQ(w7->perm, (std::vector<int64_t>{0, 1, 5, 4, 6, 2, 3}));
  // E_p: a 2x2 block and a diagonal of p - 2 entries, d_0 = -1/(p-1).
  Spl e = call("rader_diag", {7, 1});
  ASSERT_EQ(e->kind, SplKind::DirectSum);
  ASSERT_EQ(e->children.size(), 2u);
  EXPECT_EQ(e->children[0]->rows, 2);
  EXPECT_EQ(e->children[1]->kind, SplKind::Diag);
  EXPECT_EQ(e->children[1]->rows, 5);
  EXPECT_LT(std::abs(to_dense(e).at(1, 1) - cplx(-1.0 / 6, 0)), 1e-15);
  // p = 2: E_2 is DFT(2) itself.
  EXPECT_LT(error(call("rader_diag", {2, 1}), make_dft(2)), kTol);
  EXPECT_THROW(call("rader_perm", {9}), FormulaError);
  EXPECT_THROW(call("rader_perm", {1}), FormulaError);
  EXPECT_THROW(call("rader_diag", {7, 7}), FormulaError);
  EXPECT_THROW(call("rader_diag", {15, 1}), FormulaError);
}

// DFT(n, k) = chirp (n x M truncation) DFT(M, -1) chirp_fft DFT(M) (M x n padding) chirp.
TEST(RuleFunctions, BluesteinChosenSize) {
  std::vector<int64_t> sizes;
  for (int64_t n = 1; n <= 33; ++n) sizes.push_back(n);
  for (int64_t n : {47, 63, 64, 65}) sizes.push_back(n);
  for (int64_t n : sizes)
    for (int64_t k : {1, -1, 3}) {
      if (!root_ok(n, k)) continue;
      Spl f = make_compose({call("chirp", {n, k}), call("bluestein_trunc", {n}), call("bluestein_conv", {n, k}),
                            call("bluestein_pad", {n}), call("chirp", {n, k})});
      EXPECT_LT(error(f, make_dft(n, k)), kTol) << "n=" << n << " k=" << k;
    }
}

// The expander ranks a rule by the DFT sizes its functions report, building the formula only
// for the rule it picks: every function that reports sizes reports those it builds.
void collect_dfts(const Spl &f, std::multiset<int64_t> &out) {
  if (f->kind == SplKind::DFT) out.insert(f->a);
  for (const Spl &c : f->children) collect_dfts(c, out);
}

TEST(RuleFunctions, ReportedDftSizesAreTheBuiltOnes) {
  int reporting = 0;
  for (const RuleFunction &fn : rule_functions()) {
    if (!fn.dft_sizes) continue;
    ++reporting;
    ASSERT_EQ(fn.arity, 2u) << fn.name;  // (n, k) as @bluestein_conv
    for (int64_t n : {1, 2, 7, 17, 97, 509, 1009})
      for (int64_t k : {1, -1}) {
        std::multiset<int64_t> built, reported;
        collect_dfts(fn.make({n, k}), built);
        for (int64_t m : fn.dft_sizes({n, k})) reported.insert(m);
        EXPECT_EQ(built, reported) << "@" << fn.name << "(" << n << ", " << k << ")";
      }
  }
  EXPECT_GE(reporting, 1);
}

TEST(RuleFunctions, BluesteinExplicitSize) {
  for (int64_t n = 1; n <= 24; ++n)
    for (int64_t M : {2 * n - 1, 2 * n, 3 * n + 1, int64_t(60)}) {
      if (M < 2 * n - 1) continue;
      for (int64_t k : {1, -1}) {
        Spl f = make_compose({call("chirp", {n, k}), call("trunc", {n, M}), make_dft(M, -1), call("chirp_fft", {n, M, k}),
                              make_dft(M), call("pad", {M, n}), call("chirp", {n, k})});
        EXPECT_LT(error(f, make_dft(n, k)), kTol) << "n=" << n << " M=" << M << " k=" << k;
      }
    }
}

TEST(RuleFunctions, BluesteinPieces) {
  // bluestein_conv holds DFT(M, -1) and DFT(M) for the least M >= 2n-1 of the form 2^a,
  // 3 2^a or 5 2^a, or 9, 15, 27, 45, 81 times 2^a >= 16: 10 for n = 5 (2n-1 = 9), 16 for
  // n = 8 (15), 20480 for n = 10007, 20736 = 81 2^8 for 10247 (20493; 24576 before).
  // DFT(M, -1) is written reverse(M) * DFT(M), so that both share one twiddle table.
  Spl c = call("bluestein_conv", {5, 1});
  ASSERT_EQ(c->kind, SplKind::Compose);
  ASSERT_EQ(c->children.size(), 4u);
  EXPECT_TRUE(equal(c->children[0], call("reverse", {10})));
  EXPECT_TRUE(equal(c->children[1], make_dft(10)));
  EXPECT_TRUE(equal(c->children[3], make_dft(10)));
  EXPECT_EQ(call("bluestein_pad", {5})->rows, 10);
  EXPECT_EQ(call("bluestein_pad", {5})->cols, 5);
  EXPECT_EQ(call("bluestein_trunc", {8})->rows, 8);
  EXPECT_EQ(call("bluestein_trunc", {8})->cols, 16);
  EXPECT_EQ(bluestein_size(12), 24);
  EXPECT_EQ(bluestein_size(13), 32);
  EXPECT_EQ(bluestein_size(10007), 20480);
  EXPECT_EQ(bluestein_size(4099), 9216);     // 9 2^10 >= 8197
  EXPECT_EQ(bluestein_size(10247), 20736);   // 81 2^8
  EXPECT_EQ(bluestein_size(11003), 23040);   // 45 2^9 >= 22005
  EXPECT_EQ(bluestein_size(41), 96);         // 81 (and 45 x 2) are odd parts without 2^4: 3 2^5
  EXPECT_EQ(bluestein_size(262139), 524288);
  // pad and trunc are [I; 0] and [I 0].
  for (auto [M, n] : std::vector<std::pair<int64_t, int64_t>>{{8, 3}, {5, 5}, {7, 1}, {16, 9}}) {
    Matrix p = to_dense(call("pad", {M, n})), t = to_dense(call("trunc", {n, M}));
    ASSERT_EQ(p.rows, M);
    ASSERT_EQ(p.cols, n);
    ASSERT_EQ(t.rows, n);
    ASSERT_EQ(t.cols, M);
    for (int64_t r = 0; r < M; ++r)
      for (int64_t col = 0; col < n; ++col) {
        EXPECT_EQ(p.at(r, col), cplx(r == col ? 1.0 : 0.0));
        EXPECT_EQ(t.at(col, r), cplx(r == col ? 1.0 : 0.0));
      }
  }
  // chirp(n, k) = diag(w_2n^(k l^2)).
  Matrix ch = to_dense(call("chirp", {6, 5}));
  for (int64_t l = 0; l < 6; ++l) EXPECT_LT(std::abs(ch.at(l, l) - root_of_unity(12, 5 * l * l)), 1e-15);
  EXPECT_THROW(call("chirp_fft", {5, 8, 1}), FormulaError);  // M < 2n-1
  EXPECT_THROW(call("pad", {3, 5}), FormulaError);
  EXPECT_THROW(call("trunc", {5, 3}), FormulaError);
  EXPECT_THROW(call("chirp", {0, 1}), FormulaError);
  EXPECT_THROW(call("chirp", {6, 2}), FormulaError);  // root not coprime to n
}

TEST(RuleFunctions, RootsAndInverse) {
  for (int64_t n = 1; n <= 24; ++n) {
    EXPECT_LT(error(compose(call("reverse", {n}), make_dft(n)), make_dft(n, -1)), kTol) << n;
    EXPECT_LT(error(compose(make_dft(n), call("reverse", {n})), make_dft(n, -1)), kTol) << n;
    for (int64_t k = -n; k <= 2 * n; ++k) {
      if (!root_ok(n, k)) continue;
      EXPECT_LT(error(compose(call("root_perm", {n, k}), make_dft(n)), make_dft(n, k)), kTol) << n << " " << k;
    }
  }
  EXPECT_THROW(call("root_perm", {8, 2}), FormulaError);
  EXPECT_THROW(call("reverse", {0}), FormulaError);
}

TEST(RuleFunctions, DftMatrix) {
  for (int64_t n = 1; n <= 16; ++n)
    for (int64_t k : {1, -1}) {
      Spl d = call("dft_matrix", {n, k});
      EXPECT_EQ(d->kind, SplKind::Dense);
      EXPECT_LT(error(d, make_dft(n, k)), 1e-15) << n;
    }
  EXPECT_THROW(call("dft_matrix", {4, 2}), FormulaError);
  EXPECT_THROW(call("dft_matrix", {1000, 1}), FormulaError);
}

}  // namespace
}  // namespace splgen::rewrite
