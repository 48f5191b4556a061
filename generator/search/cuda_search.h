// search --target cuda (docs/cuda.md, "Search"): the GPU kernel's parameters timed against
// cuFFT on this machine's GPU, the fastest kept. A candidate is a codelet size (the radix of the
// expansion) and the GPU form's knobs (generator/ir/gpu_knobs.h): staging, direct stores,
// threads per block, the four-step's factor, grid-stride block size. Each is generated; ones
// whose source is the same as an earlier one's are dropped; the rest are built with nvcc
// (several at once) and timed one at a time by bench --target cuda's program, each against
// cuFFT in the same process, interleaved, medians. The candidate with the best time relative to
// cuFFT wins (the ratio cancels the card's clock drift between programs); one whose output is
// off cuFFT's by more than the search's tolerance never does.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/measure/cuda_bench.h"

namespace splgen::search {

// The variants of `spec` (one transform, batch gen.io.batch) the search times, at most `limit`,
// distinct by source: gen's own (its codelet_max and gpu knobs) first, then the others by how
// many knobs they change, fewest first.
std::vector<measure::CudaVariant> cuda_candidates(const std::string &spec, const driver::GenOptions &gen, int limit);

// The row that wins: the best cuFFT time over splgen time among rows with a time and an error
// against cuFFT within error_tolerance(precision); nullopt when none has.
std::optional<std::size_t> best_cuda_row(const std::vector<measure::CudaBenchRow> &rows, Precision precision);

struct CudaSearchResult {
  measure::CudaBenchResult bench;  // one row per candidate timed (or failed), in the order timed
  std::optional<std::size_t> best;
};

// bench: arch, repetitions, keep/no_run, budget, jobs; its specs, batch, precision, direction,
// variants are set here from `spec` and `gen`. Throws as run_cuda_bench does.
CudaSearchResult run_cuda_search(const std::string &spec, const driver::GenOptions &gen, measure::CudaBenchOptions bench,
                                 int limit, const std::function<void(const std::string &)> &progress);

}  // namespace splgen::search
