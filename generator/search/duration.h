// Durations on the command line (`search --budget`): "60s", "2m", "500ms", "1h", "1m30s";
// a bare number is seconds.
#pragma once
#include <stdexcept>
#include <string>

namespace splgen::search {

struct DurationError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Seconds; throws DurationError ("'abc' is not a duration (e.g. 60s, 2m, 500ms)") on bad text
// and on a negative or zero duration.
double parse_duration(const std::string &text);

}  // namespace splgen::search
