// Search options for tests that run a whole search: kernels compiled -O1 and timed for a
// moment (3 repetitions of tiny samples), since the tests check what is searched, not speed.
#pragma once
#include <string>

#include "generator/search/search.h"

namespace splgen::test {

inline search::SearchOptions quick_search(const std::string &spec, const std::string &strategy, int final_round) {
  search::SearchOptions o;
  o.spec = spec;
  o.strategy = strategy;
  o.eval.flags = "-O1";
  o.eval.repetitions = 3;
  o.eval.min_sample_seconds = 1e-5;
  o.final_round = final_round;
  return o;
}

}  // namespace splgen::test
