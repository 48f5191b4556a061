// SPL -> Sigma-SPL with the tensor identities of docs/design.md, "Sigma-SPL":
//   I(n) (x) A_m = Sum(j<n) S(h(j*m, 1)) A_m G(h(j*m, 1))
//   A_m (x) I(n) = Sum(j<n) S(h(j, n))   A_m G(h(j, n))
//   A (x) B      = (A (x) I) (I (x) B)
//   A (+) B      = S(h(0,1)) A G(h(0,1)) + S(h(m,1)) B G(h(m,1))
// and, for formulas out of cache (LoweringKnobs), two locality forms:
//   X (x) I(n)   = Sum(k < n/c) S(q(k, n/c, c)) (X (x) I(c)) G(q(k, n/c, c))  (blocks of columns)
//   (I(m) (x) A) L(mn, m) as an explicit blocked transposition, then contiguous children
// permutations become gathers, diagonals Diag nodes, DFT leaves kernels. Tags are passed
// through (their rewriting belongs to the tag rules).
#pragma once
#include <functional>
#include <optional>

#include "generator/ir/sigma.h"

namespace splgen::lower {

// Tuning knobs of the lowering (measured on Zen 3: 32 KiB L1, 512 KiB L2 per core).
struct LoweringKnobs {
  // A composite X (x) I(n) over more points than this runs in blocks of columns of at most
  // this many points each (256 KiB of double complex: half of L2).
  static constexpr int64_t kBlockPoints = 16384;
  // Blocks have at least this many adjacent columns (a 64-byte line of float complex, two
  // of double; a full AVX2 float vector loop).
  static constexpr int64_t kMinBlockColumns = 8;
  // The number of columns c (a divisor of n) per block of X (x) I(n), X with `rows` rows, when
  // the whole runs under I(outer) (X (x) I(n) (x) I(outer), the loop over I(outer) innermost);
  // n when it is small enough to run whole.
  static int64_t block_columns(int64_t rows, int64_t n, int64_t outer, int64_t block_points = kBlockPoints,
                               int64_t min_columns = kMinBlockColumns);
};

// Consulted at every node before the identities: the node's Sigma-SPL, or nothing to lower
// it by the identities (lower_with_rules passes the rules with Sigma-SPL right sides).
using LoweringHook = std::function<std::optional<Sigma>(const Spl &)>;

// How composite X (x) I(n) and (I(m) (x) X) L are blocked for locality.
struct Blocking {
  // LoweringKnobs::kBlockPoints (a cache's), a smaller budget (tests check the blocked forms on
  // matrices small enough to compare densely), or kNoBlocking (lower_with_rules.h).
  int64_t points = LoweringKnobs::kBlockPoints;
  int64_t min_columns = LoweringKnobs::kMinBlockColumns;  // the fewest adjacent columns of a block
  // (I(m) (x) X) L out of the budget as a transposition pass, then X on contiguous data
  // (a CPU's caches); a GPU's groups read their columns through shared memory instead.
  bool transpose_pass = true;
};

// Loop variables are numbered from first_var.
Sigma lower_to_sigma(const Spl &formula, const LoweringHook &hook = {}, int first_var = 0, const Blocking &blocking = {});

}  // namespace splgen::lower
