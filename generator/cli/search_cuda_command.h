// splgen search --target cuda (docs/cuda.md, "Search"): the GPU kernel's parameters timed
// against cuFFT on this machine's GPU (generator/search/cuda_search.h).
//   splgen search SPEC --target cuda [--batch N|auto] [--precision P] [--inverse] [--arch sm_XX]
//                 [--codelet-max N] [--gpu-knobs K=V,...] [--budget T] [--max-candidates N]
//                 [--jobs J] [--reps N] [--keep-dir DIR [--no-run]] [--results FILE] [--wisdom FILE]
#pragma once
#include <CLI/CLI.hpp>

#include "generator/cli/search_command.h"

namespace splgen::cli {

void add_cuda_search_options(CLI::App *cmd, SearchArgs &args);
// For the CPU target: the GPU's options are refused in one line.
void check_no_cuda_search_options(const SearchArgs &args);
int run_cuda_search_command(const SearchArgs &args);

}  // namespace splgen::cli
