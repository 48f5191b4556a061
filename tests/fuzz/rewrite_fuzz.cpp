// Fuzz target: the rewrite engine, as `splgen rewrite [--rules FILE] FORMULA` runs it
// (generator/cli/rules_commands.cpp): the formula rewritten to a fixpoint with the tag rules,
// lowered with the Sigma-SPL rules, loops merged, printed. The input is a formula, or
//
//   RULE FILE TEXT
//   %%
//   FORMULA
//
// whose rules are tried before the shipped ones (every one with an SPL right side, not only
// tag rules, to reach more of the matcher). The step budget is small (kMaxSteps) so that a
// rule that keeps applying is an error, not a long run. A user error is a ParseError,
// RuleSyntaxError or FormulaError; anything else is a finding.
#include "generator/expand/expand.h"
#include "generator/ir/print.h"
#include "generator/lower/lower_with_rules.h"
#include "generator/lower/merge_loops.h"
#include "generator/parse/formula_parser.h"
#include "generator/parse/rule_parser.h"
#include "generator/rewrite/engine.h"
#include "tests/fuzz/fuzz_check.h"

using namespace splgen;

namespace {

constexpr int kMaxSteps = 32;

void rewrite_and_lower(const std::string &rules_text, const std::string &formula) {
  Spl f = parse::parse_formula(formula);
  std::vector<const Rule *> formula_rules, sigma_rules;
  RuleFile user;
  if (!rules_text.empty()) user = parse::parse_rule_file(rules_text, "fuzz.rules");
  for (const Rule &rule : user.rules)
    (rewrite::is_sigma_rule(rule) || rewrite::is_sigma_term(rule.rhs) ? sigma_rules : formula_rules).push_back(&rule);
  for (const RuleFile &file : expand::shipped_rules().files())
    for (const Rule &rule : file.rules) {
      if (rewrite::is_sigma_rule(rule)) sigma_rules.push_back(&rule);
      else if (rule.lhs.kind == SplKind::Tagged) (rewrite::is_sigma_term(rule.rhs) ? sigma_rules : formula_rules).push_back(&rule);
    }
  Spl rewritten = rewrite::rewrite_to_fixpoint(f, formula_rules, kMaxSteps);
  (void)print(rewritten);
  Sigma sigma = lower::lower_with_rules(rewritten, sigma_rules);
  (void)print(lower::merge_loops(sigma));
}

}  // namespace

SPLGEN_FUZZ_ENTRY {
  const std::string text = fuzz::as_text(data, size);
  std::string rules_text, formula = text;
  if (std::size_t split = text.find("\n%%\n"); split != std::string::npos) {
    rules_text = text.substr(0, split);
    formula = text.substr(split + 4);
  }
  try {
    rewrite_and_lower(rules_text, formula);
  } catch (const parse::ParseError &) {
  } catch (const parse::RuleSyntaxError &) {
  } catch (const FormulaError &) {
  }
  return 0;
}
