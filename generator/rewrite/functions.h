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
};

const std::vector<RuleFunction> &rule_functions();
const RuleFunction *find_rule_function(const std::string &name);

}  // namespace splgen::rewrite
