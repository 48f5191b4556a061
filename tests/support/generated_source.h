// The C++ source splgen generates for a spec, for tests that read the printed kernel.
#pragma once
#include <string>

#include "generator/driver/pipeline.h"

namespace splgen::test {

inline std::string generated_source(const std::string &spec, Isa isa, Precision precision = Precision::Double,
                                    bool split = false) {
  driver::GenOptions options;
  options.isa = isa;
  options.precision = precision;
  options.io.split = split;
  return driver::run_pipeline(spec, options).source;
}

}  // namespace splgen::test
