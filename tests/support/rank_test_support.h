// What the distributed-kernel unit tests share: random inputs, the largest difference, and the
// cases, options and header lines of the overlap tests.
#pragma once
#include <algorithm>
#include <ostream>
#include <string>
#include <cstdint>
#include <random>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"

namespace splgen::driver::testing {

// n complex values uniform in [-1, 1]^2, the same for the same n and seed.
inline std::vector<cplx> random_vector(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(uint64_t(n) * seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cplx> x(static_cast<std::size_t>(n));
  for (cplx &v : x) v = cplx(u(rng), u(rng));
  return x;
}

inline double max_error(const std::vector<cplx> &a, const std::vector<cplx> &b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

// What run_pipeline says of SPEC: its one-line FormulaError, or "accepted".
inline std::string refusal(const std::string &spec, const GenOptions &o) {
  try {
    run_pipeline(spec, o);
  } catch (const FormulaError &e) {
    return std::string(e.what());
  }
  return std::string("accepted");
}

// One kernel of an overlap test: SPEC on RANKS ranks (0: the spec's own par tag), --overlap K.
struct OverlapCase {
  std::string spec;
  int ranks;
  int overlap;
  Precision precision = Precision::Double;
};
inline void PrintTo(const OverlapCase &c, std::ostream *os) {
  *os << c.spec << " on " << c.ranks << " ranks, --overlap " << c.overlap;
}

inline GenOptions overlap_options(int ranks, int overlap, Precision precision = Precision::Double) {
  GenOptions o;
  o.target = "mpi", o.ranks = ranks, o.overlap = overlap, o.precision = precision;
  return o;
}

// The header comment's lines on the distribution of x and y ("none" for a missing one).
inline std::string distribution(const std::string &source) {
  std::string out;
  for (const char *line : {"// distributed: ", "// x: ", "// y: "}) {
    const std::size_t at = source.find(line);
    out += at == std::string::npos ? "none\n" : source.substr(at, source.find('\n', at) - at + 1);
  }
  return out;
}

}  // namespace splgen::driver::testing
