// The backends splgen ships, registered once per process (FFTW's solver lists, one line each).
#pragma once

namespace splgen::driver {

// Registers every built-in backend (idempotent, thread-safe).
void register_builtin_backends();

}  // namespace splgen::driver
