// The final tiled and cubic algorithms of seed 001 ((17) and (18)) are derived by the engine
// from the tagged transforms with the stage rules (6)-(8) and (11)-(13), and agree with the
// shipped statements of the final algorithms.
#include <gtest/gtest.h>

#include "generator/expand/expand.h"
#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/parse/formula_parser.h"

namespace splgen {
namespace {

std::vector<const rules::Rule *> named(const std::vector<std::string> &names) {
  std::vector<const rules::Rule *> out;
  for (const std::string &n : names) {
    const rules::Rule *r = shipped_rules().find(n);
    EXPECT_NE(r, nullptr) << n;
    if (r) out.push_back(r);
  }
  return out;
}

void expect_derivation(const std::string &spec, const std::vector<std::string> &stage_rules, const std::string &final_rule) {
  SCOPED_TRACE(spec);
  Spl f = parse_formula(spec);
  Spl derived = rules::rewrite_to_fixpoint(f, named(stage_rules));
  const rules::Rule *final = shipped_rules().find(final_rule);
  ASSERT_NE(final, nullptr);
  std::vector<rules::Match> m = rules::matches(*final, f);
  ASSERT_FALSE(m.empty());
  Spl stated = rules::instantiate_spl(final->rhs, m.front());
  EXPECT_TRUE(equal(derived, stated)) << "derived: " << print(derived) << "\nstated:  " << print(stated);
  Spl untagged = parse_formula(spec.substr(spec.find('[') + 1, spec.rfind(']') - spec.find('[') - 1));
  EXPECT_LT(max_abs_difference(to_dense(derived), to_dense(untagged)), 1e-9);
}

TEST(Derivation, Tiled2D) {
  expect_derivation("tiled(4)[ DFT(16 x 16) ]", {"dft_2d_rc", "tiled_fence", "tiled_a_tensor_i", "tiled_i_tensor_a"},
                    "tiled_dft_2d");
}

TEST(Derivation, Cubic3D) {
  expect_derivation("cubic(2)[ DFT(4 x 4 x 4) ]",
                    {"dft_3d", "cubic_fence", "cubic_a_tensor_i_i", "cubic_i_tensor_a_tensor_i", "cubic_i_i_tensor_a"},
                    "cubic_dft_3d");
}

}  // namespace
}  // namespace splgen
