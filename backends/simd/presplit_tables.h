// Twiddle tables stored the way the vector loops read them. A table that only whole-register
// contiguous loads of one width read, each at a multiple of that width, is printed in blocks
// of `lanes` complex entries: the real parts in register lane order (VectorKind::lane_order),
// then the imaginary parts. Each load is then two plain loads: no unpack or shuffle, which an
// interleaved table costs on every twiddle (FFTW's t1fv codelets pay the same in their VZMUL).
// Measured by hand-editing the kernels, AMD EPYC Zen 4 avx512 double against FFTW 3.3.10
// (AVX-512 codelets), interleaved, medians: DFT(256) 0.85x -> 0.89x, 512 0.83x -> 0.87x,
// 1024 0.89x -> 0.90x.
#pragma once
#include <map>
#include <vector>

#include "generator/ir/loops.h"

namespace splgen::backends::simd {

// Table buffer id -> the lanes of every vector loop that reads it, for the tables that can be
// stored so. `printed`: whether a table's values are printed (a table computed at run time
// keeps the interleaved layout its recipe writes).
std::map<int, int> presplit_tables(const Function &f, const std::vector<bool> &printed);

// The table's reals in the presplit order: block b of `lanes` entries holds re[lane_order],
// then im[lane_order]; a last partial block (never read by a vector load) stays interleaved.
std::vector<double> presplit_values(const std::vector<cplx> &values, int lanes, const std::vector<int> &lane_order);

}  // namespace splgen::backends::simd
