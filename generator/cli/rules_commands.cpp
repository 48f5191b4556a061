#include "generator/cli/rules_commands.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "generator/driver/pipeline.h"
#include "generator/expand/expand.h"
#include "generator/ir/print.h"
#include "generator/lower/merge_loops.h"
#include "generator/parse/formula_parser.h"
#include "generator/lower/lower_with_rules.h"
#include "generator/prove/checker.h"
#include "generator/rewrite/engine.h"
#include "generator/rewrite/functions.h"

namespace splgen::cli {

namespace {

rewrite::RuleLibrary load(const std::vector<std::string> &paths) {
  rewrite::RuleLibrary library;
  if (paths.empty())
    library.load(rewrite::default_rules_dir());
  else
    for (const std::string &p : paths) library.load(p);
  return library;
}

std::string location(const Rule &r) { return fmt::format("{}:{}", r.pos.file, r.pos.line); }

std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

}  // namespace

int rules_check(const std::vector<std::string> &paths, int64_t max_size) {
  auto start = std::chrono::steady_clock::now();
  rewrite::RuleLibrary library = load(paths);
  prove::CheckOptions options;
  options.max_size = max_size;
  int ok = 0, failed = 0;
  for (const Rule *rule : library.all()) {
    prove::CheckResult r = prove::check_rule(*rule, options);
    if (r.ok) {
      ++ok;
      std::cout << fmt::format("{}: {}: ok ({} instances{})\n", location(*rule), rule->name, r.instances,
                               r.large_instances ? fmt::format(" + {} large", r.large_instances) : "");
    } else {
      ++failed;
      std::cout << fmt::format("{}: {}: FAIL: {}\n", location(*rule), rule->name,
                               r.error.empty() ? "counterexample " + r.counterexample : r.error);
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << fmt::format("{} rules checked in {:.1f} s: {} ok, {} failed\n", ok + failed, seconds, ok, failed);
  return failed == 0 && ok > 0 ? 0 : 1;
}

int rules_list(const std::vector<std::string> &paths, bool functions) {
  if (functions) {
    for (const rewrite::RuleFunction &f : rewrite::rule_functions())
      std::cout << fmt::format("@{}/{}  {}\n", f.name, f.arity, f.doc);
    return 0;
  }
  rewrite::RuleLibrary library = load(paths);
  for (const Rule *rule : library.all()) {
    std::cout << fmt::format("{:<28} {:<8} {:<24} {}\n", rule->name, rule->family, location(*rule), rule->text);
    if (!rule->comment.empty()) std::cout << fmt::format("{:<28} # {}\n", "", first_line(rule->comment));
  }
  return 0;
}

int rewrite(const std::string &formula, const std::vector<std::string> &rule_files) {
  Spl f = parse::parse_formula(formula);
  rewrite::RuleLibrary library;
  for (const std::string &file : rule_files) library.load(file);
  driver::prove_rules(library.all());  // as gen does: a false rule is refused, not applied
  driver::prove_environment_rules();
  for (const RuleFile &file : expand::shipped_rules().files()) library.add_file(file);
  std::vector<const Rule *> formula_rules, sigma_rules;
  for (const Rule *rule : library.all()) {
    if (rewrite::is_sigma_rule(*rule)) {  // Sigma-SPL rewrites (the par composition rule ...)
      sigma_rules.push_back(rule);
      continue;
    }
    if (rule->lhs.kind != SplKind::Tagged) continue;  // the tag rules
    (rewrite::is_sigma_term(rule->rhs) ? sigma_rules : formula_rules).push_back(rule);
  }
  Spl rewritten = rewrite::rewrite_to_fixpoint(f, formula_rules);
  Sigma sigma = lower::lower_with_rules(rewritten, sigma_rules);
  std::cout << "== spl ==\n" << print(rewritten) << "\n== sigma ==\n" << print(sigma);
  std::cout << "== merge ==\n" << print(lower::merge_loops(sigma));
  return 0;
}

}  // namespace splgen::cli
