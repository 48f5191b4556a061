// Prints SPL formulas in the formula language (docs/formula-language.md);
// parse(print(f)) == f for every formula.
#pragma once
#include <string>

#include "generator/ir/spl.h"

namespace splgen {

std::string print(const Spl &f);
// print() with every list of more than max_list entries (a Diag's, a Perm's, a Dense matrix's)
// as "<N entries>": for header comments and summaries, where DFT(262139)'s Rader tables were
// 55 MB of its 98 MB source. Not parseable.
std::string print_brief(const Spl &f, std::size_t max_list = 64);
std::string print_complex(cplx v);  // "1", "-0.5", "0.5+2i", "-1i"

}  // namespace splgen
