// How far apart the lanes of a vector loop's index are: index(var + l) = index(var) + step l for
// every lane l < lanes, given var = 0 mod lanes (a vector loop counts from 0 in steps of its
// width) and integer outer loop variables; nothing when that is not known. Beyond affine
// indices it sees through floor division and remainder by a multiple of the width of an
// affine value that is 0 mod the width at lane 0: the lanes share the quotient and the
// remainder grows by one. A local permutation folded into a streamed pass's compute reads
// through such indices (L(n, k) (x) I(k): (a + var) / k, (a + var) % k); with them the lanes
// are one contiguous load, not four (docs/streaming.md).
#pragma once
#include <cstdint>
#include <optional>

#include "generator/ir/loops.h"

namespace splgen::backends::simd {

std::optional<int64_t> lane_step(const Idx &index, int var, int lanes);

}  // namespace splgen::backends::simd
