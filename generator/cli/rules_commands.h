// The rule-language subcommands of splgen (docs/cli.md, docs/rule-language.md):
//   splgen rules check PATH...   prove every rule numerically
//   splgen rules list [PATH...]  name, family, file:line and formula of every rule
//   splgen rewrite FORMULA       apply the tag rules, print the SPL and Sigma-SPL results
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace splgen::cli {

// Exit 0 when every rule holds, 1 when one is false or has no instance.
int rules_check(const std::vector<std::string> &paths, int64_t max_size);
int rules_list(const std::vector<std::string> &paths, bool functions);
int rewrite(const std::string &formula, const std::vector<std::string> &rule_files);

}  // namespace splgen::cli
