// How a subcommand fails: it throws CommandError, and main() prints "splgen: error: MESSAGE" (one
// line) and exits with its code (docs/cli.md, "Errors and exit codes").
#pragma once
#include <stdexcept>
#include <string>

namespace splgen::cli {

constexpr int kExitOk = 0;
constexpr int kExitVerifyFailed = 1;  // verify found a mismatch
constexpr int kExitUsage = 2;         // bad command line or input
constexpr int kExitOutput = 3;        // an output file could not be written
constexpr int kExitInternal = 4;      // a bug in splgen

struct CommandError : std::runtime_error {
  int exit_code;
  CommandError(int code, const std::string &message) : std::runtime_error(message), exit_code(code) {}
};

}  // namespace splgen::cli
