// splgen bench --target cuda (docs/cuda.md, "Benchmarking on a GPU machine"): GPU kernels
// against cuFFT, here or, with --keep DIR [--no-run], on a machine that has the GPU but not
// splgen. Its own options (--arch, --keep, --no-run) and --batch auto are added here.
#pragma once
#include <CLI/CLI.hpp>

#include "generator/cli/bench_command.h"

namespace splgen::cli {

// --arch, --keep, --no-run; and "auto" admitted by --batch (BenchArgs::batch_auto).
void add_cuda_bench_options(CLI::App *cmd, BenchArgs &args);

// Refuses them without --target cuda (CommandError, usage).
void check_no_cuda_options(const BenchArgs &args);

// Runs bench --target cuda; CommandError on bad options, no nvcc or no GPU (one line).
int run_cuda_bench(const BenchArgs &args);

}  // namespace splgen::cli
