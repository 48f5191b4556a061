// Index tables the kernel does without: Bluestein's reversal r -> (M - r) mod M becomes an
// index expression (generator/ir/index_fn.h, IndexFnNode::reversal), and Rader's permutations
// above 4096 entries are recognised as powers of a root mod p (backends/cpp/computed_lut.h),
// which the kernel computes on first use (tests/kernels/large_prime_kernel_test.cpp compiles
// them: ComputedLutEqualsPrinted).
#include <gtest/gtest.h>

#include <numeric>

#include "backends/cpp/computed_lut.h"
#include "generator/ir/index_fn.h"
#include "generator/rewrite/functions.h"

namespace splgen {
namespace {

std::vector<int64_t> perm_of(const std::string &fn, std::vector<int64_t> args) {
  return rewrite::find_rule_function(fn)->make(args)->perm;
}

// The reversal's index, at every point and through a loop variable: what the table says.
TEST(ReversalIndex, EqualsTheTable) {
  for (int64_t M : {3, 12, 20480}) {
    std::vector<int64_t> t = perm_of("reverse", {M});
    IndexFn f = fn_table(t);
    ASSERT_TRUE(f->reversal) << M;
    LoopVar r{7, M};
    Idx at = apply_index(f, idx_affine(Affine::var(r)));
    EXPECT_NE(at->kind, IdxKind::Lookup) << M;
    Env env;
    for (int64_t i = 0; i < M; ++i) {
      env[r.id] = i;
      ASSERT_EQ(eval(at, env), t[std::size_t(i)]) << "M = " << M << ", r = " << i;
      ASSERT_EQ(eval(f, i, env), t[std::size_t(i)]);
    }
  }
}

// Away from r = 0 the reversal is affine (M - r): vector lanes 1.. of a loop, or a truncation
// that starts at 1, need no modulo.
TEST(ReversalIndex, AffineAwayFromZero) {
  const int64_t M = 1024;
  LoopVar i{3, M / 4};
  Idx lane1 = apply_index(fn_table(perm_of("reverse", {M})), idx_affine(Affine::var(i, 4) + 1));
  ASSERT_NE(as_affine(lane1), nullptr);
  EXPECT_EQ(as_affine(lane1)->c0, M - 1);
}

// Other tables stay lookups: a rotation, root_perm(n, k) for k != -1, a reversal with an error.
TEST(ReversalIndex, OnlyTheReversal) {
  std::vector<int64_t> rotation(16);
  std::iota(rotation.begin(), rotation.end(), 0);
  std::rotate(rotation.begin(), rotation.begin() + 1, rotation.end());
  std::vector<int64_t> broken = perm_of("reverse", {16});
  std::swap(broken[3], broken[4]);
  for (const auto &t : {rotation, perm_of("root_perm", {16, 3}), broken, perm_of("reverse", {16})}) {
    IndexFn f = fn_table(t);
    Idx at = apply_index(f, idx_affine(Affine::var(LoopVar{1, 16})));
    EXPECT_EQ(at->kind == IdxKind::Lookup, !f->reversal);
  }
  EXPECT_FALSE(fn_table(broken)->reversal);
  EXPECT_TRUE(fn_table(perm_of("reverse", {16}))->reversal);
}

// root_perm(n, k), built by additions: r -> k r mod n (k = 1 mod n is the identity, I(n)).
TEST(ReversalIndex, RootPermIsKTimesRModN) {
  for (int64_t n : {16, 97, 20480})
    for (int64_t k : {int64_t(-1), int64_t(3), int64_t(-7), n - 1, n + 3}) {
      if (std::gcd(k < 0 ? -k : k, n) != 1) continue;
      std::vector<int64_t> t = perm_of("root_perm", {n, k});
      ASSERT_EQ(int64_t(t.size()), n);
      for (int64_t r = 0; r < n; ++r)
        ASSERT_EQ(t[std::size_t(r)], (((k % n + n) % n) * r) % n) << "n = " << n << ", k = " << k << ", r = " << r;
    }
}

// eval_each (the in-place checks' footprints) is eval() at every point, through h, q, strides,
// tables and compositions whose bases use loop variables.
TEST(EvalEach, EqualsEval) {
  const LoopVar j{4, 3}, k{5, 2};
  const Affine base = Affine::var(j, 8) + Affine::var(k, 2) + 1;
  const std::vector<IndexFn> fns = {
      fn_h(8, 64, base, 3),
      fn_q(8, 256, base, 5, 4),
      compose(fn_stride(64, 8), fn_h(16, 64, base, 2)),
      compose(fn_table(perm_of("reverse", {64})), fn_h(8, 64, base, 1)),
      compose(fn_h(32, 640, Affine::var(k, 7), 9), fn_q(32, 32, Affine::var(j, 1), 2, 4)),
  };
  for (const IndexFn &f : fns)
    for (int64_t jv = 0; jv < j.extent; ++jv)
      for (int64_t kv = 0; kv < k.extent; ++kv) {
        const Env env = {{j.id, jv}, {k.id, kv}};
        std::vector<int64_t> points(std::size_t(f->domain));
        std::iota(points.begin(), points.end(), int64_t(0));
        eval_each(f, points, env);
        for (int64_t i = 0; i < f->domain; ++i) ASSERT_EQ(points[std::size_t(i)], eval(f, i, env)) << to_string(f) << " at " << i;
      }
}

// Rader's input permutation (powers of g^-1) and its inverse (the output's) are PowerLuts;
// a table with two entries swapped, or a rotation, is not.
TEST(PowerLut, RecognisesRadersPermutations) {
  for (int64_t p : {5, 4099, 65537}) {
    std::vector<int64_t> in = perm_of("rader_perm", {p}), out = perm_of("rader_out", {p});
    std::optional<backends::PowerLut> a = backends::power_lut(in), b = backends::power_lut(out);
    ASSERT_TRUE(a && b) << p;
    EXPECT_EQ(a->p, p);
    EXPECT_FALSE(a->inverse);
    EXPECT_TRUE(b->inverse);
    EXPECT_EQ(a->r, b->r);  // one root: out is in's inverse
    EXPECT_EQ(a->r, in[2]);
    // two entries swapped: at the start, or at the end (t[0], t[1] and the root still right)
    for (auto [i, j] : {std::pair{std::size_t(1), std::size_t(2)}, std::pair{in.size() - 2, in.size() - 1}}) {
      std::vector<int64_t> broken = in, broken_out = out;
      std::swap(broken[i], broken[j]);
      std::swap(broken_out[i], broken_out[j]);
      EXPECT_FALSE(backends::power_lut(broken)) << p << " " << i << " " << j;
      EXPECT_FALSE(backends::power_lut(broken_out)) << p << " " << i << " " << j;
    }
  }
  std::vector<int64_t> rotation(4099);
  std::iota(rotation.begin(), rotation.end(), 0);
  std::rotate(rotation.begin() + 1, rotation.begin() + 2, rotation.end());
  EXPECT_FALSE(backends::power_lut(rotation));
}

// Computed only above 4096 entries, as the twiddle and diagonal tables.
TEST(PowerLut, ComputedAboveTheBound) {
  EXPECT_FALSE(backends::computed_lut(perm_of("rader_perm", {4093})));
  EXPECT_TRUE(backends::computed_lut(perm_of("rader_perm", {4099})));
  EXPECT_TRUE(backends::computed_lut(perm_of("rader_out", {4099})));
}

}  // namespace
}  // namespace splgen
