#include "generator/rewrite/library.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

#include "generator/parse/rule_parser.h"

#ifndef SPLGEN_RULES_DIR
#define SPLGEN_RULES_DIR "rules"
#endif

namespace splgen::rewrite {

using parse::load_rule_file;
using parse::RuleSyntaxError;

namespace {

std::string at(const SourcePos &p) { return fmt::format("{}:{}:{}", p.file, p.line, p.column); }

const Rule *find_in(const RuleFile &file, const std::string &name) {
  for (const Rule &r : file.rules)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

std::string rule_file_stem(const std::string &path) { return std::filesystem::path(path).stem().string(); }

void RuleLibrary::add_file(RuleFile file) {
  std::string stem = rule_file_stem(file.path);
  for (Rule &r : file.rules)
    if (r.family.empty()) r.family = stem;
  // A file's rules form the set named by its stem, together with earlier files of that stem.
  std::unordered_map<std::string, const Rule *> family;
  for (const RuleFile &f : files_)
    if (rule_file_stem(f.path) == stem)
      for (const Rule &r : f.rules) family.emplace(r.name, &r);
  for (const Rule &r : file.rules) {
    auto [same, fresh] = family.emplace(r.name, &r);
    if (!fresh)
      throw RuleSyntaxError(r.pos, fmt::format("rule {} is defined twice in set {} (first at {})", r.name, stem,
                                               at(same->second->pos)));
  }
  for (const RuleSetDecl &set : file.sets) {  // (unknown names are reported by set(): they may come later)
    std::unordered_set<std::string> seen;
    for (const std::string &name : set.rules)
      if (!seen.insert(name).second)
        throw RuleSyntaxError(set.pos, fmt::format("rule {} appears twice in rule set {}", name, set.name));
  }
  files_.push_back(std::move(file));
}

void RuleLibrary::load(const std::string &path) {
  namespace fs = std::filesystem;
  if (fs::is_directory(path)) {
    std::vector<std::string> paths;
    for (const auto &entry : fs::directory_iterator(path))
      if (entry.is_regular_file() && entry.path().extension() == ".rules") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    for (const std::string &p : paths) add_file(load_rule_file(p));
    return;
  }
  add_file(load_rule_file(path));
}

std::vector<const Rule *> RuleLibrary::all() const {
  std::vector<const Rule *> out;
  for (const RuleFile &f : files_)
    for (const Rule &r : f.rules) out.push_back(&r);
  return out;
}

std::vector<const Rule *> RuleLibrary::set(const std::string &name) const {
  std::vector<const Rule *> out;
  bool declared = false;
  for (const RuleFile &f : files_)
    for (const RuleSetDecl &d : f.sets) {
      if (d.name != name) continue;
      declared = true;
      for (const std::string &rule : d.rules) {
        const Rule *r = find_in(f, rule);
        if (!r) r = find(rule);
        if (!r) throw RuleSyntaxError(d.pos, fmt::format("rule set {} names an unknown rule {}", name, rule));
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
      }
    }
  if (declared) return out;
  for (const RuleFile &f : files_)
    if (rule_file_stem(f.path) == name)
      for (const Rule &r : f.rules) out.push_back(&r);
  return out;
}

const Rule *RuleLibrary::find(const std::string &name) const {
  for (const RuleFile &f : files_)
    if (const Rule *r = find_in(f, name)) return r;
  return nullptr;
}

bool has_set(const RuleLibrary &library, const std::string &name) {
  for (const RuleFile &f : library.files()) {
    if (rule_file_stem(f.path) == name) return true;
    for (const RuleSetDecl &d : f.sets)
      if (d.name == name) return true;
  }
  return false;
}

std::string rules_dir_from_environment() {
  const char *env = std::getenv("SPLGEN_RULES");
  return env ? env : "";
}

std::string builtin_rules_dir() {
  namespace fs = std::filesystem;
  // An installed splgen (PREFIX/bin/splgen) reads PREFIX/share/splgen/rules, so it works
  // without the source tree it was built from.
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "splgen" / "rules";
    if (fs::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  return SPLGEN_RULES_DIR;
}

std::string default_rules_dir() {
  if (std::string env = rules_dir_from_environment(); !env.empty()) return env;
  return builtin_rules_dir();
}

}  // namespace splgen::rewrite
