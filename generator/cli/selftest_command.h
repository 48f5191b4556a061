// splgen selftest (docs/cli.md): generate the kernel for SPEC, compile and load it, and check
// it without a reference FFT (Ergun's impulse, linearity and time-shift checks,
// generator/kernel/selftest.h). Needs a C++ compiler, not FFTW3.
//   splgen selftest SPEC [--against DFT] [--inverse] [--precision P] [--isa ISA] [--rules FILE]...
//                   [--compiler CXX] [--flags=FLAGS] [--rounds N] [--seed S] [--tolerance T]
//                   [--source FILE [--name NAME]]   (check that file's kernel instead)
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace splgen::cli {

struct SelftestArgs {
  std::string spec;
  std::string against;  // the DFT the kernel must compute; default: SPEC itself
  std::string source;   // a kernel source (e.g. from `splgen gen`) to check instead of generating one
  std::string name;     // its function; default: gen's name for SPEC
  std::string precision = "double";
  std::string isa = "scalar";
  std::string target = "cpp";
  bool inverse = false;
  std::vector<std::string> rule_files;
  int64_t codelet_max = 0, top_codelet_max = 0;
  int threads = 1;
  std::string threading = "openmp";
  std::string compiler;
  std::string flags = "-O2";
  int rounds = 10;
  uint64_t seed = 1;
  double tolerance = 0;  // 0: the default of the precision and size
};

CLI::App *add_selftest_command(CLI::App &app, SelftestArgs &args);

// Prints one line per check; returns 0 when all pass, 1 when one fails. Throws CommandError,
// parse::ParseError or FormulaError on bad input.
int run_selftest(const SelftestArgs &args);

}  // namespace splgen::cli
