// A kernel that is one DFT codelet, printed with one 128-bit vector per complex value
// (complex-interleaved vectorisation, as FFTW's n1fv codelets): a complex number is loaded,
// added, subtracted and stored in one instruction each, multiplications by +-i are a swap
// and a sign flip. The pipeline uses it on vector targets for specs small enough to stay
// one codelet (pipeline.cpp); the loop IR of such a kernel shows the scalar form.
#pragma once
#include <cstdint>
#include <string>

#include "backends/cpp/cpp_backend.h"

namespace splgen {

// The source of `void NAME(y, x)` computing DFT(n, k), x and y interleaved complex, any
// alignment; options.precision selects __m128d (one complex double) or the low half of
// __m128 (one complex float), options.isa the target attribute (SSE2 or wider).
std::string emit_complex_codelet(int64_t n, int64_t k, const std::string &name, const CppEmitOptions &options);

}  // namespace splgen
