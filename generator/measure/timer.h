// Interleaved median timing (docs/design.md, "Measuring"): the machines are shared and noisy, so
// implementations of one transform are timed in turn within each repetition (a burst of noise
// hits them all alike) and the median over repetitions is kept.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace splgen::measure {

// run(times) performs the operation `times` times in a row.
using Workload = std::function<void(std::int64_t times)>;

struct TimingOptions {
  int repetitions = 31;              // samples per workload; the median is reported
  double min_sample_seconds = 5e-4;  // each sample repeats the operation for at least this long
};

struct Timing {
  double median_ns = 0;        // per operation
  double min_ns = 0;           // per operation, the fastest sample
  std::int64_t times = 0;      // operations per sample (calibrated once)
  std::vector<double> samples_ns;  // per operation, in repetition order
};

// Seconds taken by run(times).
double time_once(const Workload &run, std::int64_t times);

// How many operations make one sample last at least min_seconds (after a warm-up run).
std::int64_t calibrate(const Workload &run, double min_seconds);

// Calibrates each workload, then takes `repetitions` rounds; each round times every workload
// once, starting at a different one each round so that none always goes first.
std::vector<Timing> time_interleaved(const std::vector<Workload> &workloads, const TimingOptions &options);

double median(std::vector<double> values);  // NaN when empty

}  // namespace splgen::measure
