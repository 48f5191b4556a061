// The largest transforms splgen generates (docs/cli.md, "Size limits"): every spec entering the
// pipeline is checked at once, so that `gen` of any size either finishes within seconds or is
// refused in one line naming the limit (issue 18).
#pragma once
#include <cstdint>

#include "generator/ir/spl.h"

namespace splgen::driver {

// Points of a spec (rows and columns). Measured `gen` times on the 2-core development machine
// (load 4-6): DFT(2^22) 2.2 s, DFT(2^24) 3.9 s, DFT(2^24-1) 2.9 s, DFT(4096 x 4096) 2.6 s;
// 2^24 is bench's largest size too.
constexpr int64_t kMaxPoints = int64_t(1) << 24;

// Points of one rank's part of a distributed kernel (docs/mpi.md): its steps are local DFTs of
// a factor of n and exchanges, made in well under a second (gen of DFT(2^25) on 2 ranks, 2^24
// each: 0.2 s), so one rank may hold 2^25 points, and DFT(2^26) run on 2 ranks (issue 20's
// sizes).
constexpr int64_t kMaxRankPoints = int64_t(1) << 25;

// Points of a GPU kernel (--target cuda, docs/cuda.md): its lowering has no cache blocking and
// computes its large twiddle tables, so gen of DFT(2^24) takes 0.13 s and 30 MB (AMD EPYC
// Zen 4); 2^26 is issue 19's largest size.
constexpr int64_t kMaxGpuPoints = int64_t(1) << 26;

// Prime factors of a DFT size. A prime above the codelets is split by Rader or Bluestein; their
// tables above 4096 entries are computed in the kernel on first use (backends/cpp/
// computed_diag.h) rather than printed (DFT(262139) had been 43 MB of source and 1.8 s), so
// the source grows by a few bytes per point: measured in docs/cli.md, "Size limits".
constexpr int64_t kMaxPrimeFactor = int64_t(1) << 20;

// Points of the in-place large 1D kernel, tiled(k)[DFT(n)] --in-place (docs/streaming.md,
// "Large 1D in place"): its source barely grows with n (local DFTs of sqrt(n), a tile-pair
// table of (sqrt(n)/k)^2 entries), but the lowering still enumerates every index function
// point by point (lower/dma_transfers.cpp): gen took 14 s at 2^26 and 56 s at 2^28 under
// load, so 2^30 (about 4 min) stays refused.
constexpr int64_t kMaxInplacePoints = int64_t(1) << 28;

// Throws FormulaError (one line, naming the limit) when the spec or one of its DFTs is too large.
// A distributed kernel (docs/mpi.md) of `ranks` ranks is the code of one rank: the limit is on
// its part of the points. `inplace`: the spec is an in-place large 1D kernel (kMaxInplacePoints);
// `gpu`: a GPU kernel (kMaxGpuPoints).
void check_size_limits(const Spl &spec, int64_t ranks = 1, bool inplace = false, bool gpu = false);

}  // namespace splgen::driver
