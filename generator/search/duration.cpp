#include "generator/search/duration.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace splgen::search {

double parse_duration(const std::string &text) {
  auto bad = [&] { return DurationError("'" + text + "' is not a duration (e.g. 60s, 2m, 500ms, 1m30s)"); };
  std::size_t i = 0;
  double total = 0;
  bool any = false;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    if (i == start) throw bad();
    std::string number = text.substr(start, i - start);
    char *end = nullptr;
    double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size()) throw bad();
    std::size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    std::string unit = text.substr(unit_start, i - unit_start);
    double scale;
    if (unit.empty() || unit == "s")
      scale = 1;
    else if (unit == "ms")
      scale = 1e-3;
    else if (unit == "m" || unit == "min")
      scale = 60;
    else if (unit == "h")
      scale = 3600;
    else
      throw bad();
    if (unit.empty() && i < text.size()) throw bad();  // "5 3"
    total += value * scale;
    any = true;
  }
  if (!any || !(total > 0) || !std::isfinite(total)) throw bad();  // "999...9" (400 digits) is inf
  return total;
}

}  // namespace splgen::search
