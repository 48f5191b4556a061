// The blocks of the DCT-IV rule (rules/trig.rules; docs/transforms.md), called from rule files
// as @name(args) and listed with the other functions (functions.cpp).
#pragma once
#include <vector>

#include "generator/rewrite/functions.h"

namespace splgen::rewrite {

// The entries for functions.cpp's list.
std::vector<RuleFunction> trig_rule_functions();

}  // namespace splgen::rewrite
