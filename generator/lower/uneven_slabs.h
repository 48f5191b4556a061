// Slab kernels whose ranks do not divide the sizes (docs/mpi.md, "Uneven slabs"): DFT(m x n) or
// DFT(m x n x r) on P ranks where P does not divide m or the R = N/m points of a row of m, in
// FFTW-MPI's default distribution: rank k holds rows [k a0, min(m, (k+1) a0)) of m in x and y,
// a0 = ceil(m/P), so the last ranks hold fewer rows (100 rows on 3 ranks: 34, 34, 32), maybe
// none.
//
// Every step works on padded parts, so that each index function stays affine and the same on
// every rank (the row counts differ only in the exchanges' MPI_Alltoallv counts):
//   x, y: a0 x R        (the rank's rows first; the rest padding)
//   send buffer: P blocks of a0 x C', C' = ceil(R/P): block d holds columns [d C', (d+1) C') of
//                each row, the columns past R padding
//   received: m' x C'   (m' = P a0: block s is rank s's a0 rows; the rows past m padding, all
//                at the end, so DFT(m) on the columns reads a prefix)
// The steps: the DFT of each of the a0 rows (DFT(n), DFT(n x r)) written in send order; an
// exchange of each rank's own rows of every block (the sender's rows); DFT(m) (x) I(C') on the
// prefix, whose rows [d a0, ..) are rank d's block already; an exchange of those rows (the
// receiver's rows); and the gather of y's a0 x R from the P received blocks. The padding is
// computed on (it is never sent to a valid row, nor read into y's rows) and the kernel's scratch
// is zeroed, so that it holds no NaN or denormal garbage (backends/mpi).
#pragma once
#include <functional>

#include "generator/ir/spl.h"
#include "generator/lower/distribute_ranks.h"

namespace splgen::lower {

// Whether the slab kernel of the 2D or 3D DFT `spec` (under its tags) on `ranks` ranks is uneven:
// ranks do not divide m or R; false for another spec.
bool uneven_slabs(const Spl &spec, int ranks);

// The steps (above); `lower_compute` makes a stage's Sigma-SPL from its SPL. FormulaError (one
// line) for a spec that is not a 2D or 3D DFT, or fewer than 2 ranks.
RankProgram distribute_uneven_slabs(const Spl &spec, int ranks, const std::function<Sigma(const Spl &)> &lower_compute);

}  // namespace splgen::lower
