// A precompiled header for the search's translation units. Each unit starts the compiler
// afresh, and parsing <immintrin.h> alone took 0.75 of the 0.8 s a 4-point kernel took to
// compile (g++ 12, -O3 -march=native, Zen 3); with the header precompiled once per search it
// took 0.1 s (a 1024-point kernel: 1.6 s -> 0.6 s).
#pragma once
#include <string>

namespace splgen::search {

// Precompiles the costly standard header generated kernels include (kernel_headers) in `dir` with
// the flags the units are compiled with, and returns the header to pass as `-include HEADER`
// (the compiler picks up HEADER.gch beside it); empty when the compiler cannot precompile
// (the units are then compiled without it).
std::string precompile_kernel_headers(const std::string &dir, const std::string &compiler, const std::string &flags);

// The text of that header: <immintrin.h> (on x86).
std::string kernel_headers();

}  // namespace splgen::search
