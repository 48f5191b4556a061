#include "generator/measure/timer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace splgen::measure {

double time_once(const Workload &run, std::int64_t times) {
  auto start = std::chrono::steady_clock::now();
  run(times);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::int64_t calibrate(const Workload &run, double min_seconds) {
  run(1);  // warm caches, fault in pages, resolve lazy bindings
  std::int64_t times = 1;
  for (;;) {
    double t = time_once(run, times);
    if (t >= min_seconds) return times;
    // Aim 10% past the target from the rate seen, growing at most 100x per step so that one
    // unlucky fast reading does not make a sample last seconds.
    double scale = t > 0 ? std::min(100.0, 1.1 * min_seconds / t) : 100.0;
    times = std::max(times + 1, std::int64_t(std::ceil(double(times) * scale)));
  }
}

double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  auto mid = values.begin() + std::ptrdiff_t(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  double upper = *mid;
  double lower = *std::max_element(values.begin(), mid);
  return (lower + upper) / 2;
}

std::vector<Timing> time_interleaved(const std::vector<Workload> &workloads, const TimingOptions &options) {
  if (options.repetitions < 1) throw std::invalid_argument("time_interleaved: repetitions must be at least 1");
  const std::size_t k = workloads.size();
  std::vector<Timing> out(k);
  for (std::size_t i = 0; i < k; ++i) out[i].times = calibrate(workloads[i], options.min_sample_seconds);
  for (int rep = 0; rep < options.repetitions; ++rep) {
    for (std::size_t j = 0; j < k; ++j) {
      std::size_t i = (std::size_t(rep) + j) % k;
      double t = time_once(workloads[i], out[i].times);
      out[i].samples_ns.push_back(t * 1e9 / double(out[i].times));
    }
  }
  for (Timing &t : out) {
    t.median_ns = median(t.samples_ns);
    t.min_ns = *std::min_element(t.samples_ns.begin(), t.samples_ns.end());
  }
  return out;
}

}  // namespace splgen::measure
