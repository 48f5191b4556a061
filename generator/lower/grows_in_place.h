// The in-place test of a last stage whose output is larger than its input (generator/lower/
// sigma_to_loops.cpp, gen_chain): the stages before it may then keep their results in a
// prefix of the kernel's output.
#pragma once
#include <functional>

#include "generator/ir/sigma.h"

namespace splgen::lower {

// Whether s may run with its input a prefix of its output (the real DFT's post-pass: DFT(m)'s
// output in y[0..m), each pair (k, m-k) rewritten in place, X_m appended; FFTW's r2c works in
// its output too). s must be a list of units (terms of sums, iterations of loops), each
// straight-line code that loads all before it stores (diagonals and unrolled kernels), no
// unit reading what an earlier one wrote. Checked by enumeration (at most 2^22 positions).
// straight(K): kernel K is emitted as straight-line code that loads all before it stores.
bool grows_in_place(const Sigma &s, const std::function<bool(const Spl &)> &straight);

}  // namespace splgen::lower
