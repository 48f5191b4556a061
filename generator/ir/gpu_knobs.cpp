#include "generator/ir/gpu_knobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
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

std::optional<bool> on_off(const std::string &text, const char *on, const char *off) {
  if (text == on) return true;
  if (text == off) return false;
  return std::nullopt;
}

}  // namespace

std::string to_string(const GpuKnobs &k) {
  return fmt::format("block={},grid_block={},group={},min_blocks={},staging={},stores={},padding={},table={},factor={},columns={},shared={}",
                     k.block_threads, k.grid_block_threads, k.group_threads, k.min_blocks, k.staging == GpuStaging::Sector ? "sector" : "warp",
                     k.direct_stores ? "direct" : "staged", k.padding ? "on" : "off", k.max_table, k.factor_max,
                     k.columns, k.shared_bytes);
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
    auto bad = [&](const char *expected) { fail(fmt::format("{}={}: expected {}", key, value, expected)); };
    if (key == "block" || key == "grid_block") {  // whole warps, at most CUDA's 1024 threads a block
      auto v = number(value, 32, 1024);
      if (!v || *v % 32 != 0) bad("a multiple of 32 in 32..1024");
      (key == "block" ? k.block_threads : k.grid_block_threads) = int(*v);
    } else if (key == "group") {
      auto v = number(value, 1, 1024);
      if (!v) bad("threads in 1..1024");
      k.group_threads = int(*v);
    } else if (key == "min_blocks") {
      auto v = number(value, 0, 32);
      if (!v) bad("blocks in 0..32");
      k.min_blocks = int(*v);
    } else if (key == "staging") {
      auto v = on_off(value, "sector", "warp");
      if (!v) bad("warp or sector");
      k.staging = *v ? GpuStaging::Sector : GpuStaging::Warp;
    } else if (key == "stores") {
      auto v = on_off(value, "direct", "staged");
      if (!v) bad("staged or direct");
      k.direct_stores = *v;
    } else if (key == "padding") {
      auto v = on_off(value, "on", "off");
      if (!v) bad("on or off");
      k.padding = *v;
    } else if (key == "table") {
      auto v = number(value, 0, int64_t(1) << 24);
      if (!v) bad("a number of entries in 0..2^24");
      k.max_table = *v;
    } else if (key == "factor") {
      auto v = number(value, 2, int64_t(1) << 16);
      if (!v) bad("a size in 2..65536");
      k.factor_max = *v;
    } else if (key == "columns") {
      auto v = number(value, 0, 1024);
      if (!v) bad("columns in 0..1024");
      k.columns = *v;
    } else if (key == "shared") {
      auto v = number(value, 1024, int64_t(1) << 20);
      if (!v) bad("bytes in 1024..1048576");
      k.shared_bytes = *v;
    } else {
      fail(fmt::format("unknown knob '{}' (block, grid_block, group, min_blocks, staging, stores, padding, table, factor, columns, shared)", key));
    }
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
