// Fuzz target: the rule-file parser (generator/parse/rule_parser.h) and rule libraries. Any
// text either parses or is a RuleSyntaxError that is not an "internal error" (the parser turns
// unexpected exceptions into one of those). What parses dumps, loads into a RuleLibrary, and
// each rule's text as written ("LEFT => RIGHT if ...", what `rules list` shows) parses back
// on its own to the same rule.
#include <cctype>
#include <sstream>

#include "generator/parse/rule_parser.h"
#include "generator/rewrite/engine.h"
#include "tests/fuzz/fuzz_check.h"

using namespace splgen;

namespace {

// The dump without positions (" @LINE:COL") and comment lines: two parses of one rule from
// different texts agree on it.
std::string shape_of(const Rule &rule, const std::string &path) {
  std::istringstream in(parse::dump(RuleFile{path, {rule}, {}}));
  std::string out, line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line[first] == '#') continue;
    for (std::size_t at = line.find(" @"); at != std::string::npos; at = line.find(" @", at + 1)) {
      std::size_t end = at + 2;
      while (end < line.size() && (std::isdigit((unsigned char)line[end]) || line[end] == ':')) ++end;
      if (end > at + 2) line.erase(at, end - at);
    }
    out += line + "\n";
  }
  return out;
}

void check_not_internal(const std::string &message, const std::string &input) {
  if (message.find("internal error") != std::string::npos || message.find("out of memory") != std::string::npos)
    fuzz::fail("the rule parser hid an unexpected exception: " + message, input);
}

}  // namespace

SPLGEN_FUZZ_ENTRY {
  const std::string text = fuzz::as_text(data, size);
  const std::string path = "fuzz.rules";
  RuleFile file;
  try {
    file = parse::parse_rule_file(text, path);
  } catch (const parse::RuleSyntaxError &e) {
    check_not_internal(e.what(), text);
    return 0;
  }
  (void)parse::dump(file);
  for (const Rule &rule : file.rules) {
    const std::string again = "rule " + rule.name + ": " + rule.text + ";";
    Rule reparsed;
    try {
      reparsed = parse::parse_rule(again, path);
    } catch (const std::exception &e) {
      fuzz::fail("the text of rule " + rule.name + " does not parse on its own: " + again + ": " + e.what(), text);
    }
    if (shape_of(rule, path) != shape_of(reparsed, path))
      fuzz::fail("the text of rule " + rule.name + " parses to another rule: " + again + "\n" + shape_of(rule, path) +
                     "---\n" + shape_of(reparsed, path),
                 text);
  }
  try {
    rewrite::RuleLibrary library;
    library.add_file(file);
    for (const RuleSetDecl &set : file.sets) (void)library.set(set.name);
  } catch (const parse::RuleSyntaxError &e) {
    check_not_internal(e.what(), text);
  }
  return 0;
}
