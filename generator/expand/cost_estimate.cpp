#include "generator/expand/cost_estimate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>

#include "generator/expand/breakdown.h"
#include "generator/ir/divisors.h"
#include "generator/rewrite/functions.h"

namespace splgen::expand {

namespace {

// The cost of one pass over a point outside a codelet (a load and a store through an index
// table or a twiddle), in flops. Calibrated on the Rader / Bluestein crossover (bench, Zen 3,
// AVX2, double): Rader's nested passes made DFT(10007) (10006 = 2 x 5003, 5003 - 1 = 2 x 41 x 61)
// run at 0.66 pseudo-Gflop/s, while 1009 (1008 = 2^4 3^2 7) ran at 6 Gflop/s, 3.7x FFTW.
constexpr double kPassCost = 16.0;

// A codelet stage of radix q per point: 5 log2 q flops for the radices genfft-style codelets
// do in O(q log q), about 2q for a prime radix above 5 (its codelet is nearly the O(q^2) sum).
double radix_cost(int64_t q) { return q <= 5 ? 5.0 * std::log2(double(q)) : 2.0 * double(q); }

double cost_of(int64_t n);

// A prime above the codelet size: Rader (two DFT(p-1)) or Bluestein (two DFT(M)).
double prime_cost(int64_t p) {
  double rader = estimated_choice_cost(p, {p - 1, p - 1});
  int64_t M = rewrite::bluestein_size(p);
  return std::min(rader, estimated_choice_cost(p, {M, M}));
}

// Stages of radix q for every prime factor q; a prime factor above the codelet size is a
// sub-transform of its own, run n / q times. The passes: one per codelet-sized group of stages.
double factored_cost(int64_t n) {
  double cost = 0, log_codelet = std::log2(double(kCodeletMax));
  for (int64_t q : prime_factors_of(n))
    cost += q <= kCodeletMax ? double(n) * radix_cost(q) : double(n / q) * cost_of(q);
  double passes = std::ceil(std::log2(double(n)) / log_codelet);
  return cost + (passes > 1 ? kPassCost * double(n) * passes : 0.0);
}

double cost_of(int64_t n) {
  static std::mutex mutex;
  static std::map<int64_t, double> memo;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memo.find(n); it != memo.end()) return it->second;
  }
  double cost = n <= 1 ? 0.0 : (n > kCodeletMax && largest_prime_factor(n) == n) ? prime_cost(n) : factored_cost(n);
  std::lock_guard<std::mutex> lock(mutex);
  memo.emplace(n, cost);
  return cost;
}

}  // namespace

double estimated_dft_cost(int64_t n) { return cost_of(n); }

double estimated_choice_cost(int64_t n, const std::vector<int64_t> &children) {
  if (children.empty()) return HUGE_VAL;  // a right side without DFTs: a last resort, as before
  int64_t product = std::accumulate(children.begin(), children.end(), int64_t(1), std::multiplies<>());
  double cost = 0;
  if (product == n) {
    for (int64_t c : children) cost += double(n / c) * cost_of(c) + kPassCost * double(n);
    return cost;
  }
  for (int64_t c : children) cost += cost_of(c) + kPassCost * double(c);
  return cost + kPassCost * double(n);
}

}  // namespace splgen::expand
