// What the fuzz targets share: the input as text, and how a target reports a finding. A finding
// aborts, so libFuzzer and the standalone driver both save the input and fail. The errors a
// user may cause (ParseError, FormulaError ...) are caught by each target; any other
// exception escapes LLVMFuzzerTestOneInput and terminates: the CLI would report it as an
// internal error (exit 4), which is a finding too.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#define SPLGEN_FUZZ_ENTRY extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)

namespace splgen::fuzz {

inline std::string as_text(const uint8_t *data, size_t size) { return std::string(reinterpret_cast<const char *>(data), size); }

[[noreturn]] inline void fail(const std::string &what, const std::string &input) {
  std::fprintf(stderr, "fuzz finding: %s\ninput (%zu bytes): %s\n", what.c_str(), input.size(), input.c_str());
  std::abort();
}

}  // namespace splgen::fuzz
