// Prints SPL formulas in the formula language (docs/formula-language.md);
// parse(print(f)) == f for every formula.
#pragma once
#include <string>

#include "generator/ir/spl.h"

namespace splgen {

std::string print(const Spl &f);
std::string print_complex(cplx v);  // "1", "-0.5", "0.5+2i", "-1i"

}  // namespace splgen
