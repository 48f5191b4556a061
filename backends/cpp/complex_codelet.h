// A kernel that is one DFT codelet (generator/ir/complex_codelet.h), printed with one 128-bit
// vector per complex value (complex-interleaved vectorisation, as FFTW's n1fv codelets): a
// complex number is loaded, added, subtracted and stored in one instruction each,
// multiplications by +-i are a swap and a sign flip. The driver lowers to this form on vector
// targets for specs small enough to stay one codelet.
#pragma once
#include <cstdint>
#include <string>

#include "backends/cpp/cpp_backend.h"
#include "generator/ir/complex_codelet.h"

namespace splgen::backends {

// The source of `void NAME(y, x)` computing the codelet, x and y interleaved complex, any
// alignment; options.precision selects __m128d (one complex double) or the low half of
// __m128 (one complex float), options.isa the target attribute (SSE2 or wider).
std::string emit_complex_codelet(const ComplexCodelet &codelet, const std::string &name, const CppEmitOptions &options);

}  // namespace splgen::backends
