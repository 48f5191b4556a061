// Loads and stores of split-format buffers (separate arrays of real and imaginary parts,
// `--format split`) in vector loops. Each array is read and written by whole registers:
//
// - contiguous: lanes in memory order, permuted into the register lane order of the loop
//   (VectorKind::lane_order, which interleaved loads fix: AVX2 double 0 2 1 3) by one
//   cross-lane permute, and back for stores;
// - grouped: `lanes` consecutive elements per lane, one load per lane and one lanes x lanes
//   transpose per part (the rows are the lanes in register order);
// - masked (512 bits): the first n lanes of a contiguous access.
//
// Lane by lane loads (`_mm256_setr_pd`) and stores through memory, for what is neither, are
// printed by the loop printer (backends/simd/vector_loop.cpp).
#pragma once
#include <string>

#include "backends/simd/simd_isa.h"

namespace splgen::backends::simd {

// V NAME(const T *p): lanes consecutive reals at p, in register lane order.
std::string split_load_helper(const VectorKind &k);
// void NAME(T *p, V v): the inverse.
std::string split_store_helper(const VectorKind &k);
// void NAME(V &v0, .., V &v(lanes-1), const T *p0, ..): v_j lane k = p_k[j].
std::string split_load_group_helper(const VectorKind &k);
// void NAME(T *p0, .., V v0, ..): p_k[j] = v_j lane k.
std::string split_store_group_helper(const VectorKind &k);
// 512 bits: V NAME(const T *p, int n) and void NAME(T *p, V v, int n), the first n lanes.
std::string split_load_masked_helper(const VectorKind &k);
std::string split_store_masked_helper(const VectorKind &k);

// Their definitions, with an include guard of their own (printed only into files whose
// kernels have split buffers); `target` is the function attribute text.
std::string split_helpers(const VectorKind &k, const std::string &target);

}  // namespace splgen::backends::simd
