// The rule checker (docs/rule-language.md, "The checker").
//
// The size variables of the left side (and, for a formula variable written without a
// shape, its rows and columns) are enumerated from 1 with their product at most
// max_size (which keeps the search finite), in order of increasing sum, then
// lexicographically; an assignment is an instance when the conditions hold and the left
// side, instantiated like a right side with random dense matrices (seeded) for its formula
// variables, is at most max_size x max_size. Both sides' dense matrices are compared
// (Sigma-SPL right sides: to_dense of the Sigma-SPL, and the loop code of
// sigma_to_loops(merge_loops(...)) run by interpret() on unit vectors) within 1e-8 of the
// left side's Frobenius norm (at least 1). The first failing instance in that order is the
// counterexample; at most max_instances instances are compared, within a work budget
// (kCheckBudget) so that large instances do not make a check slow. Tuples are produced one
// at a time (size_tuples.h), at most kMaxCheckTuples of them. A rule with SPL sides that
// holds on them is then checked on a few random large instances (large_instances.h).
#pragma once
#include "generator/rewrite/engine.h"

namespace splgen::prove {

struct CheckOptions {
  int64_t max_size = 512;  // bound on the rows and columns of each instance's left side
  unsigned seed = 1;
};
struct CheckResult {
  const Rule *rule = nullptr;
  bool ok = false;
  int instances = 0;           // instantiations compared as dense matrices
  int large_instances = 0;     // large instances compared on a random vector (large_instances.h)
  std::string counterexample;  // the smallest failing instance: bindings and max abs error
  std::string error;           // no instance, or an instantiation failed
};
CheckResult check_rule(const Rule &rule, const CheckOptions &options = {});


inline constexpr int kMaxCheckInstances = 200;
// At most this many size tuples are tried (conditions evaluated) per rule.
inline constexpr int64_t kMaxCheckTuples = int64_t(1) << 18;
// A bound on the work of one rule's dense checks, in units of rows*cols*max(rows, cols) of
// the instances compared (times 4 for Sigma-SPL right sides, whose loop code is
// interpreted): instances beyond it are skipped (the first one is always compared).
inline constexpr double kCheckBudget = double(1 << 22);

// As check_rule, with a bound on the number of instances compared.
CheckResult check_rule_limited(const Rule &rule, const CheckOptions &options, int max_instances);

}  // namespace splgen::prove
