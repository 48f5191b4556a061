// The registered search strategies, the default first. Add a strategy here.
#include "generator/search/strategy.h"

namespace splgen::search {

StrategyInfo dp_strategy();
StrategyInfo random_strategy();
StrategyInfo exhaustive_strategy();
StrategyInfo estimate_strategy();

const std::vector<StrategyInfo> &strategies() {
  static const std::vector<StrategyInfo> list = {
      dp_strategy(),
      random_strategy(),
      exhaustive_strategy(),
      estimate_strategy(),
  };
  return list;
}

}  // namespace splgen::search
