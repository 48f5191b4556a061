#include "generator/driver/size_limits.h"

#include <fmt/format.h>

#include "generator/expand/breakdown.h"
#include "generator/ir/print.h"

namespace splgen::driver {

namespace {

int log2_of(int64_t n) {
  int k = 0;
  while ((int64_t(1) << k) < n) ++k;
  return k;
}

void check_dft_size(const Spl &dft, int64_t n, int64_t ranks, int64_t max_points) {
  if (n / ranks > max_points)
    throw FormulaError(fmt::format("{}: {} points is above splgen's size limit of 2^{} = {} points{} (docs/cli.md, "
                                   "\"Size limits\")", print(dft), n, log2_of(max_points), max_points,
                                   max_points == kMaxInplacePoints ? " for the in-place large 1D kernel"
                                   : max_points == kMaxGpuPoints   ? " for a GPU kernel"
                                   : ranks > 1                     ? fmt::format(" per rank on {} ranks", ranks)
                                                                   : ""));
  if (int64_t p = expand::largest_prime_factor(n); p > kMaxPrimeFactor)
    throw FormulaError(fmt::format("{}: the prime factor {} is above splgen's size limit for prime factors of a DFT, "
                                   "2^20 = {} (docs/cli.md, \"Size limits\")", print(dft), p, kMaxPrimeFactor));
}

void check_node(const Spl &f, int64_t ranks, int64_t max_points) {
  if (f->kind == SplKind::DFT) check_dft_size(f, f->a, ranks, max_points);
  if (f->kind == SplKind::DFTnd)
    for (int64_t n : f->perm) check_dft_size(f, n, 1, max_points);
  for (const Spl &child : f->children) check_node(child, ranks, max_points);
}

}  // namespace

void check_size_limits(const Spl &spec, int64_t ranks, bool inplace, bool gpu) {
  const int64_t max_points = inplace ? kMaxInplacePoints : gpu ? kMaxGpuPoints : ranks > 1 ? kMaxRankPoints : kMaxPoints;
  check_node(spec, ranks, max_points);  // first: the message names the DFT
  if (inplace) return;
  if (spec->rows / ranks > max_points || spec->cols / ranks > max_points)
    throw FormulaError(fmt::format("the spec is {} x {}{}: above splgen's size limit of 2^{} = {} points{} (docs/cli.md, "
                                   "\"Size limits\")", spec->rows, spec->cols,
                                   ranks > 1 ? fmt::format(" on {} ranks", ranks) : "", log2_of(max_points), max_points,
                                   ranks > 1 ? " per rank" : ""));
}

}  // namespace splgen::driver
