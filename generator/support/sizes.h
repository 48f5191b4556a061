// Transform sizes, written as on the command line (bench --sizes, rules stats --sizes):
//   "2..2^20"        A, 2A, 4A, ... up to B (powers of two when A is one)
//   "12,60,100"      a list
//   "2..2^10,12,60"  both; any size may be written b^k
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace splgen::support {

// The largest size a benchmark accepts: its buffers stay below a few GiB.
constexpr std::int64_t kMaxBenchSize = std::int64_t(1) << 24;

// What parse_sizes throws on bad text: a one-line message naming the bad part.
struct SizesError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The sizes in increasing order, each once; every size in [2, max].
std::vector<std::int64_t> parse_sizes(const std::string &text, std::int64_t max = kMaxBenchSize);  // throws SizesError

}  // namespace splgen::support
