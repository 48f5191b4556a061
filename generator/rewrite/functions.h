// C++ functions that rule files call as @name(args): formulas that need code, such as
// Rader's generator permutation, Good-Thomas's CRT permutations or Bluestein's chirp.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::rewrite {

struct RuleFunction {
  std::string name;
  std::size_t arity;
  std::string doc;  // one line: what it returns, with its source
  std::function<Spl(const std::vector<int64_t> &)> make;  // throws FormulaError on bad arguments
  // Set where its formula holds DFT non-terminals (Bluestein's convolution): their sizes for
  // these arguments, so that the expander ranks the rule without building the formula (the
  // chirp's long-double DFT of M points took 12 s of gen "DFT(786432)", never to be used).
  std::function<std::vector<int64_t>(const std::vector<int64_t> &)> dft_sizes;
};

const std::vector<RuleFunction> &rule_functions();
// The convolution size M >= 2n-1 that @bluestein_conv(n, k) uses.
int64_t bluestein_size(int64_t n);
const RuleFunction *find_rule_function(const std::string &name);

}  // namespace splgen::rewrite
