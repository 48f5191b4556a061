// splgen model (docs/mpi.md, "The model"): the predicted time of a distributed kernel, stage by
// stage, for each rank count of --ranks, on a machine given by its node speed, memory and
// network (generator/driver/scale_model.h).
//   splgen model SPEC [--ranks LIST] [--node-gflops G] [--memory-gbs M] [--link-gbits B]
//                [--latency-us L] [--precision P] [--decomposition slab|pencil]
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace splgen::cli {

struct ModelArgs {
  std::string spec;
  std::string ranks = "2..4096";
  double node_gflops = 10, memory_gbs = 10, link_gbits = 100, latency_us = 2;
  std::string precision = "double";
  std::string decomposition = "slab";  // --decomposition slab|pencil (3D)
};

CLI::App *add_model_command(CLI::App &app, ModelArgs &args);
int run_model(const ModelArgs &args);

}  // namespace splgen::cli
