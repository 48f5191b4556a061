// Fuzz target: size expressions (generator/rewrite/size_expr.h). The input is
//
//   EXPRESSION
//   VALUE BINDING...
//
// (the second line optional): the expression is parsed as the size of a rule's left side
// `DFT(EXPRESSION)`; it is printed, evaluated with its variables (in name order) bound to
// the BINDINGs and to edge values (0, 1, -1, INT64_MAX, INT64_MIN ...), and solved against
// VALUE. Arithmetic must never trap (no overflow, no division of INT64_MIN by -1), and every
// solution that binds all variables must evaluate to VALUE.
#include <charconv>
#include <climits>
#include <set>
#include <sstream>

#include "generator/parse/rule_parser.h"
#include "generator/rewrite/size_expr.h"
#include "tests/fuzz/fuzz_check.h"

using namespace splgen;
using rewrite::Bindings;

namespace {

// Solving enumerates factorisations: bounded as formula sizes are (2^40), with few variables,
// so that the time an input takes stays far below a second.
constexpr int64_t kMaxSolveValue = int64_t(1) << 40;
constexpr std::size_t kMaxSolveVariables = 3;

std::vector<int64_t> numbers(const std::string &line) {
  std::vector<int64_t> out;
  std::istringstream in(line);
  std::string word;
  while (in >> word) {
    int64_t v = 0;
    if (std::from_chars(word.data(), word.data() + word.size(), v).ec == std::errc()) out.push_back(v);
  }
  return out;
}

void check_solutions(const SizeExpr &e, int64_t value, const Bindings &given, bool positive,
                     const std::set<std::string> &vars, const std::string &input) {
  auto solutions = rewrite::solve_size(e, value, given, positive);
  if (!solutions) return;
  for (const Bindings &s : *solutions) {
    for (const auto &[name, v] : given)
      if (auto it = s.find(name); it == s.end() || it->second != v)
        fuzz::fail("a solution drops or changes the given binding of " + name, input);
    bool all_bound = true;
    for (const std::string &v : vars) all_bound = all_bound && s.count(v);
    if (!all_bound) continue;
    auto got = rewrite::eval_size(e, s);
    if (!got || *got != value)
      fuzz::fail("a solution of " + rewrite::to_string(e) + " == " + std::to_string(value) + " evaluates to " +
                     (got ? std::to_string(*got) : "nothing"),
                 input);
  }
}

}  // namespace

SPLGEN_FUZZ_ENTRY {
  const std::string text = fuzz::as_text(data, size);
  const std::size_t newline = text.find('\n');
  const std::string expression = text.substr(0, newline);
  const std::vector<int64_t> given = numbers(newline == std::string::npos ? "" : text.substr(newline + 1));
  Rule rule;
  try {
    rule = parse::parse_rule("rule r: DFT(" + expression + ") => I(1);", "fuzz.rules");
  } catch (const parse::RuleSyntaxError &) {
    return 0;
  }
  if (rule.lhs.kind != SplKind::DFT || rule.lhs.sizes.empty()) return 0;
  const SizeExpr &e = rule.lhs.sizes[0];
  (void)rewrite::to_string(e);
  std::set<std::string> vars;
  rewrite::size_vars(e, vars);

  for (int64_t edge : {int64_t(0), int64_t(1), int64_t(-1), int64_t(2), int64_t(-2), int64_t(1) << 32, int64_t(INT64_MAX),
                       int64_t(INT64_MIN)}) {
    Bindings all;
    for (const std::string &v : vars) all[v] = edge;
    (void)rewrite::eval_size(e, all);
  }
  Bindings bound;
  std::size_t next = 1;
  for (const std::string &v : vars)
    if (next < given.size()) bound[v] = given[next++];
  (void)rewrite::eval_size(e, bound);
  try {
    (void)rewrite::eval_size_or_throw(e, bound, "fuzz");
  } catch (const FormulaError &) {
  }

  if (given.empty() || given[0] > kMaxSolveValue || given[0] < -kMaxSolveValue || vars.size() > kMaxSolveVariables)
    return 0;
  check_solutions(e, given[0], {}, true, vars, text);
  check_solutions(e, given[0], {}, false, vars, text);
  if (!bound.empty()) {  // the first variable given, the others solved
    Bindings first{*bound.begin()};
    check_solutions(e, given[0], first, true, vars, text);
  }
  return 0;
}
