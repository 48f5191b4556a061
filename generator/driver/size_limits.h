// The largest transforms splgen generates (docs/cli.md, "Size limits"): every spec entering the
// pipeline is checked at once, so that `gen` of any size either finishes within seconds or is
// refused in one line naming the limit (issue 18).
#pragma once
#include <cstdint>

#include "generator/ir/spl.h"

namespace splgen::driver {

// Points of a spec (rows and columns). DFT(2^24) generates in 5.1 s (2.7 s at 2^22; measured on
// the 2-core development machine under load), and 2^24 is bench's largest size too.
constexpr int64_t kMaxPoints = int64_t(1) << 24;

// Prime factors of a DFT size. A prime above the codelets is split by Rader, whose tables are
// printed as constants: about 20 us and 130 bytes of source per point (DFT(262139): 5.0 s,
// 33 MB; DFT(1000003): 24 s, 159 MB; DFT(2097143): 64 s, 2 GB of memory).
constexpr int64_t kMaxPrimeFactor = int64_t(1) << 18;

// Throws FormulaError (one line, naming the limit) when the spec or one of its DFTs is too large.
void check_size_limits(const Spl &spec);

}  // namespace splgen::driver
