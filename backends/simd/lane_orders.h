// Which vector loops run their lanes in natural order (register lane k computes iteration k)
// rather than in the interleaved order of VectorKind::lane_order (AVX2 double 0 2 1 3).
//
// The interleaved order is what two whole-register loads of interleaved complex data and one
// unpack deliver; pointer-per-lane helpers and split-format arrays take any order. A loop
// whose lane-dependent contiguous accesses are all to split buffers (split_helpers.h) or to
// presplit tables (presplit_tables.h) runs in natural order: its split loads need no permute.
// Only loops with such a split access change order (interleaved kernels keep their bytes). A
// presplit table is printed in natural order when every loop that reads it runs so; a loop
// that reads a table printed in the interleaved order does not (repeated until both agree).
//
// Measured: DFT(64) --format split, AVX2 double, against the interleaved kernel: 0.70x with a
// permute after every split load and before every split store, 1.14x without (Zen 3, one
// interleaved bench run).
#pragma once
#include <map>
#include <set>

#include "generator/ir/loops.h"

namespace splgen::backends::simd {

struct LaneOrders {
  std::set<const StmtNode *> natural_loops;
  std::set<int> natural_tables;  // presplit tables whose blocks are in natural order
};

// presplit: presplit_tables(f, printed).
LaneOrders plan_lane_orders(const Function &f, const std::map<int, int> &presplit);

}  // namespace splgen::backends::simd
