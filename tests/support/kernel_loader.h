// The tests' names for compiling and loading generated code, which lives in the core library
// (generator/measure/compile.h) so that the benchmark and the search use it too.
#pragma once
#include "generator/measure/compile.h"

namespace splgen::test {

using measure::compile_shared_object;
using measure::default_compiler;
using measure::have_program;
using measure::SharedObject;
using measure::run_command;
using measure::shell_quote;

// A temporary directory named splgen-test-XXXXXX.
class TempDir : public measure::TempDir {
 public:
  explicit TempDir(const std::string &prefix = "splgen-test") : measure::TempDir(prefix) {}
};

}  // namespace splgen::test
