// The pencil decomposition of a 3D DFT over a 2D grid of ranks (docs/mpi.md, "Pencils"), as
// FFTW-MPI's successors (P3DFFT, heFFTe, 2DECOMP&FFT) do it: more ranks than the slab
// decomposition's first dimension allows, and each all-to-all among sqrt(P)-ish ranks only.
//
// It is the row-column rule dft_3d (rules/dft.rules),
//   DFT(m x n x r) = (DFT(m) (x) I(nr)) (I(m) (x) DFT(n) (x) I(r)) (I(mn) (x) DFT(r)),
// with each stage run where its dimension is whole on every rank. The ranks are a p0 x p1 grid,
// rank k = a p1 + b; rank (a, b) holds, as row-major boxes (a0 = m/p0, b1 = n/p1, c1 = r/p1,
// b0 = n/p0):
//   x:               a0 x b1 x r   rows [a a0, ..) x [b b1, ..) x [0, r)
//   after exchange 1: a0 x n x c1   (within row a of the grid, p1 ranks: the n and r digits swap)
//   after exchange 2: m x b0 x c1   (within column b, p0 ranks: the m and n digits swap) = y
// The stages are I(a0 b1) (x) DFT(r), I(a0) (x) DFT(n) (x) I(c1) and DFT(m) (x) I(b0 c1): the
// stages of dft_3d restricted to the rank's box (tensor products of identities split over the
// box's rows). Each writes in the order the next exchange sends (block d for the group's rank
// d), and the next reads the receive buffer in the order it arrives: only the digit swaps
// l(a0 p, a0) (x) I(packet) of the packing, folded into the stages' gathers and scatters as the
// slab path folds its packing (distribute_ranks.h). An exchange within a group of 1 rank (a
// 1 x p or p x 1 grid) is no exchange and is left out.
//
// Overlap (--overlap K, docs/mpi.md "Overlap"): the first two stages are independent over the
// rank's a0 rows of m, so they and both exchanges run on K chunks of a0/K rows, each a slice
// of the rank's part (RankStep::chunks; the buffers chunk-major), and the backend starts a
// chunk's exchange as soon as its compute is done. The last stage reads the chunks back in
// order of m through its gather.
#pragma once
#include <array>
#include <functional>
#include <string>

#include "generator/ir/spl.h"
#include "generator/lower/distribute_ranks.h"

namespace splgen::lower {

enum class Decomposition { Slab, Pencil };
const std::string &decomposition_name(Decomposition d);  // "slab", "pencil"

// The grid p0 x p1 = ranks for DFT(m x n x r): the one that the sizes allow (p0 | m, p0 | n,
// p1 | n, p1 | r) with the largest min(p0, p1) (the most square: the fewest messages,
// (p0 - 1) + (p1 - 1) per rank), p0 <= p1 among equals; `asked` (p0, p1 > 0) instead when
// given. FormulaError (one line) when no grid, or the asked one, fits.
std::array<int, 2> pencil_grid(const std::array<int64_t, 3> &dims, int ranks, std::array<int, 2> asked = {});

// The 3D DFT `spec` (DFT(m x n x r, k), maybe under a par tag) on `grid`; `lower_compute` makes a
// stage's Sigma-SPL from its SPL (the pipeline's expansion and lowering). overlap K > 1: the
// first two stages and both exchanges in K chunks (docs/mpi.md, "Overlap"); K must divide m/p0.
RankProgram distribute_pencils(const Spl &spec, std::array<int, 2> grid, int overlap,
                               const std::function<Sigma(const Spl &)> &lower_compute);

// The slab kernel of the 2D or 3D DFT `spec` (DFT(m x n), DFT(m x n x r)) on `ranks` ranks with
// --overlap K, built in code as the pencils are (the par rules' Sum_par stages have no chunks):
// x and y in blocks of m/p rows of m, as the slab kernel without overlap (distribute_ranks.h),
// and the same two exchanges. The first stage (the DFT of each row of m) and the first exchange
// run on K chunks of the m/p rows a rank holds; DFT(m) needs every chunk of m, so it and the
// second exchange run on K chunks of its R/p columns (R = N/m) instead, each reading its columns
// of the whole receive buffer (RankStep::column_offset); the last step puts the received chunks
// in y's order. K must divide m/p and R/p (FormulaError, one line).
RankProgram distribute_slabs(const Spl &spec, int ranks, int overlap, const std::function<Sigma(const Spl &)> &lower_compute);

// The 1D kernel of DFT(N) (maybe under a par tag) on `ranks` ranks with --overlap K, built in
// code as the slabs are: Cooley-Tukey DFT(mn) = (DFT(m) (x) I(n)) T(mn, n) (I(m) (x) DFT(n)) L(mn, m)
// on x as an n x m array, x and y in blocks of N/p points as the kernel without overlap
// (distribute_ranks.h), and its three exchanges. The packing of x and the first exchange run
// on K chunks of the m/p columns each rank receives (the packing reads columns of the whole
// part, RankStep::column_offset); DFT(n) and its twiddles on chunk c of rank k are those of
// worker k K + c (RankStep::chunk_workers: the twiddles depend on the columns' global index),
// then the second exchange, chunk by chunk; DFT(m), the third exchange and the unpacking into
// y are the slab kernel's second half on the rank's n/p columns. m and n: preferred_n (the par
// rules' split, the first stage of the kernel without overlap) where p K divides both, else the
// most even split (m >= n) with p K dividing both; FormulaError (one line) when there is none.
RankProgram distribute_1d(const Spl &spec, int ranks, int overlap, int64_t preferred_n,
                          const std::function<Sigma(const Spl &)> &lower_compute);

// The digit swap of a row-major rows x groups array of packets, as the index function
// i*groups + d -> d*rows + i over packets (l(rows groups, rows) (x) I(packet)); the identity
// where either is 1. The packing of an exchange's blocks (block d: the packets of group d).
IndexFn swap_digits(int64_t rows, int64_t groups, int64_t packet);

// The dimensions of a 3D DFT spec (under its tags); FormulaError for another spec.
std::array<int64_t, 3> pencil_dims(const Spl &spec);

}  // namespace splgen::lower
