// The search strategies, registered FFTW-solver style: each is a record (name, description,
// run function) made in a file of its own (strategy_<name>.cpp) and listed once, in
// strategy_list.cpp. A new strategy is one new file and one line there.
#pragma once
#include <string>
#include <vector>

namespace splgen::search {

class Searcher;  // strategies.h: the state the strategies share

struct StrategyInfo {
  std::string name;         // --strategy NAME
  std::string description;  // a few words for --help; may be empty
  // Whether it times plans: the default is timed first and a final round ends it. A strategy
  // that only models costs (estimate) sets result().best itself.
  bool timed = true;
  void (*run)(Searcher &) = nullptr;
};

const std::vector<StrategyInfo> &strategies();  // in strategy_list.cpp's order, the default first
const StrategyInfo *find_strategy(const std::string &name);  // null for an unknown name
std::vector<std::string> strategy_names();
// "dp (dynamic programming), random, ...": the names with their descriptions, for --help.
std::string describe_strategies();

}  // namespace splgen::search
