// splgen bench (docs/cli.md): splgen's kernels against FFTW3, size by size.
//   splgen bench [SPEC] [--sizes LIST] [--isa ISA] [--precision double|float] [--inverse]
//                [--rules FILE]... [--prefer-rules] [--only-rules NAMES] [--compare default] [--reps N] [--min-time-ms T] [--no-patient] [--compiler CXX]
//                [--flags "..."] [--csv FILE] [--json FILE] [--plot FILE.svg] [--quiet]
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "generator/driver/io_layout.h"

namespace splgen::cli {

struct BenchArgs {
  std::string spec;
  std::string sizes;
  std::string isa = "native";
  std::string precision = "double";
  bool inverse = false;
  std::vector<std::string> rule_files;
  bool prefer_rules = false;            // --prefer-rules
  std::vector<std::string> only_rules;  // --only-rules NAMES
  std::string compare;                  // --compare default: the rules' kernel against the default one
  int reps = 0;  // 0: by size
  double min_time_ms = 0.5;
  bool no_patient = false;
  std::string compiler;
  std::string flags = "-O3 -march=native";
  std::string csv, json, plot;
  bool quiet = false;
  int64_t codelet_max = 0, top_codelet_max = 0;  // expansion knobs (0: the target's default)
  bool masked_remainders = false;
  std::string wisdom;  // --wisdom FILE: time the searched plan (and the default beside it)
  int threads = 1;     // --threads P: P-worker kernels against FFTW with P threads
  std::string threading = "openmp";
  driver::IoLayoutOptions io;          // --batch, strides, --in-place: bench_layout.h
  std::string format = "interleaved";  // --format
  std::string target = "cpp";  // --target mpi: distributed kernels against FFTW-MPI (docs/mpi.md)
  int ranks = 1;               // --ranks P
  std::string decomposition = "slab", grid;  // --decomposition slab|pencil, --grid P0xP1 (3D)
  int overlap = 1;                            // --overlap K (2D/3D slabs, pencils)
  // --target cuda (bench_cuda_command.h): GPU kernels against cuFFT
  bool batch_auto = false;     // --batch auto: batches filling >= 256 MiB
  std::string arch = "native";  // --arch: nvcc -arch
  std::string keep;            // --keep DIR: each spec's files and scripts, kept
  bool no_run = false;         // --no-run: with --keep, only write them
  std::string results;         // --results FILE: the table of what DIR/run_all.sh printed
  std::string gpu_knobs;       // --gpu-knobs K=V,...: the GPU kernels' parameters
};

// Adds the subcommand and its options, stored into args.
CLI::App *add_bench_command(CLI::App &app, BenchArgs &args);

// Runs it; throws CommandError (command_error.h), parse::ParseError or FormulaError on bad input.
int run_bench(const BenchArgs &args);

}  // namespace splgen::cli
