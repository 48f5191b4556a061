// Fuzz target: the JSON reader (generator/support/json.h) and the wisdom reader on top of it
// (generator/search/wisdom.h). Any text either parses or is a JsonError / WisdomError. What
// parses prints as text that parses back to the same printed bytes; wisdom likewise, and the
// plans of its entries parse or are a ParseError / FormulaError.
#include "generator/parse/formula_parser.h"
#include "generator/search/wisdom.h"
#include "generator/support/json.h"
#include "tests/fuzz/fuzz_check.h"

using namespace splgen;

namespace {

void check_json(const std::string &text) {
  support::Json j;
  try {
    j = support::parse_json(text);
  } catch (const support::JsonError &) {
    return;
  }
  const std::string printed = j.dump();
  std::string again;
  try {
    again = support::parse_json(printed).dump();
  } catch (const std::exception &e) {
    fuzz::fail(std::string("printed JSON does not parse: ") + e.what() + "\n" + printed, text);
  }
  if (again != printed) fuzz::fail("printed JSON reads back as other JSON:\n" + printed + "---\n" + again, text);
}

void check_wisdom(const std::string &text) {
  search::Wisdom w;
  try {
    w = search::parse_wisdom(text, "fuzz.wisdom");
  } catch (const search::WisdomError &) {
    return;
  }
  const std::string printed = search::format_wisdom(w);
  std::string again;
  try {
    again = search::format_wisdom(search::parse_wisdom(printed, "printed.wisdom"));
  } catch (const std::exception &e) {
    fuzz::fail(std::string("printed wisdom does not parse: ") + e.what() + "\n" + printed, text);
  }
  if (again != printed) fuzz::fail("printed wisdom reads back as other wisdom:\n" + printed + "---\n" + again, text);
  search::Wisdom merged;
  merged.merge(w);
  merged.merge(w);
  for (const search::WisdomEntry &entry : w.entries) {
    try {
      (void)search::entry_plan(entry);
    } catch (const parse::ParseError &) {
    } catch (const FormulaError &) {
    }
  }
}

}  // namespace

SPLGEN_FUZZ_ENTRY {
  const std::string text = fuzz::as_text(data, size);
  check_json(text);
  check_wisdom(text);
  return 0;
}
