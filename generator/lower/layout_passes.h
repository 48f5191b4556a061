// Block data layouts lowered to streamed passes (docs/streaming.md, "Block data layouts").
// Akin, Franchetti & Hoe, "FFTs with near-optimal memory access through block data layouts",
// ICASSP 2014 (seed 001): tiled(k)[DFT(n x n)] (eq. (17)) and cubic(k)[DFT(n x n x n)]
// (eq. (18)) keep the data in main memory in k x k tiles (k x k x k cubes), each contiguous;
// every pass reads and writes whole tiles (cubes), and the permutations R9b, R10b (R14..R16's
// local factors) run in the local memory. Each pass is a Sum_stream over stripes (pencils):
//   Sum_stream(c) S_dma(p_c) (Pout (I (x) DFT_n) Pin) G_dma(p_c)
// with the local order of a chunk its order in main memory, so that the transfers are whole
// tiles (cubes), and Pin, Pout the local permutations to and from lines of the transform.
#pragma once
#include <functional>

#include "generator/ir/sigma.h"
#include "generator/ir/spl.h"

namespace splgen::lower {

// Where the kernel's input and output live. Natural: row-major (the layout conversions P and
// P^-1 are the first and last pass, merged with the first DFT pass); Block: the tiled or cubic
// layout P, in and out; ToBlock / FromBlock: the conversion kernels P and P^-1 alone.
enum class DataLayout { Natural, Block, ToBlock, FromBlock };
const char *layout_name(DataLayout layout);

// Whether spec is tiled(k)[DFT(n x n)], tiled(k)[DFT(N)] (eq. (19), N = n^2: the n x n
// matrix of x tiled; other N are refused by layout_passes) or cubic(k)[DFT(n x n x n)].
bool is_block_layout_spec(const Spl &spec);

// The streamed passes of such a spec (FormulaError, one line, when k does not divide n or the
// spec is not one of the two). lower_compute(A, v) lowers a pass's local compute A, an SPL
// formula of one chunk (the caller expands it), numbering its loop variables from v. The
// result maps the input layout to the output layout: P DFT P^-1 for Block, P for ToBlock...
Sigma layout_passes(const Spl &spec, DataLayout layout, const std::function<Sigma(const Spl &, int)> &lower_compute);

// The one-line FormulaError layout_passes would give for spec, if any (k not dividing n).
void check_block_layout(const Spl &spec);

// The layout P as a gather function: the position in memory of row-major element i.
int64_t block_layout_position(const Spl &spec, int64_t i);

}  // namespace splgen::lower
