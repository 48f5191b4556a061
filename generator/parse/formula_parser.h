// Parses formula text (docs/formula-language.md) into an SPL formula.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include "generator/ir/spl.h"

namespace splgen::parse {

// "LINE:COL: message", e.g. "1:7: expected ')'". Semantic errors from the make_*() factories
// (e.g. "DFT(n): n must be a positive size, got 0") are reported at the offending node.
struct ParseError : std::runtime_error {
  int line, column;
  ParseError(int line_, int column_, const std::string &message);
};

Spl parse_formula(std::string_view text);

}  // namespace splgen::parse
