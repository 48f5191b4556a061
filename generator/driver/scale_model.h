// The scale model of distributed kernels (docs/mpi.md, "The model"): for a machine of p nodes
// (each node's speed, the network's bandwidth and latency per node), the time of each rank's
// steps (lower/distribute_ranks.h) for p = 2 .. 4096, from the formula alone: what the par
// rules make for that p, not a formula fitted to measurements.
//   local step:  its pseudo-flops (5 m log2 m per DFT(m) it applies, 6 per twiddle) / node speed,
//                or, with no arithmetic (a permutation), 2 * its bytes / memory bandwidth
//   exchange:    (g - 1) * latency + its bytes leaving the node ((g - 1)/g of the local part) / bandwidth,
//                g = p, or a pencil grid's row or column (p1 or p0 ranks)
// (an all-to-all whose messages cross a network of full bisection; a rank sends and receives at
// once, as on a full-duplex link).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "generator/driver/pipeline.h"

namespace splgen::driver {

struct Machine {
  double node_gflops = 10;       // pseudo-Gflop/s of one node on its local steps (from splgen bench)
  double memory_gbytes = 10;     // GB/s of one node's memory, for permutation steps
  double link_gbytes = 12.5;     // GB/s a node sends (100 Gb/s = 12.5 GB/s)
  double latency_us = 2;         // per message
};

struct StepTime {
  bool exchange = false;
  double seconds = 0;
};

struct Prediction {
  int ranks = 0;
  std::array<int, 2> grid{};  // a pencil kernel's
  std::vector<StepTime> steps;
  double compute = 0, exchange = 0, total = 0;  // seconds
};

// The prediction for `ranks` ranks (options.ranks is replaced); FormulaError where the par
// rules cannot distribute the spec over that many.
Prediction predict(const std::string &spec, GenOptions options, int ranks, const Machine &machine);

// 5 m log2 m per DFT(m) applied, 6 per twiddle multiplication, per rank (one iteration of a Sum_par).
double pseudo_flops(const Sigma &step);

}  // namespace splgen::driver
