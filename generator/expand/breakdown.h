// The terminal breakdown rules, as records {name, applicable, choices, apply} in SPIRAL's
// style: the node becomes a leaf the backend implements directly (an unrolled codelet or a
// direct loop). The rules with children are data, in rules/dft.rules.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::expand {

struct BreakdownChoice {
  std::string label;          // "32 x 32"
  std::vector<Spl> children;  // non-terminals still to expand
};

struct BreakdownRule {
  std::string name;
  std::function<bool(const Spl &)> applicable;
  std::function<std::vector<BreakdownChoice>(const Spl &)> choices;
  // The formula for one choice, given the expansions of its children (in order).
  std::function<Spl(const Spl &, const BreakdownChoice &, const std::vector<Spl> &)> apply;
};

const std::vector<BreakdownRule> &dft_breakdown_rules();
const BreakdownRule &find_breakdown_rule(const std::string &name);

// Tuning knobs for the default (model-free) choice, in one place (genfft style).
struct ExpansionKnobs {
  static constexpr int64_t kCodeletMax = splgen::kCodeletMax;  // ir/spl.h: the lowering needs it too
  // On vector targets a spec up to kCodeletMax points stays one codelet, printed with one
  // vector per complex value (backends/cpp/complex_codelet.h), except the multiples of this
  // above it, which fill vector loops of a split (generator/driver/pipeline.cpp, default_expand_options).
  static constexpr int64_t kVectorSpecSplitMultiple = 8;
};
int64_t largest_prime_factor(int64_t n);
// Whether a sub-problem DFT(child) of DFT(n) comes before it in the order (largest prime
// factor, size) that every expansion and search descends, so that both terminate: smaller
// sizes (Cooley-Tukey, Rader's p - 1), or larger ones with smaller prime factors (Bluestein's
// M, 5-smooth (rewrite::bluestein_size), for n with a prime factor above 5).
bool is_smaller_problem(int64_t child, int64_t n);

}  // namespace splgen::expand
