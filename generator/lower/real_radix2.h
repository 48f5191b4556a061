// The even real DFTs of a leaf codelet by the real radix-2 split (the DIT of a real input, and
// its transpose for the inverse), as genfft's r2cf/r2cb codelets exploit the Hermitian symmetry
// of every sub-transform: about 0.75x the operations of a half-size complex DFT and the
// post-pass (operations in the generated code: RDFT(16) 107 -> 74, RDFT(32) 286 -> 218;
// FFTW's r2cf_16 and r2cf_32 have 78 and 198).
#pragma once
#include <vector>

#include "generator/lower/codelet.h"

namespace splgen::lower {

// RDFT(n) (X_0..X_n/2 of the real parts of x, n = x.size()) or IRDFT(n) (the n reals of
// Re of the inverse DFT of the Hermitian extension of x_0..x_n/2, as complex values with zero
// imaginary parts; x.size() = n/2+1). Odd sizes by the complex DFT of the real input.
std::vector<CExpr> symbolic_real_radix2(const std::vector<CExpr> &x, int64_t n, bool inverse);

}  // namespace splgen::lower
