// Streamed kernels (docs/streaming.md): what the driver checks of a stream(s) spec's lowering.
#pragma once
#include "generator/driver/pipeline.h"
#include "generator/ir/sigma.h"

namespace splgen::driver {

// Whether every pass of the (merged) Sigma-SPL is a Sum_stream: each factor of the top-level
// composition (or the whole) streams its data through the local memory. A stage the stream
// rules left alone would otherwise run as ordinary loops on the external memory, unnoticed.
bool every_pass_streamed(const Sigma &s);

// --stream: stream(s)[spec] with the fewest chunks s (the largest chunks) whose kernel fits
// options.local_memory bytes, trying the divisors of the spec's size in increasing order. A
// one-line FormulaError without --local-memory, for a spec with a tag, or when none fits.
Spl stream_for_local_memory(const Spl &spec, const GenOptions &options);

}  // namespace splgen::driver
