#include "generator/cli/wisdom_plan.h"

#include <iostream>

#include "generator/cli/command_error.h"

namespace splgen::cli {

search::Wisdom load_wisdom_file(const std::string &path) {
  try {
    return search::load_wisdom(path);
  } catch (const search::WisdomError &e) {
    throw CommandError(kExitUsage, e.what());
  }
}

driver::GenOptions with_wisdom_plan(const std::string &path, const std::string &spec, driver::GenOptions options,
                            const std::string &compiler, FallbackNote note) {
  search::WisdomLookup found;
  try {
    found = search::lookup_wisdom(path, spec, options, compiler);
  } catch (const search::WisdomError &e) {
    throw CommandError(kExitUsage, e.what());
  }
  if (found.plan) return search::with_plan(options, *found.plan);
  if (note != FallbackNote::None)
    std::cerr << (note == FallbackNote::AfterProgress ? "\n" : "") << "splgen: " << found.message << std::endl;
  return options;
}

}  // namespace splgen::cli
