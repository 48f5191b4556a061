// Runs a program (the built splgen) with arguments and captures its exit code and output, for
// end-to-end tests of the command.
#pragma once
#include <string>
#include <vector>

namespace splgen::test {

struct ProgramResult {
  int exit_code = -1;  // -1 when it did not exit normally
  std::string out, err;
};

// Runs PROGRAM ARGS... with stdin from /dev/null; stdout and stderr go through files in scratch_dir.
ProgramResult run_program(const std::string &program, const std::vector<std::string> &args,
                          const std::string &scratch_dir);

std::string read_text_file(const std::string &path);  // "" when it cannot be read
std::vector<std::string> text_lines(const std::string &text);

}  // namespace splgen::test
