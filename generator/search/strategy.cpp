#include "generator/search/strategy.h"

namespace splgen::search {

const StrategyInfo *find_strategy(const std::string &name) {
  for (const StrategyInfo &s : strategies())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const StrategyInfo &s : strategies()) names.push_back(s.name);
  return names;
}

std::string describe_strategies() {
  std::string out;
  for (const StrategyInfo &s : strategies()) {
    if (!out.empty()) out += ", ";
    out += s.description.empty() ? s.name : s.name + " (" + s.description + ")";
  }
  return out;
}

}  // namespace splgen::search
