// Prints one vectorised loop (For with vector_width > 1, see generator/lower/vectorize_loops.h)
// as SIMD intrinsics: every scalar of the body becomes a vector whose lane l computes
// iteration base + l; complex loads and stores go through the split-complex helpers of
// simd_isa.h (split-format buffers: split_helpers.h); a*b + c becomes a fused multiply-add
// where the ISA has one.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "backends/simd/simd_isa.h"
#include "generator/ir/loops.h"

namespace splgen::backends::simd {

// What the vector printer needs from the emitter that prints the rest of the kernel.
class ScalarNames {
 public:
  virtual ~ScalarNames() = default;
  virtual std::string pointer(int buffer, const Idx &index) = 0;            // "y + 2*i0 + 6"
  virtual std::string element(int buffer, const Idx &index, int part) = 0;  // "x[2*i0 + 1]"
  // Split format (separate arrays of real and imaginary parts): the array of `part`.
  virtual bool split(int buffer) = 0;
  virtual std::string part_pointer(int buffer, const Idx &index, int part) = 0;  // "xi + i0 + 3"
  // A vector of v in every lane, declared once by the emitter at function scope.
  virtual std::string vector_constant(double v, const VectorKind &kind) = 0;
};

struct VectorLoop {
  const StmtNode *loop = nullptr;            // the For node
  std::vector<const StmtNode *> statements;  // its body's live statements, in order
  // 512 bits: buffers the statement before stored with 256-bit stores, read here through
  // 256-bit halves (VectorKind::load_contiguous_halves_helper).
  std::set<int> narrow_loads;
  // Tables stored in blocks of split real and imaginary parts (presplit_tables.h).
  std::set<int> presplit;
  // Register lane k computes iteration k, not lane_order()[k] (lane_orders.h).
  bool natural_order = false;
};

// The loop's text, indented by depth (two spaces a level). With store_bytes, the narrowest
// store (bytes) the loop makes into each buffer it writes is added there.
std::string print_vector_loop(const VectorLoop &loop, const VectorKind &kind, ScalarNames &names, int depth,
                              std::map<int, int> *store_bytes = nullptr);

}  // namespace splgen::backends::simd
