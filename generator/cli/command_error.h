// Errors of subcommands that live in their own files: main() reports them as it reports its
// own CliError, "splgen: error: MESSAGE" and the exit code (docs/cli.md, "Errors and exit codes").
#pragma once
#include <stdexcept>
#include <string>

namespace splgen::cli {

constexpr int kExitUsage = 2;     // bad command line or input
constexpr int kExitOutput = 3;    // an output file could not be written
constexpr int kExitInternal = 4;  // a bug in splgen

struct CommandError : std::runtime_error {
  int exit_code;
  CommandError(int code, const std::string &message) : std::runtime_error(message), exit_code(code) {}
};

}  // namespace splgen::cli
