#include "generator/expand/ruletree.h"

#include <fmt/format.h>

#include "generator/ir/print.h"

namespace splgen::expand {

namespace {
void print_to(const RuletreePtr &t, int depth, std::string &out) {
  out += fmt::format("{}{} -> {}({})\n", std::string(std::size_t(depth) * 2, ' '), print(t->node), t->rule, t->choice);
  for (const RuletreePtr &c : t->children) print_to(c, depth + 1, out);
}
}  // namespace

std::string print(const RuletreePtr &tree) {
  std::string out;
  print_to(tree, 0, out);
  return out;
}

}  // namespace splgen::expand
