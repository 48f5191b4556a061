// The final tiled and cubic algorithms of seed 001 ((17), (18) and (19)) are derived by the
// engine from the tagged transforms with the stage rules (6)-(10) and (11)-(13), and agree
// with the shipped statements of the final algorithms.
#include <gtest/gtest.h>

#include "generator/expand/expand.h"
#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/parse/formula_parser.h"

namespace splgen {
namespace {

std::vector<const Rule *> named(const std::vector<std::string> &names) {
  std::vector<const Rule *> out;
  for (const std::string &n : names) {
    const Rule *r = expand::shipped_rules().find(n);
    EXPECT_NE(r, nullptr) << n;
    if (r) out.push_back(r);
  }
  return out;
}

void expect_derivation(const std::string &spec, const std::vector<std::string> &stage_rules, const std::string &final_rule) {
  SCOPED_TRACE(spec);
  Spl f = parse::parse_formula(spec);
  Spl derived = rewrite::rewrite_to_fixpoint(f, named(stage_rules));
  const Rule *final = expand::shipped_rules().find(final_rule);
  ASSERT_NE(final, nullptr);
  std::vector<rewrite::Match> m = rewrite::matches(*final, f);
  ASSERT_FALSE(m.empty());
  Spl stated = rewrite::instantiate_spl(final->rhs, m.front());
  EXPECT_TRUE(equal(derived, stated)) << "derived: " << print(derived) << "\nstated:  " << print(stated);
  Spl untagged = parse::parse_formula(spec.substr(spec.find('[') + 1, spec.rfind(']') - spec.find('[') - 1));
  EXPECT_LT(max_abs_difference(to_dense(derived), to_dense(untagged)), 1e-9);
}

TEST(Derivation, Tiled2D) {
  expect_derivation("tiled(4)[ DFT(16 x 16) ]", {"dft_2d_rc", "tiled_fence", "tiled_a_tensor_i", "tiled_i_tensor_a"},
                    "tiled_dft_2d");
}

// Tiled 1D (19) from scratch: the expander splits the DFT directly under tiled(k) n x n
// (k | n) by Cooley-Tukey, then the stage rules make the two tiled stages.
const std::vector<std::string> kTiled1dStages = {"tiled_twiddle_i_tensor_a_stride", "tiled_fence", "tiled_a_tensor_i"};

TEST(Derivation, Tiled1D) {
  Spl spec = parse::parse_formula("tiled(4)[ DFT(256) ]");
  expand::Expansion e = expand::expand(spec);
  ASSERT_EQ(e.trees.size(), 1u);
  EXPECT_EQ(e.trees[0]->rule, "dft_ct_dit");
  EXPECT_EQ(e.trees[0]->choice, "k=1, m=16, n=16");
  Spl derived = rewrite::rewrite_to_fixpoint(e.formula, named(kTiled1dStages));
  // Structurally the shipped statement of (19) ...
  const Rule *final = expand::shipped_rules().find("tiled_dft_1d");
  ASSERT_NE(final, nullptr);
  std::vector<rewrite::Match> m = rewrite::matches(*final, spec);
  ASSERT_FALSE(m.empty());
  Spl stated = rewrite::instantiate_spl(final->rhs, m.front());
  EXPECT_TRUE(equal(derived, stated)) << "derived: " << print(derived) << "\nstated:  " << print(stated);
  // ... and the DFT as a matrix: two stages, each ending in memory transfers of whole tiles.
  EXPECT_LT(max_abs_difference(to_dense(derived), to_dense(make_dft(256))), 1e-9);
  ASSERT_EQ(derived->kind, SplKind::Compose);
  EXPECT_TRUE(derived->marked) << print(derived);  // a fence between the stages
  EXPECT_EQ(derived->children.size(), 2u);
  // Without the tag the expander keeps its own choice for 256 points too (balanced), but
  // for 4096 it would take radix 32; under tiled(8) it takes 64 x 64, and the derivation
  // still gives (19), with the 64-point DFTs expanded (the stage form of (19)).
  EXPECT_EQ(expand::expand(parse::parse_formula("DFT(4096)")).trees[0]->choice, "k=1, m=32, n=128");
  expand::Expansion big = expand::expand(parse::parse_formula("tiled(8)[ DFT(4096) ]"));
  EXPECT_EQ(big.trees[0]->choice, "k=1, m=64, n=64");
  Spl big_derived = rewrite::rewrite_to_fixpoint(big.formula, named(kTiled1dStages));
  const Rule *stages = expand::shipped_rules().find("tiled_1d_stages");
  ASSERT_NE(stages, nullptr);
  std::vector<rewrite::Match> sm = rewrite::matches(*stages, big.formula);
  ASSERT_FALSE(sm.empty());
  EXPECT_TRUE(equal(big_derived, rewrite::instantiate_spl(stages->rhs, sm.front()))) << print(big_derived);
  // A tile size that divides no balanced split leaves the default choice.
  EXPECT_EQ(expand::expand(parse::parse_formula("tiled(3)[ DFT(4096) ]")).trees[0]->choice, "k=1, m=32, n=128");
}

TEST(Derivation, Cubic3D) {
  expect_derivation("cubic(2)[ DFT(4 x 4 x 4) ]",
                    {"dft_3d", "cubic_fence", "cubic_a_tensor_i_i", "cubic_i_tensor_a_tensor_i", "cubic_i_i_tensor_a"},
                    "cubic_dft_3d");
}

}  // namespace
}  // namespace splgen
