// Splits a loop that only permutes data into runs of contiguous elements.
//
// The packing steps of distributed kernels (docs/mpi.md) and the like are one flat loop
// `y[i] = x[f(i)]` whose f uses div/mod, contiguous over runs of r consecutive i. The vector
// loop cannot see the runs: it gathers each lane with its own address arithmetic. Here such a
// loop becomes an outer loop over runs and an inner loop of extent r whose every access is
// `base(outer) + inner`, which the vector loop loads and stores as whole registers.
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

// Every innermost sequential loop whose body only copies (scalars assigned from loads, stores
// of those scalars) and whose indices are all unit-stride over runs of r >= min_run iterations
// (r a divisor of a div/mod of the loop variable, and of the extent; the largest such r) is
// split so; the iterations run in the same order, so the function's meaning is unchanged.
Function split_contiguous_runs(const Function &f, int min_run);

}  // namespace splgen::lower
