// Kernel leaves as code: the straight-line form of a codelet and the term of an O(rows*cols)
// matrix loop, for DFTs and for the real transforms (docs/transforms.md). A real transform
// reads only the real parts of its input (RDFT, the real-to-real kinds: y = K Re(x)) or
// keeps only the real part of its output (IRDFT: y = Re(K x)); its code is generated from the
// entries of K, the factories dropping zeros and multiplications by +-1.
#pragma once
#include <vector>

#include "generator/lower/codelet.h"

namespace splgen::lower {

// A real transform leaf with at most this many entries is unrolled (as DFT(32) is).
inline constexpr int64_t kRealCodeletEntries = 1024;

// y = leaf x, unrolled: symbolic_dft for a DFT; for a real transform the real radix-2 split
// (an even RDFT or IRDFT, real_radix2.h), the fast algorithm of its breakdown rule applied
// symbolically (the DCTs and DSTs), WHT's butterflies, else its entries.
std::vector<CExpr> symbolic_kernel(const Spl &leaf, const std::vector<CExpr> &x);


// One term of y[j] = sum_l M[j][l] x[l] with `entry` = M[j][l] (for a real transform an
// entry of its K): entry * x, or for real transforms K Re(x) / the real part of K x.
CExpr matrix_term(const Spl &matrix, const CExpr &x, const CExpr &entry);

}  // namespace splgen::lower
