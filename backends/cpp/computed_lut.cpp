#include "backends/cpp/computed_lut.h"

#include <fmt/format.h>

namespace splgen::backends {

namespace {

// r^b mod p for b = 0, 1, ..., p - 2 in turn, as the kernel computes them (p <= 2^31: the
// products fit in 64 bits).
template <class Visit>
bool each_power(int64_t p, int64_t r, Visit visit) {
  int64_t v = 1;
  for (int64_t b = 0; b + 1 < p; ++b, v = v * r % p)
    if (!visit(b, v)) return false;
  return true;
}

}  // namespace

std::optional<PowerLut> power_lut(const std::vector<int64_t> &t) {
  const int64_t p = int64_t(t.size());
  if (p < 3 || p > (int64_t(1) << 31) || t[0] != 0 || t[1] != 1) return std::nullopt;
  const int64_t r = t[2];  // forward: r^1
  if (r > 0 && r < p && each_power(p, r, [&](int64_t b, int64_t v) { return t[std::size_t(1 + b)] == v; }))
    return PowerLut{p, r, false};
  for (int64_t x = 2; x < p; ++x)  // inverse: t[r] = 2
    if (t[std::size_t(x)] == 2) {
      // every entry visited, each once: b + 1 distinct values at p - 1 distinct positions
      if (each_power(p, x, [&](int64_t b, int64_t v) { return t[std::size_t(v)] == 1 + b; })) return PowerLut{p, x, true};
      break;
    }
  return std::nullopt;
}

std::optional<PowerLut> computed_lut(const std::vector<int64_t> &t) {
  if (int64_t(t.size()) <= kMaxPrintedLut) return std::nullopt;
  return power_lut(t);
}

std::string computed_lut_table(const std::string &name, const PowerLut &l, const std::string &type) {
  return fmt::format(
      "// {what}, computed on first use (backends/cpp/computed_lut.h).\n"
      "static const {type} *{name}_values() {{\n"
      "  static const std::vector<{type}> table = [] {{\n"
      "    std::vector<{type}> t(std::size_t({p}L), 0);\n"
      "    long long v = 1;\n"
      "    for (long long b = 0; b < {last}LL; ++b, v = v * {r}LL % {p}LL) t[std::size_t({at})] = {type}({value});\n"
      "    return t;\n"
      "  }}();\n"
      "  return table.data();\n"
      "}}\n",
      fmt::arg("what", l.inverse ? fmt::format("t[{}^b mod {}] = 1 + b", l.r, l.p) : fmt::format("t[1 + b] = {}^b mod {}", l.r, l.p)),
      fmt::arg("type", type), fmt::arg("name", name), fmt::arg("p", l.p), fmt::arg("last", l.p - 1), fmt::arg("r", l.r),
      fmt::arg("at", l.inverse ? "v" : "1 + b"), fmt::arg("value", l.inverse ? "1 + b" : "v"));
}

}  // namespace splgen::backends
