// How subcommands write what they produce, so that a failed write is the same error (exit 3)
// everywhere, and times read the same in every table.
#pragma once
#include <string>

namespace splgen::cli {

// Creates or truncates PATH and writes TEXT; CommandError(kExitOutput) when that fails.
void write_file(const std::string &path, const std::string &text);

// Flushes standard output; CommandError(kExitOutput) when anything written to it was lost.
void check_stdout();

// A time in ns as "12.3 ns", "4.56 us" or "7.89 ms"; "-" when not measured (ns <= 0).
std::string format_time(double ns);

}  // namespace splgen::cli
