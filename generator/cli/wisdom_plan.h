// Reading wisdom files (docs/search.md) the same way in every subcommand: gen, expand and lower
// (--wisdom FILE: use the stored plan), bench (time it), search and wisdom (check before writing).
#pragma once
#include <string>

#include "generator/driver/pipeline.h"
#include "generator/search/wisdom.h"

namespace splgen::cli {

// FILE's entries (none when it does not exist); a malformed file is CommandError(kExitUsage).
search::Wisdom load_wisdom_file(const std::string &path);

// Where with_wisdom_plan notes that it fell back to the default plan: on a line of its own, on a
// new line after bench's progress line (which may be open), or nowhere (bench --quiet).
enum class FallbackNote { Line, AfterProgress, None };

// OPTIONS with the plan stored in FILE for SPEC, OPTIONS' target and COMPILER. A missing or stale
// entry is no error: OPTIONS (the default plan) stay as they are, with a note on stderr.
driver::GenOptions with_wisdom_plan(const std::string &path, const std::string &spec, driver::GenOptions options,
                            const std::string &compiler, FallbackNote note);

}  // namespace splgen::cli
