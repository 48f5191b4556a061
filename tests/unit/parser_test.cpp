// Formula parser (generator/parse): round trips parse(print(f)) == f, precedence, error
// messages and positions, robustness on arbitrary input, and the golden files in
// tests/golden/parse (NAME.input -> NAME.expect: the printed formula or the exact error).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "generator/ir/print.h"
#include "generator/ir/spl.h"
#include "generator/parse/formula_parser.h"

namespace splgen {
namespace {

// The error message parse::parse_formula throws for `text`, or "" when it parses.
std::string parse_error(std::string_view text) {
  try {
    parse::parse_formula(text);
  } catch (const parse::ParseError &e) {
    return e.what();
  }
  return "";
}

void expect_round_trip(const Spl &f) {
  const std::string text = print(f);
  Spl g;
  try {
    g = parse::parse_formula(text);
  } catch (const parse::ParseError &e) {
    FAIL() << "printed formula does not parse: " << text << "\n  " << e.what();
  }
  EXPECT_TRUE(equal(f, g)) << "printed: " << text << "\nreparsed: " << print(g);
}

// ---------------------------------------------------------------- round trips of text

TEST(Parser, RoundTripsTextOfEveryNodeKind) {
  const std::vector<std::string> formulas = {
      "DFT(1)",
      "DFT(12)",
      "DFT(8,-1)",
      "DFT(8,3)",
      "DFT(5,2)",
      "I(7)",
      "L(16,4)",
      "L(12,3)",
      "T(16,4)",
      "T(16,4,-1)",
      "T(16,4,3)",
      "T(32,8,5)",
      "Diag(1, -0.5, 0.5+2i, -1i)",
      "Diag(0, 2i, 0.1+0.2i, -3.25-1e-20i, 1e+300, 1e-300i)",
      "Perm(2, 0, 1)",
      "Perm(1, 0)",
      "DFT(4) (x) I(4)",
      "DFT(2) (x) DFT(3) (x) DFT(5)",
      "DFT(4) (+) I(2) (+) L(8,2)",
      "DFT(4) * DFT(4)",
      "(DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) DFT(4)) * L(16,4)",
      "(DFT(2) (+) DFT(2)) (x) I(2)",
      "(DFT(4) * L(4,2)) (x) I(3)",
      "(DFT(2) (x) I(3)) (+) I(2)",
      "((DFT(2) (x) I(3)) (+) I(2)) (x) DFT(2)",
      "(DFT(2) * DFT(2)) (+) DFT(3)",
      "vec(4)[ DFT(8) ]",
      "smp(2,4)[ DFT(8) (x) I(16) ]",
      "par(4,16)[ I(4) (x) DFT(64) ]",
      "stream(4)[ DFT(8) (x) I(16) ]",
      "tiled(8)[ DFT(64) (x) I(64) ]",
      "cubic(4)[ DFT(16) ]",
      "smp(2,4)[ (I(2) (x) stream(4)[ DFT(8) (x) I(16) ]) * L(256,2) ]",
      "(vec(2)[ DFT(2) ] (x) I(2)) * vec(2)[ DFT(4) ]",
      "par(2,8)[ tiled(8)[ cubic(4)[ vec(4)[ DFT(64) ] ] ] ] (+) I(2)",
      // Multi-dimensional DFTs, dense matrices, tile tensors and fences.
      "DFT(3 x 4)",
      "DFT(2 x 3 x 2,-1)",
      "DFT(4 x 4,3)",
      "DFT(1 x 8)",
      "Mat(2,3, [1, 2, 3i, 4, -5, 6])",
      "Mat(1,1, [0.5-2i])",
      "Mat(3,1, [1e-300, -0, 1e+300])",  // inf is an error (issue 18, item 9)
      "I(4) (x)~ DFT(4)",
      "(DFT(2) (x) I(2)) (x)~ DFT(4)",
      "(I(2) (x)~ DFT(2)) (x)~ I(2)",
      "I(2) (x)~ (DFT(2) (x)~ I(2))",
      "(I(2) (x)~ DFT(4)) (x) I(2)",
      "(I(2) (x)~ DFT(2)) (+) DFT(3)",
      "DFT(4) | L(4,2) | DFT(4)",
      "(DFT(4) * L(4,2)) | DFT(4)",
      "(DFT(4) | DFT(4)) * L(4,2)",
      "(DFT(2) | DFT(2)) (x) I(2)",
      "vec(2)[ DFT(4) | (I(2) (x)~ DFT(2)) ] | L(4,2)",
      "Mat(2,3, [1, 2, 3, 4, 5, 6]) * DFT(3 x 1) * Mat(3,2, [1, 0, 0, 1, 1i, -1i])",
  };
  for (const std::string &text : formulas) {
    SCOPED_TRACE(text);
    Spl f;
    ASSERT_NO_THROW(f = parse::parse_formula(text));
    EXPECT_EQ(print(f), text);  // these are written exactly as the printer writes them
    expect_round_trip(f);
  }
}

// print_brief: long lists as "<N entries>", short ones and everything else as print() has them.
TEST(Parser, BriefPrintShortensLongListsOnly) {
  Spl f = make_compose({make_diag(std::vector<cplx>(100, cplx(0.5, 0))), tensor(make_identity(25), make_dft(4))});
  EXPECT_EQ(print_brief(f, 8), "Diag(<100 entries>) * (I(25) (x) DFT(4))");
  EXPECT_EQ(print_brief(make_perm({1, 0, 3, 2}), 4), "Perm(1, 0, 3, 2)");
  EXPECT_EQ(print_brief(make_perm({1, 0, 3, 2}), 3), "Perm(<4 entries>)");
  EXPECT_EQ(print_brief(f, 100), print(f));
  EXPECT_EQ(print_brief(make_dense(2, 3, std::vector<cplx>(6, cplx(1, 0))), 4), "Mat(2,3, [<6 entries>])");
}

TEST(Parser, CooleyTukey) {
  Spl f = parse::parse_formula("(DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) DFT(4)) * L(16,4)");
  Spl g = make_compose({tensor(make_dft(4), make_identity(4)), make_twiddle(16, 4),
                        tensor(make_identity(4), make_dft(4)), make_stride(16, 4)});
  EXPECT_TRUE(equal(f, g));
  EXPECT_EQ(f->kind, SplKind::Compose);
  EXPECT_EQ(f->rows, 16);
  EXPECT_EQ(f->children.size(), 4u);
}

TEST(Parser, NodeFields) {
  Spl dft = parse::parse_formula("DFT(8,-1)");
  EXPECT_EQ(dft->kind, SplKind::DFT);
  EXPECT_EQ(dft->a, 8);
  EXPECT_EQ(dft->b, 7);
  Spl t = parse::parse_formula("T(16,4,-1)");
  EXPECT_EQ(t->kind, SplKind::Twiddle);
  EXPECT_EQ(t->c, 15);
  Spl diag = parse::parse_formula("Diag(1, -0.5, 2i, -1i, 0.5+2i, 0.5-2e-3i, 0.5 + 2i, 0.5 - 2i, +3, -0i)");
  ASSERT_EQ(diag->kind, SplKind::Diag);
  const std::vector<cplx> values = {{1, 0},     {-0.5, 0},     {0, 2},   {0, -1},  {0.5, 2},
                                    {0.5, -2e-3}, {0.5, 2}, {0.5, -2}, {3, 0}, {0, 0}};
  EXPECT_EQ(diag->diag, values);
  Spl perm = parse::parse_formula("Perm(2, 0, 1)");
  EXPECT_EQ(perm->perm, (std::vector<int64_t>{2, 0, 1}));
  Spl tagged = parse::parse_formula("smp(2,4)[ DFT(8) ]");
  ASSERT_EQ(tagged->kind, SplKind::Tagged);
  EXPECT_EQ(tagged->tag.kind, TagKind::Smp);
  EXPECT_EQ(tagged->tag.params, (std::vector<int64_t>{2, 4}));
  EXPECT_TRUE(equal(tagged->children.front(), make_dft(8)));

  Spl nd = parse::parse_formula("DFT(2 x 3 x 4,-1)");
  ASSERT_EQ(nd->kind, SplKind::DFTnd);
  EXPECT_EQ(nd->perm, (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(nd->rows, 24);
  EXPECT_EQ(nd->b, 23);
  EXPECT_TRUE(equal(nd, make_dft_nd({2, 3, 4}, -1)));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(3x4)"), make_dft_nd({3, 4})));
  EXPECT_TRUE(equal(parse::parse_formula("DFT( 3\nx\t4 , 5 )"), make_dft_nd({3, 4}, 5)));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(8)"), make_dft(8)));  // one dimension: the plain DFT

  Spl mat = parse::parse_formula("Mat(2,3, [1, 2, 3i, 4, -5, 6-1i])");
  ASSERT_EQ(mat->kind, SplKind::Dense);
  EXPECT_EQ(mat->rows, 2);
  EXPECT_EQ(mat->cols, 3);
  EXPECT_EQ(mat->diag, (std::vector<cplx>{{1, 0}, {2, 0}, {0, 3}, {4, 0}, {-5, 0}, {6, -1}}));

  Spl tiles = parse::parse_formula("I(4) (x)~ DFT(2)");
  ASSERT_EQ(tiles->kind, SplKind::Tensor);
  EXPECT_TRUE(tiles->marked);
  EXPECT_EQ(tiles->rows, 8);
  EXPECT_TRUE(equal(tiles, make_tile_tensor(make_identity(4), make_dft(2))));
  EXPECT_FALSE(equal(tiles, tensor(make_identity(4), make_dft(2))));  // same matrix, different node

  Spl fence = parse::parse_formula("DFT(4) | L(4,2)");
  ASSERT_EQ(fence->kind, SplKind::Compose);
  EXPECT_TRUE(fence->marked);
  EXPECT_TRUE(equal(fence, make_fence({make_dft(4), make_stride(4, 2)})));
  EXPECT_FALSE(equal(fence, compose(make_dft(4), make_stride(4, 2))));
}

TEST(Parser, Precedence) {
  Spl a = make_dft(2), b = make_identity(2), c = make_dft(4);
  // (x) binds tighter than (+), which binds tighter than *.
  EXPECT_TRUE(equal(parse::parse_formula("DFT(2) (x) I(2) * DFT(4)"), compose(tensor(a, b), c)));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(4) * DFT(2) (x) I(2)"), compose(c, tensor(a, b))));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(2) (+) DFT(2) (x) I(2)"), make_direct_sum({a, tensor(a, b)})));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(2) (x) I(2) (+) DFT(2)"), make_direct_sum({tensor(a, b), a})));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(2) (+) DFT(2) * I(4)"), make_direct_sum({a, a})));
  EXPECT_TRUE(equal(parse::parse_formula("(DFT(2) (+) DFT(2)) (x) I(2)"), tensor(make_direct_sum({a, a}), b)));
  EXPECT_TRUE(equal(parse::parse_formula("DFT(2) (x) (I(2) * DFT(2))"), tensor(a, compose(b, a))));
  // Chains are flat: grouping does not matter.
  EXPECT_TRUE(equal(parse::parse_formula("(DFT(2) (x) DFT(2)) (x) DFT(2)"), parse::parse_formula("DFT(2) (x) (DFT(2) (x) DFT(2))")));
  EXPECT_TRUE(equal(parse::parse_formula("(DFT(4) * DFT(4)) * DFT(4)"), parse::parse_formula("DFT(4) * (DFT(4) * DFT(4))")));
}

// Loosest first: |, *, (+), (x)~, (x), postfix '.
TEST(Parser, PrecedenceOfFencesTilesAndTransposes) {
  Spl a = make_dft(2), b = make_identity(2), c = make_dft(4), l = make_stride(4, 2), l8 = make_stride(8, 2);
  auto parse = [](const char *text) { return parse::parse_formula(text); };
  EXPECT_TRUE(equal(parse("DFT(4) | L(4,2) * DFT(4)"), make_fence({c, compose(l, c)})));
  EXPECT_TRUE(equal(parse("DFT(4) * L(4,2) | DFT(4)"), make_fence({compose(c, l), c})));
  EXPECT_TRUE(equal(parse("DFT(2) (+) DFT(2) | DFT(4)"), make_fence({make_direct_sum({a, a}), c})));
  EXPECT_TRUE(equal(parse("DFT(2) (x)~ I(2) * DFT(4)"), compose(make_tile_tensor(a, b), c)));
  EXPECT_TRUE(equal(parse("DFT(2) (x)~ I(2) (+) DFT(2)"), make_direct_sum({make_tile_tensor(a, b), a})));
  EXPECT_TRUE(equal(parse("DFT(2) (+) DFT(2) (x)~ I(2)"), make_direct_sum({a, make_tile_tensor(a, b)})));
  EXPECT_TRUE(equal(parse("DFT(2) (x) I(2) (x)~ DFT(2)"), make_tile_tensor(tensor(a, b), a)));
  EXPECT_TRUE(equal(parse("DFT(2) (x)~ I(2) (x) DFT(2)"), make_tile_tensor(a, tensor(b, a))));
  EXPECT_TRUE(equal(parse("I(2) (x) L(8,2)'"), tensor(b, make_transpose(l8))));
  EXPECT_TRUE(equal(parse("L(8,2)' * L(8,2)"), compose(make_stride(8, 4), l8)));
  EXPECT_TRUE(equal(parse("(L(8,2) * T(8,2))'"), compose(make_twiddle(8, 2), make_stride(8, 4))));
  EXPECT_TRUE(equal(parse("L(8,2) ' '"), l8));  // primes repeat, whitespace allowed
  EXPECT_TRUE(equal(parse("L(8,2)'''"), make_stride(8, 4)));
  // Fences flatten like compositions, but a fence and a composition do not merge.
  EXPECT_TRUE(equal(parse("(DFT(4) | DFT(4)) | DFT(4)"), parse("DFT(4) | (DFT(4) | DFT(4))")));
  EXPECT_EQ(parse("(DFT(4) | DFT(4)) | DFT(4)")->children.size(), 3u);
  EXPECT_EQ(parse("(DFT(4) * L(4,2)) | DFT(4)")->children.size(), 2u);
  EXPECT_EQ(parse("(DFT(4) | L(4,2)) * DFT(4)")->children.size(), 2u);
  // (x)~ does not flatten: the two nestings are different formulas.
  EXPECT_FALSE(equal(parse("(I(2) (x)~ I(2)) (x)~ DFT(2)"), parse("I(2) (x)~ (I(2) (x)~ DFT(2))")));
}

TEST(Parser, Transposes) {
  EXPECT_EQ(print(parse::parse_formula("L(8,2)'")), "L(8,4)");
  EXPECT_EQ(print(parse::parse_formula("L(16,4)'")), "L(16,4)");
  EXPECT_EQ(print(parse::parse_formula("Perm(1, 2, 0)'")), "Perm(2, 0, 1)");
  EXPECT_EQ(print(parse::parse_formula("DFT(8,3)' (+) DFT(2 x 4)' (+) T(16,4)' (+) Diag(1, 2i)'")),
            "DFT(8,3) (+) DFT(2 x 4) (+) T(16,4) (+) Diag(1, 2i)");
  EXPECT_EQ(print(parse::parse_formula("Mat(2,3, [1, 2, 3i, 4, -5, 6])'")), "Mat(3,2, [1, 4, 2, -5, 3i, 6])");
  EXPECT_EQ(print(parse::parse_formula("(DFT(4) * L(4,2) * Perm(1,2,3,0))'")), "Perm(3, 0, 1, 2) * L(4,2) * DFT(4)");
  EXPECT_EQ(print(parse::parse_formula("(DFT(8) | I(2) (x)~ L(4,2) | L(8,2) (x)~ I(1))'")),
            "(L(8,4) (x)~ I(1)) | (I(2) (x)~ L(4,2)) | DFT(8)");
  EXPECT_EQ(print(parse::parse_formula("(L(4,2) (x)~ L(8,2))'")), "L(4,2) (x)~ L(8,4)");
  EXPECT_EQ(print(parse::parse_formula("vec(2)[ L(8,2) * DFT(8) ]'")), "vec(2)[ DFT(8) * L(8,4) ]");
  EXPECT_EQ(print(parse::parse_formula("(Mat(1,2, [1, 2]) * Mat(2,1, [3, 4]))'")), "Mat(1,2, [3, 4]) * Mat(2,1, [1, 2])");
}

TEST(Parser, WhitespaceIsSkippedEverywhere) {
  Spl f = parse::parse_formula("(DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) DFT(4)) * L(16,4)");
  EXPECT_TRUE(equal(parse::parse_formula(" \t\n( DFT ( 4 ) (x)\tI( 4 ) )\n*\nT( 16 , 4 )*(I(4)(x)DFT(4))*L(16,4)\n\n"), f));
  EXPECT_TRUE(equal(parse::parse_formula("smp ( 2 , 4 ) [\n DFT(8)\n ]"), parse::parse_formula("smp(2,4)[DFT(8)]")));
  EXPECT_TRUE(equal(parse::parse_formula("Diag( 1 ,\n 0.5 +\t2i )"), parse::parse_formula("Diag(1,0.5+2i)")));
}

TEST(Parser, Normalises) {
  EXPECT_EQ(print(parse::parse_formula("I(1) (x) DFT(4)")), "DFT(4)");
  EXPECT_EQ(print(parse::parse_formula("I(2) (x) I(3)")), "I(6)");
  EXPECT_EQ(print(parse::parse_formula("DFT(4) * I(4) * DFT(4)")), "DFT(4) * DFT(4)");
  EXPECT_EQ(print(parse::parse_formula("L(8,1) * L(8,8) * T(8,1) * T(8,8) * T(8,2,8)")), "I(8)");
  EXPECT_EQ(print(parse::parse_formula("Perm(0,1,2) (+) Diag(1,1)")), "I(3) (+) I(2)");
  EXPECT_EQ(print(parse::parse_formula("DFT(8,9)")), "DFT(8)");
  EXPECT_EQ(print(parse::parse_formula("DFT(8,-3)")), "DFT(8,5)");
}

// ---------------------------------------------------------------- random formulas

class RandomFormula {
 public:
  explicit RandomFormula(unsigned seed) : rng_(seed) {}

  // A random formula of size n x n.
  Spl make(int64_t n, int depth) {
    for (;;) {
      switch (pick(depth > 0 ? 16 : 8)) {
        case 0: return dft(n);
        case 1: return make_identity(n);
        case 2: {
          auto d = divisors(n);
          return make_stride(n, d[pick(int(d.size()))]);
        }
        case 3: {
          auto d = divisors(n);
          return make_twiddle(n, d[pick(int(d.size()))], int64_t(pick(int(2 * n + 1))) - n);
        }
        case 4:
          if (n <= 8) return diag(n);
          break;
        case 5:
          if (n <= 16) return perm(n);
          break;
        case 6: return dft_nd(n);
        case 7:
          if (n <= 6) return dense(n, n);
          break;
        case 8: {  // tensor
          auto d = divisors(n);
          int64_t m = d[pick(int(d.size()))];
          if (m == 1 || m == n) break;
          return tensor(make(m, depth - 1), make(n / m, depth - 1));
        }
        case 9: return compose(make(n, depth - 1), make(n, depth - 1));
        case 10: {  // direct sum
          if (n < 2) break;
          int64_t m = 1 + pick(int(n - 1));
          return make_direct_sum({make(m, depth - 1), make(n - m, depth - 1)});
        }
        case 11: {  // tag
          static const TagKind kinds[] = {TagKind::Vec,    TagKind::Smp,   TagKind::Par,
                                          TagKind::Stream, TagKind::Tiled, TagKind::Cubic};
          TagKind kind = kinds[pick(6)];
          std::vector<int64_t> params;
          for (std::size_t i = 0; i < tag_arity(kind); ++i) params.push_back(1 + pick(16));
          return make_tagged(Tag{kind, params}, make(n, depth - 1));
        }
        case 12: {  // tile tensor
          auto d = divisors(n);
          int64_t m = d[pick(int(d.size()))];
          return make_tile_tensor(make(m, depth - 1), make(n / m, depth - 1));
        }
        case 13: {  // fence of 2 or 3 stages
          std::vector<Spl> stages;
          for (int i = 0, k = 2 + pick(2); i < k; ++i) stages.push_back(make(n, depth - 1));
          return make_fence(stages);
        }
        case 14: return make_transpose(make(n, depth - 1));
        case 15: {  // through non-square dense matrices: (n x m) * (m x m) * (m x n)
          if (n > 6) break;
          int64_t m = 1 + pick(4);
          return make_compose({dense(n, m), make(m, depth - 1), dense(m, n)});
        }
      }
    }
  }

 private:
  int pick(int bound) { return std::uniform_int_distribution<int>(0, bound - 1)(rng_); }

  static std::vector<int64_t> divisors(int64_t n) {
    std::vector<int64_t> d;
    for (int64_t i = 1; i <= n; ++i)
      if (n % i == 0) d.push_back(i);
    return d;
  }

  Spl dft(int64_t n) {
    for (;;) {
      int64_t k = int64_t(pick(int(3 * n + 1))) - n;
      if (std::gcd(mod64(k, n), n) == 1) return make_dft(n, k);
    }
  }

  cplx value() {
    auto real = [&]() -> double {
      switch (pick(6)) {
        case 0: return 0.0;
        case 1: return 1.0;
        case 2: return -0.5;
        case 3: return std::uniform_real_distribution<double>(-10, 10)(rng_);
        case 4: return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng_), pick(200) - 100);
        default: return double(pick(7)) - 3;
      }
    };
    return {real(), real()};
  }

  // DFT(n1 x n2 [x n3]) with n1 n2 n3 = n (factors of 1 included).
  Spl dft_nd(int64_t n) {
    std::vector<int64_t> dims;
    int64_t rest = n;
    for (int i = 0, k = 1 + pick(2); i < k; ++i) {
      auto d = divisors(rest);
      dims.push_back(d[pick(int(d.size()))]);
      rest /= dims.back();
    }
    dims.push_back(rest);
    for (;;) {
      int64_t k = int64_t(pick(int(3 * n + 1))) - n;
      if (std::gcd(mod64(k, n), n) == 1) return make_dft_nd(dims, k);
    }
  }

  Spl dense(int64_t rows, int64_t cols) {
    std::vector<cplx> values;
    for (int64_t i = 0; i < rows * cols; ++i) values.push_back(value());
    return make_dense(rows, cols, values);
  }

  Spl diag(int64_t n) {
    std::vector<cplx> values;
    for (int64_t i = 0; i < n; ++i) values.push_back(value());
    return make_diag(values);
  }

  Spl perm(int64_t n) {
    std::vector<int64_t> p(std::size_t(n), 0);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng_);
    return make_perm(p);
  }

  std::mt19937 rng_;
};

TEST(Parser, RoundTripsRandomFormulas) {
  RandomFormula gen(12345);
  const int64_t sizes[] = {1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 24, 32, 36, 64};
  int count = 0;
  for (int round = 0; round < 60; ++round)
    for (int64_t n : sizes) {
      Spl f = gen.make(n, 4);
      SCOPED_TRACE(print(f));
      expect_round_trip(f);
      ++count;
    }
  EXPECT_EQ(count, 60 * 14);
}

// Every node kind the generator makes comes out of it (so the round trips above cover them).
TEST(Parser, RandomFormulasCoverEveryNodeKind) {
  RandomFormula gen(12345);
  std::vector<std::string> seen;
  auto visit = [&](auto &self, const Spl &f) -> void {
    std::string kind = std::to_string(int(f->kind)) + (f->marked ? "~" : "");
    if (std::find(seen.begin(), seen.end(), kind) == seen.end()) seen.push_back(kind);
    for (const Spl &c : f->children) self(self, c);
  };
  for (int round = 0; round < 200; ++round) visit(visit, gen.make(12, 4));
  for (const char *kind : {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "8~", "9~"})
    EXPECT_NE(std::find(seen.begin(), seen.end(), kind), seen.end()) << "kind " << kind;
}

// The postfix transpose: "(f)'" is make_transpose(f), "(f)''" is f again (the transpose is an
// involution on the normal forms, which the parser relies on to count only the parity).
TEST(Parser, TransposedTextOfRandomFormulas) {
  RandomFormula gen(4242);
  const int64_t sizes[] = {1, 2, 4, 6, 8, 12, 16};
  for (int round = 0; round < 40; ++round)
    for (int64_t n : sizes) {
      Spl f = gen.make(n, 3);
      const std::string text = "(" + print(f) + ")";
      SCOPED_TRACE(text);
      Spl t = make_transpose(f);
      EXPECT_TRUE(equal(make_transpose(t), f));
      EXPECT_TRUE(equal(parse::parse_formula(text + "'"), t));
      EXPECT_TRUE(equal(parse::parse_formula(text + "''"), f));
      EXPECT_TRUE(equal(parse::parse_formula(text + "'''"), t));
      expect_round_trip(t);
    }
}

TEST(Parser, RoundTripsFactoryFormulas) {
  const Spl dft4 = make_dft(4);
  const std::vector<Spl> formulas = {
      make_dft(1024, -1),
      make_twiddle(1 << 20, 1 << 10, 12345),
      make_diag({cplx(0.1, 0.2), cplx(-1e-310, 1e308), cplx(1.0 / 3.0, -2.0 / 3.0), cplx(-0.0, 1)}),
      make_tagged(Tag{TagKind::Stream, {4}}, make_tagged(Tag{TagKind::Par, {2, 4}}, tensor(make_identity(8), dft4))),
      make_direct_sum({compose(dft4, make_stride(4, 2)), tensor(make_direct_sum({dft4, dft4}), make_identity(2))}),
      tensor(compose(dft4, dft4), make_direct_sum({make_dft(3), make_identity(1)})),
      make_tagged(Tag{TagKind::Vec, {2}}, make_direct_sum({dft4, make_tagged(Tag{TagKind::Cubic, {2}}, dft4)})),
      make_dft_nd({1024, 1024}, -1),
      make_dft_nd({1, 1}, 1),
      make_dft_nd({4, 1, 4}, 3),
      make_dense(2, 2, {cplx(0.1, 0.2), cplx(-1e-310, 1e308), cplx(1.0 / 3.0, -2.0 / 3.0), cplx(-0.0, 1)}),
      make_tile_tensor(make_tile_tensor(make_identity(2), dft4), make_fence({dft4, make_stride(4, 2)})),
      make_tile_tensor(make_identity(2), make_tile_tensor(dft4, make_identity(1))),
      make_fence({make_fence({dft4, dft4}), compose(dft4, dft4), make_tagged(Tag{TagKind::Tiled, {2}}, dft4)}),
      tensor(make_fence({dft4, dft4}), make_tile_tensor(make_identity(2), make_dft_nd({2, 2}))),
      make_transpose(compose(make_dense(4, 2, std::vector<cplx>(8, cplx(1, -1))),
                             make_dense(2, 4, std::vector<cplx>(8, cplx(2, 0))))),
  };
  for (const Spl &f : formulas) {
    SCOPED_TRACE(print(f));
    expect_round_trip(f);
  }
}

// ---------------------------------------------------------------- errors

TEST(Parser, ErrorMessages) {
  EXPECT_EQ(parse_error("DFT(12"), "1:7: expected ')'");
  EXPECT_EQ(parse_error(""), "1:1: expected a formula");
  EXPECT_EQ(parse_error("DFT(0)"), "1:1: DFT(n): n must be a positive size, got 0");
  EXPECT_EQ(parse_error("DFT(-4)"), "1:1: DFT(n): n must be a positive size, got -4");
  EXPECT_EQ(parse_error("Ix(3)"), "1:1: unknown name 'Ix'");
  EXPECT_EQ(parse_error("vector(4)[DFT(4)]"), "1:1: unknown name 'vector'");
  EXPECT_EQ(parse_error("DFT(4) I(4)"), "1:8: expected end of input");
  EXPECT_EQ(parse_error("DFT(4) * DFT(8)"), "1:10: dimension mismatch in composition: 4x4 times 8x8");
  EXPECT_EQ(parse_error("I(4) (x) DFT(0)"), "1:10: DFT(n): n must be a positive size, got 0");
  EXPECT_EQ(parse_error("DFT(4) * (I(2) (x) smp(1)[DFT(2)])"), "1:20: tag smp takes 2 parameter(s), got 1");
  EXPECT_EQ(parse_error("DFT(4,)"), "1:7: expected an integer");
  EXPECT_EQ(parse_error("DFT(4) *"), "1:9: expected a formula");
  EXPECT_EQ(parse_error("DFT(4) (+)  "), "1:13: expected a formula");
  EXPECT_EQ(parse_error("I(4) (x) (DFT(2)"), "1:17: expected ')'");
  EXPECT_EQ(parse_error("Diag()"), "1:6: expected a complex number");
  EXPECT_EQ(parse_error("Diag(1, 2 i)"), "1:11: expected ')'");
  EXPECT_EQ(parse_error("Perm()"), "1:6: expected an integer");
  EXPECT_EQ(parse_error("T(16)"), "1:5: expected ','");
  EXPECT_EQ(parse_error("T(16,4,1,2)"), "1:9: expected ')'");
  EXPECT_EQ(parse_error("I(2,2)"), "1:4: expected ')'");
  EXPECT_EQ(parse_error("DFT(4)\n\n   * T(8,3)"), "3:6: T(8,3): n must divide N");
  EXPECT_EQ(parse_error("DFT(4)\n  foo"), "2:3: expected end of input");
  EXPECT_EQ(parse_error("DFT(4)\n  * foo"), "2:5: unknown name 'foo'");
  // Multi-dimensional DFTs.
  EXPECT_EQ(parse_error("DFT(3 x)"), "1:8: expected an integer");
  EXPECT_EQ(parse_error("DFT(x 3)"), "1:5: expected an integer");
  EXPECT_EQ(parse_error("DFT(3 x y)"), "1:9: expected an integer");
  EXPECT_EQ(parse_error("DFT(3 (x) 4)"), "1:7: expected ')'");
  EXPECT_EQ(parse_error("DFT(3, 1 x 4)"), "1:10: expected ')'");
  EXPECT_EQ(parse_error("DFT(3 x 0)"), "1:1: DFT(n1 x n2 ...): each dimension must be a positive size, got 0");
  EXPECT_EQ(parse_error("I(2) (x) DFT(2 x 4,2)"),
            "1:10: DFT(.. x 2 x ..,2): the root exponent must be coprime to every dimension");
  EXPECT_EQ(parse_error("DFT(1048576 x 1048576 x 2)"), "1:1: formula size overflows");
  // Dense matrices.
  EXPECT_EQ(parse_error("Mat(2,2, [1,2,3])"), "1:1: Mat(2,2) needs 4 entries, got 3");
  EXPECT_EQ(parse_error("DFT(2) (x) Mat(2,2, [1, 2, 3])"), "1:12: Mat(2,2) needs 4 entries, got 3");
  EXPECT_EQ(parse_error("Mat(0,2, [1])"), "1:1: Mat: rows must be a positive size, got 0");
  EXPECT_EQ(parse_error("Mat(2, [1, 2])"), "1:8: expected an integer");
  EXPECT_EQ(parse_error("Mat(1,2 [1, 2])"), "1:9: expected ','");
  EXPECT_EQ(parse_error("Mat(1,2, 1, 2)"), "1:10: expected '['");
  EXPECT_EQ(parse_error("Mat(1,2, [])"), "1:11: expected a complex number");
  EXPECT_EQ(parse_error("Mat(1,2, [1, 2)"), "1:15: expected ']'");
  EXPECT_EQ(parse_error("Mat(1,2, [1, 2]"), "1:16: expected ')'");
  EXPECT_EQ(parse_error("Mat(2,2, [1, 2, 3, 4]) * DFT(4)"), "1:26: dimension mismatch in composition: 2x2 times 4x4");
  // Tile tensors, fences, transposes.
  EXPECT_EQ(parse_error("I(2) (x)~ I(2) (x)~ DFT(2)"),
            "1:16: '(x)~' does not chain: write (A (x)~ B) (x)~ C or A (x)~ (B (x)~ C)");
  EXPECT_EQ(parse_error("DFT(4) (x)~"), "1:12: expected a formula");
  EXPECT_EQ(parse_error("DFT(4) (x) ~ I(2)"), "1:12: expected a formula");
  EXPECT_EQ(parse_error("DFT(4) (x)~~ I(2)"), "1:12: expected a formula");
  EXPECT_EQ(parse_error("DFT(4) | DFT(8)"), "1:10: dimension mismatch across '|': 4x4 then 8x8");
  EXPECT_EQ(parse_error("DFT(4) | L(4,2) * DFT(8)"), "1:19: dimension mismatch in composition: 4x4 times 8x8");
  EXPECT_EQ(parse_error("DFT(4) |"), "1:9: expected a formula");
  EXPECT_EQ(parse_error("DFT(4) || DFT(4)"), "1:9: expected a formula");
  EXPECT_EQ(parse_error("'DFT(4)"), "1:1: expected a formula");
  EXPECT_EQ(parse_error("DFT(4) (x) 'I(2)"), "1:12: expected a formula");
  EXPECT_EQ(parse_error("DFT(4)' * L(8,2)'"), "1:11: dimension mismatch in composition: 4x4 times 8x8");
}

// Sizes written b^e: computed in at most 63 steps whatever e is, refused (at the number)
// beyond 2^62; found by tests/fuzz/formula_parser_fuzz.cpp (an overflow, a loop of 2^63 steps).
TEST(Parser, PowersAsSizes) {
  EXPECT_EQ(print(parse::parse_formula("DFT(2^10)")), "DFT(1024)");
  EXPECT_EQ(print(parse::parse_formula("I(3^0) (x) I(1^9223372036854775807)")), "I(1)");
  EXPECT_EQ(parse_error("DFT(4^284)"), "1:5: expected an integer");
  EXPECT_EQ(parse_error("DFT(2^63)"), "1:5: expected an integer");
  EXPECT_EQ(parse_error("DFT(2^-1)"), "1:5: expected an integer");
  EXPECT_EQ(parse_error("DFT(-9223372036854775808^2)"), "1:5: expected an integer");
  EXPECT_EQ(parse_error("DFT(2^62)"), "1:1: DFT(n): n is too large: 4611686018427387904");
  EXPECT_EQ(parse_error("DFT(0^9223372036854775807)"), "1:1: DFT(n): n must be a positive size, got 0");
  EXPECT_EQ(parse_error("DFT(-1^9223372036854775807)"), "1:1: DFT(n): n must be a positive size, got -1");
}

TEST(Parser, ErrorPositionFields) {
  try {
    parse::parse_formula("(DFT(4) (x) I(4))\n  * T(16 4)");
    FAIL() << "no error";
  } catch (const parse::ParseError &e) {
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 10);
    EXPECT_STREQ(e.what(), "2:10: expected ','");
  }
}

TEST(Parser, DeepNestingIsRefusedNotACrash) {
  const std::string ok = std::string(150, '(') + "DFT(2)" + std::string(150, ')');
  EXPECT_EQ(print(parse::parse_formula(ok)), "DFT(2)");
  std::string tags;
  for (int i = 0; i < 60; ++i) tags += "vec(2)[";
  tags += "DFT(2)" + std::string(60, ']');
  EXPECT_NO_THROW(parse::parse_formula(tags));
  const std::string deep = std::string(100000, '(') + "DFT(2)" + std::string(100000, ')');
  EXPECT_EQ(parse_error(deep), "1:201: formula nested too deeply (more than 200 brackets)");
  std::string deep_tags;
  for (int i = 0; i < 100000; ++i) deep_tags += "vec(2)[";
  EXPECT_NE(parse_error(deep_tags).find("nested too deeply"), std::string::npos);
}

TEST(Parser, LongChainsAreFast) {
  std::string sum = "DFT(2)", tensor_chain = "DFT(2)", chain = "DFT(4)";
  for (int i = 1; i < 20000; ++i) {
    sum += " (+) DFT(2)";
    chain += " * DFT(4)";
  }
  for (int i = 1; i < 30; ++i) tensor_chain += " (x) DFT(2)";
  Spl s = parse::parse_formula(sum);
  EXPECT_EQ(s->rows, 40000);
  EXPECT_EQ(s->children.size(), 20000u);
  EXPECT_EQ(parse::parse_formula(chain)->children.size(), 20000u);
  EXPECT_EQ(parse::parse_formula(tensor_chain)->rows, int64_t(1) << 30);
  std::vector<int64_t> big(100000);
  std::iota(big.rbegin(), big.rend(), 0);
  expect_round_trip(make_perm(big));

  std::string fence = "DFT(4)", primes = "Perm(1, 2, 0)";
  for (int i = 1; i < 20000; ++i) fence += " | DFT(4)";
  primes += std::string(100001, '\'');
  EXPECT_EQ(parse::parse_formula(fence)->children.size(), 20000u);
  EXPECT_EQ(print(parse::parse_formula(primes)), "Perm(2, 0, 1)");
  std::vector<cplx> entries(300 * 300, cplx(0.5, -0.25));
  expect_round_trip(make_dense(300, 300, entries));
  expect_round_trip(make_dft_nd(std::vector<int64_t>(40, 2), -1));
}

// "LINE:COL: message" with a non-empty message.
bool has_error_format(const std::string &what) {
  std::size_t i = 0;
  for (int field = 0; field < 2; ++field) {
    std::size_t digits = 0;
    while (i < what.size() && std::isdigit(static_cast<unsigned char>(what[i]))) ++i, ++digits;
    if (digits == 0 || i >= what.size() || what[i] != ':') return false;
    ++i;
  }
  return what.size() > i + 1 && what[i] == ' ' && what[i + 1] != ' ';
}

// Arbitrary input either parses or throws parse::ParseError "LINE:COL: message"; nothing else.
TEST(Parser, NeverCrashesOnArbitraryInput) {
  const std::vector<std::string> pieces = {
      "DFT", "I",   "L",    "T",   "Diag", "Perm", "vec", "smp", "par", "stream", "tiled", "cubic", "(",
      ")",   "[",   "]",    ",",   "*",    "(x)",  "(+)", "x",   "+",   "-",      "i",     "0",     "1",
      "4",   "16",  "-1",   "0.5", "2e3",  "inf",  "nan", " ",   "\n",  "\t",     "#",     "é",     std::string(1, '\0'),
      "99999999999999999999", "1e999", "_a", "Ix", ".", "e", "'", "|", "(x)~", "~", "Mat", "x", " x ", "3 x 4",
      "Mat(2,2, [", "DFT(2 x "};
  std::mt19937 rng(7);
  auto check = [&](const std::string &text) {
    try {
      Spl f = parse::parse_formula(text);
      expect_round_trip(f);
    } catch (const parse::ParseError &e) {
      EXPECT_TRUE(has_error_format(e.what())) << e.what();
      EXPECT_GE(e.line, 1);
      EXPECT_GE(e.column, 1);
    } catch (...) {
      ADD_FAILURE() << "non-parse::ParseError exception for input: " << text;
    }
  };
  // Random token soups.
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    int n = std::uniform_int_distribution<int>(0, 20)(rng);
    for (int i = 0; i < n; ++i) text += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(rng)];
    check(text);
  }
  // Random bytes.
  for (int round = 0; round < 1000; ++round) {
    std::string text(std::uniform_int_distribution<std::size_t>(0, 30)(rng), '\0');
    for (char &c : text) c = char(std::uniform_int_distribution<int>(0, 255)(rng));
    check(text);
  }
  // Mutations of valid formulas: delete, insert or replace one character.
  RandomFormula gen(99);
  for (int round = 0; round < 1500; ++round) {
    std::string text = print(gen.make(16, 3));
    std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
    const std::string &piece = pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(rng)];
    switch (round % 3) {
      case 0: text.erase(at, 1); break;
      case 1: text.insert(at, piece); break;
      default: text.replace(at, 1, piece); break;
    }
    check(text);
  }
}

// ---------------------------------------------------------------- golden files

std::string read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::filesystem::path golden_dir() { return std::filesystem::path(SPLGEN_TEST_DIR) / "golden" / "parse"; }

std::vector<std::string> golden_cases() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(golden_dir(), ec))
    if (entry.path().extension() == ".input") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class ParserGolden : public testing::TestWithParam<std::string> {};

// NAME.input holds a formula (one trailing newline is not part of it); NAME.expect holds
// one line: the printed, normalised formula, or the exact error message.
TEST_P(ParserGolden, Matches) {
  const std::filesystem::path dir = golden_dir();
  std::string input = read_file(dir / (GetParam() + ".input"));
  if (!input.empty() && input.back() == '\n') input.pop_back();
  ASSERT_TRUE(std::filesystem::exists(dir / (GetParam() + ".expect"))) << "missing " << GetParam() << ".expect";
  std::string expect = read_file(dir / (GetParam() + ".expect"));
  while (!expect.empty() && (expect.back() == '\n' || expect.back() == '\r')) expect.pop_back();

  std::string actual;
  try {
    Spl f = parse::parse_formula(input);
    actual = print(f);
    expect_round_trip(f);
  } catch (const parse::ParseError &e) {
    actual = e.what();
  }
  EXPECT_EQ(actual, expect) << "input: " << input;
}

TEST(ParserGoldenFiles, Present) { EXPECT_GE(golden_cases().size(), 20u) << golden_dir(); }

std::string golden_test_name(const testing::TestParamInfo<std::string> &info) {
  std::string name = info.param;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, ParserGolden, testing::ValuesIn(golden_cases()), golden_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParserGolden);

}  // namespace
}  // namespace splgen
