// How subcommands write what they produce, so that a failed write is the same error (exit 3)
// everywhere, and times read the same in every table.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace splgen::cli {

// Writes the files (path, text) of one command whole, each through a temporary file renamed
// into place, all of them only after every one was written (generator/support/atomic_file.h).
// CommandError(kExitOutput) when any fails; then no path was touched.
void write_files(const std::vector<std::pair<std::string, std::string>> &files);
void write_file(const std::string &path, const std::string &text);

// CommandError(kExitUsage) when two of the (option, path) pairs name the same file (empty paths
// and "-", standard output, are skipped): "-o and --header name the same file 'k.cpp'".
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>> &outputs);

// CommandError(kExitOutput) "OPTION: cannot write 'PATH': REASON" unless PATH (not empty) can be
// created in its directory: checked before a long run, so that a typo costs no time.
void check_writable(const std::string &option, const std::string &path);

// Flushes standard output; CommandError(kExitOutput) when anything written to it was lost.
void check_stdout();

// A time in ns as "12.3 ns", "4.56 us" or "7.89 ms"; "-" when not measured (ns <= 0).
std::string format_time(double ns);

}  // namespace splgen::cli
