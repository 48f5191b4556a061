// A formula of codelet leaves unrolled into straight-line code: y = f x on complex values
// built from loop-IR expressions (codelet.h), the leaves by symbolic_dft / symbolic_kernel,
// the structure (compositions, tensor products, direct sums, permutations, strides,
// diagonals, twiddles, small dense blocks) applied element by element. The real transform
// leaves' codelets are their fast algorithms applied so (real_codelet.cpp), as genfft
// expands its DFT algorithms symbolically.
#pragma once
#include <vector>

#include "generator/lower/codelet.h"

namespace splgen::lower {

std::vector<CExpr> symbolic_apply(const Spl &f, const std::vector<CExpr> &x);

}  // namespace splgen::lower
