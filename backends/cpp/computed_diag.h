// Rader's and Bluestein's tables (the chirp w_2n^(k l^2) and the convolution kernels' spectra,
// generator/ir/diag_recipe.h) computed in the kernel on first use instead of printed: as the
// large twiddle tables are (cpp_backend.cpp, computed_table). DFT(262139) was 43 MB of
// literals and 1.8 s of `gen`; the spectra need a DFT of the chirp or of Rader's sequence at
// initialisation, for which the file carries a copy of the generator's long double DFT
// (generator/rewrite/long_dft.cpp): the same operations in the same order, so the computed
// entries are the printed ones (tests/kernels/large_prime_kernel_test.cpp compares them).
#pragma once
#include <string>

#include "generator/ir/loops.h"

namespace splgen::backends {

// Whether table b is computed on first use: it has a Diag recipe whose whole Diag is larger
// than kMaxPrintedDiag entries (generator/ir/diag_recipe.h says why that size).
bool is_computed_diag(const Buffer &b);
// Whether the computed table needs the long double DFT (a spectrum, not the chirp).
bool needs_long_dft(const Buffer &b);

// The file-scope helpers of the table functions: the long double DFT (`with_dft`, for the
// spectra) and the octant-reduced roots of unity (`with_chirp`). Printed once per file, before
// the table functions; they need <cmath>, <complex>, <limits>, <map>, <utility> and <vector>.
std::string computed_diag_helpers(bool with_dft, bool with_chirp);

// `static const REAL *NAME_values()`: the table, filled on first use (thread-safe static
// initialisation), entries in the interleaved layout.
std::string computed_diag_table(const std::string &name, const Buffer &b, const std::string &real);

}  // namespace splgen::backends
