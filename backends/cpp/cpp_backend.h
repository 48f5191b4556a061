// The portable C++ backend: prints a loop-IR function as a self-contained C++ source file
//   extern "C" void NAME(double *y, const double *x)
// (float for Precision::Float): n interleaved complex values in, out-of-place.
#pragma once
#include <string>
#include <vector>

#include "generator/ir/loops.h"
#include "generator/lower/pipeline.h"

namespace splgen {

struct CppEmitOptions {
  Precision precision = Precision::Double;
  std::vector<std::string> header_lines;  // printed as // comments at the top (spec, formula ...)
  Isa isa = Isa::Scalar;  // vector loops are printed with this ISA's intrinsics
};

std::string emit_cpp(const Function &f, const CppEmitOptions &options);

}  // namespace splgen
