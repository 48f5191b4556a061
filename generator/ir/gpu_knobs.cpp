#include "generator/ir/gpu_knobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <vector>
#include <stdexcept>

namespace splgen {

namespace {

// A whole decimal number in [lo, hi], or nullopt.
std::optional<int64_t> number(const std::string &text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || v < lo || v > hi) return std::nullopt;
  return v;
}

// One knob of the text form: a number in [lo, hi] (a multiple of `multiple`), or, where `yes`
// is set, one of two words (yes: 1, no: 0).
struct Knob {
  const char *key, *expected;
  int64_t lo, hi, multiple;
  const char *yes, *no;
  int64_t (*get)(const GpuKnobs &);
  void (*set)(GpuKnobs &, int64_t);
};

#define SPLGEN_KNOB(field, type) \
  [](const GpuKnobs &k) { return int64_t(k.field); }, [](GpuKnobs &k, int64_t v) { k.field = type(v); }

// In the order to_string prints them. block and grid_block: whole warps, at most CUDA's 1024
// threads a block.
const std::vector<Knob> &knobs() {
  static const std::vector<Knob> list = {
      {"block", "a multiple of 32 in 32..1024", 32, 1024, 32, nullptr, nullptr, SPLGEN_KNOB(block_threads, int)},
      {"grid_block", "a multiple of 32 in 32..1024", 32, 1024, 32, nullptr, nullptr, SPLGEN_KNOB(grid_block_threads, int)},
      {"group", "threads in 1..1024", 1, 1024, 1, nullptr, nullptr, SPLGEN_KNOB(group_threads, int)},
      {"min_blocks", "blocks in 0..32", 0, 32, 1, nullptr, nullptr, SPLGEN_KNOB(min_blocks, int)},
      {"staging", "warp or sector", 0, 1, 1, "sector", "warp", SPLGEN_KNOB(staging, GpuStaging)},
      {"stores", "staged or direct", 0, 1, 1, "direct", "staged", SPLGEN_KNOB(direct_stores, bool)},
      {"padding", "on or off", 0, 1, 1, "on", "off", SPLGEN_KNOB(padding, bool)},
      {"table", "a number of entries in 0..2^24", 0, int64_t(1) << 24, 1, nullptr, nullptr, SPLGEN_KNOB(max_table, int64_t)},
      {"factor", "a size in 2..65536", 2, int64_t(1) << 16, 1, nullptr, nullptr, SPLGEN_KNOB(factor_max, int64_t)},
      {"columns", "columns in 0..1024", 0, 1024, 1, nullptr, nullptr, SPLGEN_KNOB(columns, int64_t)},
      {"shared", "bytes in 1024..1048576", 1024, int64_t(1) << 20, 1, nullptr, nullptr, SPLGEN_KNOB(shared_bytes, int64_t)}};
  return list;
}

#undef SPLGEN_KNOB

std::optional<int64_t> value_of(const Knob &knob, const std::string &text) {
  if (knob.yes) return text == knob.yes ? std::optional<int64_t>(1) : text == knob.no ? std::optional<int64_t>(0) : std::nullopt;
  std::optional<int64_t> v = number(text, knob.lo, knob.hi);
  return v && *v % knob.multiple == 0 ? v : std::nullopt;
}

}  // namespace

std::string to_string(const GpuKnobs &k) {
  std::string out;
  for (const Knob &knob : knobs()) {
    const int64_t v = knob.get(k);
    out += fmt::format("{}{}={}", out.empty() ? "" : ",", knob.key, knob.yes ? (v ? knob.yes : knob.no) : std::to_string(v));
  }
  return out;
}

GpuKnobs parse_gpu_knobs(const std::string &text, GpuKnobs k) {
  if (text.empty()) return k;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    auto fail = [&](const std::string &what) {
      throw std::invalid_argument(fmt::format("--gpu-knobs: column {}: {}", start + 1, what));
    };
    if (eq == std::string::npos) fail(fmt::format("'{}' is not KEY=VALUE", item));
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    auto knob = std::find_if(knobs().begin(), knobs().end(), [&](const Knob &x) { return key == x.key; });
    if (knob == knobs().end()) {
      std::string names;
      for (const Knob &x : knobs()) names += (names.empty() ? "" : ", ") + std::string(x.key);
      fail(fmt::format("unknown knob '{}' ({})", key, names));
    }
    const std::optional<int64_t> v = value_of(*knob, value);
    if (!v) fail(fmt::format("{}={}: expected {}", key, value, knob->expected));
    knob->set(k, *v);
    start = comma + 1;
  }
  return k;
}

int64_t gpu_arch_shared_bytes(const std::string &arch) {
  static const std::map<std::string, int64_t> kib = {{"70", 96}, {"72", 96}, {"75", 64}, {"80", 163}, {"86", 99},
                                                     {"87", 163}, {"89", 99}, {"90", 227}, {"100", 227}, {"120", 99}};
  std::string cc = arch;
  for (const char *prefix : {"sm_", "compute_"})
    if (cc.rfind(prefix, 0) == 0) cc = cc.substr(std::string(prefix).size());
  if (!cc.empty() && (cc.back() == 'a' || cc.back() == 'f')) cc.pop_back();  // sm_90a, sm_100f
  auto it = kib.find(cc);
  if (it == kib.end())
    throw std::invalid_argument(fmt::format("--arch {}: unknown GPU architecture (sm_70, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120)", arch));
  return it->second * 1024;
}

}  // namespace splgen
