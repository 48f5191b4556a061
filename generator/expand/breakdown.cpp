#include "generator/expand/breakdown.h"

#include "generator/ir/divisors.h"

#include <fmt/format.h>

#include <stdexcept>

namespace splgen::expand {

int64_t largest_prime_factor(int64_t n) {
  std::vector<int64_t> primes = prime_factors_of(n);
  return primes.empty() ? 1 : primes.back();
}

bool is_smaller_problem(int64_t child, int64_t n) {
  return child < n || largest_prime_factor(child) < largest_prime_factor(n);
}

namespace {

bool is_dft(const Spl &f) { return f->kind == SplKind::DFT; }

// DFT_Codelet: DFT(n) for small n is a leaf, emitted as straight-line code
// (generator/lower/codelet.h builds it from the rules below, fully unrolled).
BreakdownRule codelet_rule() {
  return {"DFT_Codelet", [](const Spl &f) { return is_dft(f) && is_codelet_size(f->a); },
          [](const Spl &) { return std::vector<BreakdownChoice>{{"unrolled", {}}}; },
          [](const Spl &f, const BreakdownChoice &, const std::vector<Spl> &) { return f; }};
}

// DFT_Direct: y[k] = sum_l x[l] w_n^(k l) as an O(n^2) loop: the fallback when no rule-file
// rule breaks DFT(n) into smaller DFTs (large primes without a Rader rule).
BreakdownRule direct_rule() {
  return {"DFT_Direct",
          [](const Spl &f) { return is_dft(f) && !is_codelet_size(f->a); },
          [](const Spl &) { return std::vector<BreakdownChoice>{{"O(n^2) loop", {}}}; },
          [](const Spl &f, const BreakdownChoice &, const std::vector<Spl> &) { return f; }};
}

}  // namespace

const std::vector<BreakdownRule> &dft_breakdown_rules() {
  static const std::vector<BreakdownRule> rules = {codelet_rule(), direct_rule()};
  return rules;
}

const BreakdownRule &find_breakdown_rule(const std::string &name) {
  for (const BreakdownRule &r : dft_breakdown_rules())
    if (r.name == name) return r;
  throw std::invalid_argument("unknown breakdown rule " + name);
}

}  // namespace splgen::expand
