// Large instances for the rule checker (generator/prove/checker.h). Dense matrices prove a
// rule only up to a few hundred points; a rule that is false only for large sizes (a
// condition `if n > 4096` choosing a wrong twiddle) would pass them. So rules with SPL
// sides are also instantiated at a few random sizes above the dense bound, up to
// kLargeMaxSize, and both sides are applied to one random vector without building a matrix
// (apply_spl, generator/ir/apply.h: O(n log n) for DFTs), compared in relative 2-norm.
//
// Sizes are random (seeded, so the result is deterministic): each size variable is, at
// random, small (1..8), a smooth number (products of 2, 3, 5, 7) or a prime, log-uniform
// up to kLargeMaxSize; formula variables are random dense matrices of at most 64 x 64.
// Assignments whose conditions fail, or whose left side is no larger than the dense bound,
// are skipped; at most kLargeAttempts are drawn.
#pragma once
#include <cstdint>
#include <string>

#include "generator/prove/checker.h"

namespace splgen::prove {

inline constexpr int64_t kLargeMaxSize = int64_t(1) << 20;
// Rules that call @functions: their tables may cost O(n^2) to build (Rader), so smaller.
inline constexpr int64_t kLargeMaxSizeWithCalls = int64_t(1) << 10;
inline constexpr int kLargeInstances = 3;
// The sum of the sizes of one rule's large instances: keeps `rules check rules/` fast.
inline constexpr int64_t kLargeBudget = int64_t(1) << 20;
inline constexpr int kLargeAttempts = 1000;

struct LargeCheckResult {
  int instances = 0;           // large instances compared
  std::string counterexample;  // the first failing one, as "m=..., n=...: relative error ..."
};

// Whether check_large_instances applies to the rule (both sides SPL).
bool has_large_instances(const Rule &rule);
LargeCheckResult check_large_instances(const Rule &rule, const CheckOptions &options);

}  // namespace splgen::prove
