// splgen run-file (docs/cli.md): generate the streamed kernel for SPEC, compile and load it, and
// run it out of core through its NAME_stores entry on a file of complex numbers, reporting its
// time against the transfer bound (the passes times one sequential read and write of the data
// on the same file system; docs/streaming.md, "Out of core"). Needs a C++ compiler, not FFTW3.
//   splgen run-file SPEC --file IN -o OUT [--in-place] [--local-memory BYTES] [--buffers S]
//                   [--dma thread|sync] [--layout L] [--precision P] [--isa ISA] [--inverse]
//                   [--compiler CXX] [--flags=FLAGS]
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace splgen::cli {

struct RunFileArgs {
  std::string spec, input, output;
  bool in_place = false;
  int buffers = 2;
  int64_t local_memory = 0;
  std::string dma = "thread", layout = "natural";
  std::string precision = "double", isa = "native";
  bool inverse = false;
  int check_bins = 4;  // bins of y checked against O(N) long double sums before OUT is replaced; 0: none
  std::string compiler, flags = "-O3 -march=native";
};

CLI::App *add_run_file_command(CLI::App &app, RunFileArgs &args);

// Prints the report; 0 on success. Throws CommandError (one line: exit 2 for bad input, 3 when
// the output cannot be written), parse::ParseError or FormulaError. OUT is replaced only by a
// run that finished (written to OUT.tmp.PID, renamed after fsync).
int run_run_file(const RunFileArgs &args);

}  // namespace splgen::cli
