#include "generator/expand/ruletree.h"

#include <fmt/format.h>

#include <filesystem>

#include "generator/ir/print.h"

namespace splgen::expand {

// The shipped rules are loaded by absolute path; a reader finds them relative to where they work.
std::string shown_source(const std::string &source) {
  namespace fs = std::filesystem;
  std::size_t colon = source.rfind(':');
  if (colon == std::string::npos) return source;
  fs::path file(source.substr(0, colon));
  if (!file.is_absolute()) return source;
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (ec) return source;
  fs::path relative = file.lexically_relative(cwd);
  if (relative.empty() || *relative.begin() == "..") return source;
  return relative.string() + source.substr(colon);
}

namespace {

void print_to(const RuletreePtr &t, int depth, std::string &out) {
  std::string source = t->source.empty() ? "" : fmt::format(" [{}]", shown_source(t->source));
  out += fmt::format("{}{} -> {}({}){}\n", std::string(std::size_t(depth) * 2, ' '), print(t->node), t->rule, t->choice,
                     source);
  for (const RuletreePtr &c : t->children) print_to(c, depth + 1, out);
}

}  // namespace

std::string print(const RuletreePtr &tree) {
  std::string out;
  print_to(tree, 0, out);
  return out;
}

}  // namespace splgen::expand
