// Parses rule files (docs/rule-language.md) with Boost.Spirit X3
// (generator/parse/rule_ast.h, rule_grammar*.h). Errors: RuleSyntaxError, "FILE:LINE:COL: message".
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include "generator/ir/rule.h"

namespace splgen::parse {

struct RuleSyntaxError : std::runtime_error {
  SourcePos pos;
  RuleSyntaxError(SourcePos p, const std::string &message);  // what(): "file:line:col: message"
};

RuleFile parse_rule_file(std::string_view text, const std::string &path);
RuleFile load_rule_file(const std::string &path);  // reads the file; a missing file is a RuleSyntaxError at 0:0
// One rule or pattern given on the command line, e.g. the spec of `splgen rewrite`, is an
// ordinary formula and goes through parse_formula; this parses a single rule text:
Rule parse_rule(std::string_view text, const std::string &path = "<command line>");

// A canonical, line-based dump of everything parsed (names, families, comments, every term
// and condition with its LINE:COL, size expressions fully parenthesised); the golden files
// of tests/golden/rules/ hold it (rule_dump.cpp).
std::string dump(const RuleFile &file);

}  // namespace splgen::parse
