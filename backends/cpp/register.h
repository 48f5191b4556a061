// The C++ backend ("cpp"): portable C++ for --isa scalar, C++ with SSE2/AVX2/AVX-512
// intrinsics otherwise (cpp_backend.h), and complex-interleaved codelets (complex_codelet.h).
#pragma once

namespace splgen::backends {

void register_cpp_backend();

}  // namespace splgen::backends
