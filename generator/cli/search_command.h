// splgen search (docs/cli.md, docs/search.md): time candidate plans, keep the fastest, remember it.
//   splgen search SPEC [--isa ISA] [--precision double|float] [--inverse]
//                 [--strategy dp|random|exhaustive|estimate] [--budget DURATION] [--keep K]
//                 [--splits N] [--seed S] [--max-candidates N] [--jobs J] [--wisdom FILE] [--compiler CXX]
//                 [--flags=FLAGS] [--reps N] [--quiet] [--rules FILE]...
// splgen wisdom show FILE (wisdom_command.h)
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace splgen::cli {

struct SearchArgs {
  std::string spec;
  std::string isa = "native";
  std::string precision = "double";
  bool inverse = false;
  std::vector<std::string> rule_files;  // --rules FILE: their breakdown rules join the space
  std::string strategy = "dp";
  std::string budget;     // "" : no bound
  int keep = 2;
  int splits = 0;              // dp: splits timed per node (SearchOptions::model_splits; 0: all)
  unsigned seed = 1;
  int max_candidates = 300;
  int jobs = 0;           // 0: the available cores
  std::string wisdom;
  std::string compiler;
  std::string flags = "-O3 -march=native";
  int reps = 9;
  int show = 20;          // rows of the table
  bool quiet = false;
  int threads = 1;  // --threads P: candidates run P workers
  std::string threading = "openmp";
  // --target cuda (search_cuda_command.h)
  std::string target = "cpp";
  std::string batch = "1";     // N or auto
  std::string arch = "native"; // nvcc -arch, and the shared memory of the kernels
  std::string gpu_knobs;       // the knobs the candidates vary around
  int64_t codelet_max = 0;
  std::string keep_dir;        // each candidate's files and run_all.sh, kept
  bool no_run = false;         // with keep_dir: only write them
  std::string results;         // what run_all.sh printed on a GPU machine
};

CLI::App *add_search_command(CLI::App &app, SearchArgs &args);

// --budget in seconds (0: none); CommandError(kExitUsage), one line, for a bad duration.
double budget_seconds(const SearchArgs &args);

// Runs it; throws CommandError (command_error.h), parse::ParseError or FormulaError on bad input.
int run_search(const SearchArgs &args);

}  // namespace splgen::cli
