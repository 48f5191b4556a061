#include "generator/support/sizes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace splgen::support {

namespace {

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// "at most 2^24": the largest size, as a power of two where it is one.
std::string at_most(std::int64_t max) {
  int k = 0;
  while ((std::int64_t(1) << k) < max) ++k;
  return (std::int64_t(1) << k) == max ? fmt::format("at most 2^{}", k) : fmt::format("at most {}", max);
}

// A decimal integer no larger than max.
std::int64_t parse_integer(const std::string &digits, const std::string &item, std::int64_t max) {
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw SizesError(fmt::format("'{}' is not a size (expected an integer, b^k, or A..B)", item));
  std::int64_t v = 0;
  for (char c : digits) {
    v = v * 10 + (c - '0');
    if (v > max) throw SizesError(fmt::format("size '{}' is too large ({})", item, at_most(max)));
  }
  return v;
}

// "n" or "b^k".
std::int64_t parse_size(const std::string &text, std::int64_t max) {
  std::string s = trim(text);
  std::size_t caret = s.find('^');
  std::int64_t v;
  if (caret == std::string::npos) {
    v = parse_integer(s, s, max);
  } else {
    std::int64_t base = parse_integer(trim(s.substr(0, caret)), s, max);
    std::int64_t exponent = parse_integer(trim(s.substr(caret + 1)), s, max);
    v = 1;
    for (std::int64_t i = 0; i < exponent; ++i) {
      v *= base;
      if (v > max) throw SizesError(fmt::format("size '{}' is too large ({})", s, at_most(max)));
      if (v == 0 || (base == 1 && i > 0)) break;
    }
  }
  if (v < 2) throw SizesError(fmt::format("size '{}' is too small (at least 2)", s));
  return v;
}

}  // namespace

std::vector<std::int64_t> parse_sizes(const std::string &text, std::int64_t max) {
  std::vector<std::int64_t> sizes;
  std::size_t start = 0;
  for (;;) {
    std::size_t comma = text.find(',', start);
    std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty()) throw SizesError(fmt::format("empty size in '{}'", text));
    std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      sizes.push_back(parse_size(item, max));
    } else {
      std::int64_t from = parse_size(item.substr(0, dots), max), to = parse_size(item.substr(dots + 2), max);
      if (from > to) throw SizesError(fmt::format("range '{}' is empty ({} > {})", item, from, to));
      for (std::int64_t n = from; n <= to; n *= 2) sizes.push_back(n);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

}  // namespace splgen::support
