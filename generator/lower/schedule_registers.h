// Register-pressure scheduling of straight-line code (genfft schedules its DAGs for the same
// reason). The codelets list every operation before the first store, so every output value
// stays live to the end and a vectorised 8- or 16-point codelet spills registers. Within each
// run of assignments and stores, a list scheduler repeatedly takes, among the statements whose
// inputs are ready, the one that frees the most values (ties keep the original order); a store
// moves up towards its value unless some access it passes may touch the same element, in any
// lane of a vector loop (the lockstep semantics of generator/lower/vectorize_loops.h).
//
// Both parts of one complex load (or store) move as one unit: the SIMD backend loads and
// stores whole complex elements.
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

Function schedule_for_registers(const Function &f);

}  // namespace splgen::lower
