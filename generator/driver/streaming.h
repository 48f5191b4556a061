// Streamed kernels (docs/streaming.md): what the driver checks of a stream(s) spec's lowering.
#pragma once
#include "generator/ir/sigma.h"

namespace splgen::driver {

// Whether every pass of the (merged) Sigma-SPL is a Sum_stream: each factor of the top-level
// composition (or the whole) streams its data through the local memory. A stage the stream
// rules left alone would otherwise run as ordinary loops on the external memory, unnoticed.
bool every_pass_streamed(const Sigma &s);

}  // namespace splgen::driver
