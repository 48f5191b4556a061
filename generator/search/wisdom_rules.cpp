// The rule files a wisdom entry depends on (wisdom.h, RuleFileStamp): a plan found with
// `search --rules FILE` is only as good as FILE was then; an entry whose file changed is stale.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "generator/rewrite/engine.h"
#include "generator/search/space.h"
#include "generator/search/wisdom.h"

namespace splgen::search {

namespace {

// The rule names of a tree in short, "radix4_dit(4,dit(8,8))" -> {radix4_dit, dit}: the
// identifiers written before a '('.
std::set<std::string> tree_rule_names(const std::string &tree) {
  std::set<std::string> names;
  std::string word;
  for (char c : tree) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
      continue;
    }
    if (c == '(' && !word.empty() && !std::isdigit(static_cast<unsigned char>(word[0]))) names.insert(word);
    word.clear();
  }
  return names;
}

std::string absolute_path(const std::string &path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace

std::string rule_file_hash(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  uint64_t h = 14695981039346656037ULL;  // FNV-1a, 64 bits: a change detector, not a signature
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ULL;
  return fmt::format("fnv1a64:{:016x}", h);
}

std::vector<RuleFileStamp> plan_rule_files(const Plan &plan, const std::vector<std::string> &rule_files) {
  rewrite::RuleLibrary library;
  for (const std::string &path : rule_files) library.load(path);
  const std::set<std::string> used = tree_rule_names(plan.tree);
  std::vector<RuleFileStamp> out;
  for (const RuleFile &file : library.files()) {
    bool named = std::any_of(file.rules.begin(), file.rules.end(),
                             [&](const Rule &r) { return used.count(short_rule_name(r.name)) > 0; });
    if (named || plan.is_default) out.push_back({absolute_path(file.path), rule_file_hash(file.path)});
  }
  return out;
}

std::string rule_files_problem(const WisdomEntry &entry) {
  for (const RuleFileStamp &st : entry.rule_files) {
    std::string now = rule_file_hash(st.file);
    if (now.empty()) return fmt::format("its plan uses the rules of {}, which cannot be read", st.file);
    if (now != st.hash) return fmt::format("its plan uses the rules of {}, which changed since the search", st.file);
  }
  return "";
}

}  // namespace splgen::search
