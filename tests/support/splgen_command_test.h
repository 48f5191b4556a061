// The fixture of the end-to-end tests of the splgen command (cli_test, bench_cli_test,
// search_cli_test): it runs the built binary (SPLGEN_BINARY, set by tests/CMakeLists.txt) in a
// scratch directory and checks that bad input fails the way docs/cli.md says.
// Header-only: splgen_test_support does not link GoogleTest.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"

#ifndef SPLGEN_BINARY
#error "SPLGEN_BINARY must name the splgen executable"
#endif

namespace splgen::test {

inline bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

class SplgenCommandTest : public ::testing::Test {
 protected:
  explicit SplgenCommandTest(const std::string &scratch_prefix) : dir(scratch_prefix) {}

  TempDir dir;

  ProgramResult splgen(const std::vector<std::string> &args) {
    return run_program(SPLGEN_BINARY, args, dir.path().string());
  }

  // Bad input: exit EXIT_CODE, nothing on stdout, exactly one line "splgen: error: ..." on
  // stderr (mentioning PART).
  ProgramResult expect_error(const std::vector<std::string> &args, int exit_code = 2) {
    return expect_error(args, "", exit_code);
  }
  ProgramResult expect_error(const std::vector<std::string> &args, const std::string &part, int exit_code = 2) {
    ProgramResult r = splgen(args);
    EXPECT_EQ(r.exit_code, exit_code) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(text_lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("splgen: error: ", 0), 0u) << r.err;
    EXPECT_FALSE(r.err.empty() || r.err.back() != '\n') << "stderr must end with a newline";
    EXPECT_TRUE(contains(r.err, part)) << r.err;
    return r;
  }
};

}  // namespace splgen::test
