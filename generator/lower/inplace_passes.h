// The large 1D DFT in place (docs/streaming.md, "Large 1D in place"): the six-step algorithm of
// "Calculating large FFTs in memory-constrained systems" (seed 003) on one buffer, every pass
// a Sum_stream whose chunks are put back where they were got (as a set), so that the kernel
// needs no memory beyond its local buffers. tiled(k)[DFT(n)] --in-place, n = m^2 (square) or
// n = 2 m^2 (1:2), k x k tiles for the transposes, k rows (segments) per chunk of a row pass:
//   n = m^2:   DFT(n) = X (I_m (x) DFT_m) X T(n, m) (I_m (x) DFT_m) X,       X = L(n, m)
//   n = 2m^2:  DFT(n) = D X2 (I_m (x) DFT_2m) X2 E T(n, m) (I_2m (x) DFT_m) D X2
// with X2 = L(m^2, m) (x) I_2 (the square transpose of pairs), D = I_m (x) L(2m, 2) and
// E = I_m (x) L(2m, m) (rows of 2m de-/interleaved), so that L(n, 2m) = D X2, L(n, m) = X2 E:
// the in-place 1:2 rectangular transpose is a square one of pairs and a shuffle within rows,
// merged into the row pass next to it. A square transpose is one pass of tile pairs: chunk
// c gets tiles t and t' (t' the transpose of t, or a second diagonal tile), transposes each in
// local memory and puts it at the other's place.
#pragma once
#include <functional>

#include "generator/ir/sigma.h"
#include "generator/ir/spl.h"

namespace splgen::lower {

// The passes of tiled(k)[DFT(n)] in place; FormulaError (one line) unless n = m^2 or 2 m^2, k
// divides m and m / k is even. lower_compute as for layout_passes.
Sigma inplace_passes(const Spl &spec, const std::function<Sigma(const Spl &, int)> &lower_compute);

// The one-line FormulaError inplace_passes would give for spec, if any.
void check_inplace(const Spl &spec);

// Passes of the in-place kernel (5 square, 6 for 1:2), and its chunks' sizes in complex
// elements: a row pass's (k rows of m, or k segments of 2m) and a transpose pass's (2 tiles).
struct InplaceShape {
  int64_t m = 0, k = 0, pair = 1;  // pair 2: n = 2 m^2
  int passes() const { return pair == 1 ? 5 : 6; }
  int64_t row_chunk() const { return k * m * pair; }
  int64_t tile_chunk() const { return 2 * k * k * pair; }
};
InplaceShape inplace_shape(const Spl &spec);

}  // namespace splgen::lower
