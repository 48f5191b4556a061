// The intrinsics vocabulary of one vector register kind (128, 256 or 512 bits of double or
// float, with or without FMA), and the split-complex load/store helpers printed into each
// generated file: the one place that knows intrinsic names.
//
// Data in memory is interleaved complex (re, im, re, im, ...); in registers it is split: one
// vector of real parts, one of imaginary parts, lane l holding iteration base + l. The helpers
// convert between the two, each lane from its own address (L(2nu, 2) / L(2nu, nu) as
// in-register shuffles): consecutive addresses are the contiguous case.
#pragma once
#include <string>
#include <vector>

#include "generator/target/target.h"

namespace splgen::backends::simd {

struct VectorKind {
  Precision precision = Precision::Double;
  int lanes = 1;    // real lanes per register
  bool fma = false; // fused multiply-add available (AVX2 + FMA, AVX-512)

  int bits() const { return lanes * (precision == Precision::Double ? 64 : 32); }
  std::string type() const;                  // __m256d
  std::string op(const std::string &name) const;  // op("add") -> _mm256_add_pd
  std::string suffix() const;                // "d4": names the helpers of this kind
  // Register lane k computes iteration lane_order()[k] of the group: the order in which
  // consecutive complex elements arrive from two whole-register loads and one unpack or
  // shuffle each (AVX double: 0 2 1 3). Every load and store of a loop uses it.
  std::vector<int> lane_order() const;
  // Helpers: load/store with one pointer per register lane, and the contiguous case (lane l of
  // the iteration order at p + 2l), which needs no cross-lane shuffle.
  std::string load_helper() const { return "splgen_load_" + suffix(); }
  std::string store_helper() const { return "splgen_store_" + suffix(); }
  std::string load_contiguous_helper() const { return "splgen_loadc_" + suffix(); }
  std::string store_contiguous_helper() const { return "splgen_storec_" + suffix(); }
  // The contiguous case of a masked group (512 bits only): the first n complex elements,
  // loadcm(re, im, p, n) / storecm(p, re, im, n); masked-off elements are neither read nor written.
  std::string load_contiguous_masked_helper() const { return "splgen_loadcm_" + suffix(); }
  std::string store_contiguous_masked_helper() const { return "splgen_storecm_" + suffix(); }
  // Grouped access: `group()` consecutive complex elements per lane fill one whole register,
  // so a lane's group is one full-width load or store and the split <-> interleaved change is
  // one in-register transpose (the store side avoids partial stores that a later full-width
  // load cannot forward from). 1 where there is no such helper.
  int group() const;
  std::string load_group_helper() const { return "splgen_loadg_" + suffix(); }
  // 512 bits only: the contiguous and grouped loads, each register from two 256-bit loads. A
  // 512-bit load of what 256-bit stores wrote a moment before cannot take the data from the
  // store queue and waits for the stores to retire; two 256-bit loads each can.
  std::string load_contiguous_halves_helper() const { return "splgen_loadch_" + suffix(); }
  std::string load_group_halves_helper() const { return "splgen_loadgh_" + suffix(); }
  std::string store_group_helper() const { return "splgen_storeg_" + suffix(); }
  std::string negate(const std::string &a) const;
  std::string broadcast(const std::string &scalar) const;
  // Definitions of the load/store helpers, with an include guard so several kernels can share
  // one translation unit; `target` is the function attribute text.
  std::string helpers(const std::string &target) const;
};

// __attribute__((target("avx2,fma"))) for the ISA; empty for Scalar.
std::string target_attribute(Isa isa);

}  // namespace splgen::backends::simd
