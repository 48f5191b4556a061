// Rule libraries (declared in engine.h: RuleLibrary, default_rules_dir). Files are kept in
// the order they were added; a rule set is a file stem (every file of that family) or a
// `ruleset NAME = a, b, c;` declaration (its names looked up in its own file first, then
// in the whole library, so it may name rules of files loaded later). A rule name repeated
// within a set is a RuleSyntaxError (from add_file); set() throws RuleSyntaxError for a
// declared set that names an unknown rule, and returns nothing for an unknown set name.
#pragma once
#include "generator/rewrite/engine.h"

namespace splgen::rewrite {

// The stem of a rule file's path: "rules/dft.rules" -> "dft".
std::string rule_file_stem(const std::string &path);

// Whether `name` is a file stem or a declared rule set of the library.
bool has_set(const RuleLibrary &library, const std::string &name);

}  // namespace splgen::rewrite
