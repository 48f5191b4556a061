// Fuzz target: the formula parser (generator/parse/formula_parser.h). Any text either parses
// or is a ParseError / FormulaError; what parses prints as text that parses back to the same
// formula (the round trip tests/unit/parser_test.cpp checks on chosen formulas).
#include "generator/ir/print.h"
#include "generator/ir/spl.h"
#include "generator/parse/formula_parser.h"
#include "tests/fuzz/fuzz_check.h"

using namespace splgen;

SPLGEN_FUZZ_ENTRY {
  const std::string text = fuzz::as_text(data, size);
  Spl f;
  try {
    f = parse::parse_formula(text);
  } catch (const parse::ParseError &) {
    return 0;
  } catch (const FormulaError &) {
    return 0;
  }
  const std::string printed = print(f);
  Spl g;
  try {
    g = parse::parse_formula(printed);
  } catch (const std::exception &e) {
    fuzz::fail("the printed formula does not parse: " + printed + ": " + e.what(), text);
  }
  if (!equal(f, g)) fuzz::fail("the printed formula parses to another formula: " + printed + " -> " + print(g), text);
  return 0;
}
