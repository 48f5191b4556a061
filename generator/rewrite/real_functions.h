// The blocks of the real DFT rules (rules/rdft.rules; docs/transforms.md), called from rule
// files as @name(args) and listed with the other functions (functions.cpp). Each returns SPL
// built with the factories; the real-linear 1x1, 1x2, 2x1 and 2x2 blocks are WMat nodes.
#pragma once
#include <cstdint>
#include <vector>

#include "generator/rewrite/functions.h"

namespace splgen::rewrite {

// The entries for functions.cpp's list.
std::vector<RuleFunction> real_rule_functions();

}  // namespace splgen::rewrite
