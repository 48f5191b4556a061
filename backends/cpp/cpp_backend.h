// The portable C++ backend: prints a loop-IR function as a self-contained C++ source file
//   extern "C" void NAME(double *y, const double *x)
// (float for Precision::Float): n interleaved complex values in, out-of-place; and a header
// declaring it (emit_header).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "generator/ir/loops.h"
#include "generator/target/target.h"

namespace splgen::backends {

struct CppEmitOptions {
  Precision precision = Precision::Double;
  std::vector<std::string> header_lines;  // printed as // comments at the top (spec, formula ...)
  Isa isa = Isa::Scalar;  // vector loops are printed with this ISA's intrinsics
  // A function with parallel loops (Function::workers > 1) runs them in one parallel region
  // of this kind: `#pragma omp parallel` or runtime/thread_team.h.
  Threading threading = Threading::OpenMP;
  // A function with streamed loops (Function::dma_tags > 0) is NAME_dma(y, x, engine) and
  // NAME(y, x), which calls it with this engine of runtime/dma.h (docs/streaming.md).
  DmaEngine dma = DmaEngine::Thread;
  // The kernel's layout for emit_header (emit_cpp reads it from the Function): one buffer
  // NAME(xy); split arrays NAME(yr, yi, xr, xi), in place NAME(xyr, xyi) (docs/transforms.md).
  // split_x: x in split format; unset, as `split` (a real transform splits its complex side
  // only: r2c NAME(yr, yi, x), c2r NAME(y, xr, xi)).
  bool in_place = false, split = false;
  std::optional<bool> split_x;
};

std::string emit_cpp(const Function &f, const CppEmitOptions &options);

// The kernel's prototype as emit_cpp defines it, without `extern "C"` and without ';':
//   [__attribute__((target("..."))) ]void NAME(double *__restrict y, const double *__restrict x)
// or, in place or in split format, the parameters of CppEmitOptions::in_place / split.
std::string kernel_declaration(const std::string &name, Precision precision, Isa isa, bool in_place = false,
                               bool split = false);
// The same where one side only is split (a real transform's complex side).
std::string kernel_declaration(const std::string &name, Precision precision, Isa isa, bool in_place, bool split_y,
                               bool split_x);

// A header declaring the kernel NAME (splgen gen --header): the header lines as // comments,
// an include guard SPLGEN_NAME_H (upper case) and the prototype, extern "C" under C++; C and C++.
// extern "C" NAME_dma(y, x, splgen::runtime::dma_engine *dma), the form of a streamed kernel
// (in place: NAME_dma(xy, dma)).
std::string dma_kernel_declaration(const std::string &name, Precision precision, Isa isa, bool in_place = false);
// NAME_stores(ext_y, ext_x, engine): the same on external stores of runtime/dma.h (memory, or
// files: an out-of-core kernel); the data are interleaved complex numbers of the kernel's type.
// In place: NAME_stores(ext_xy, engine).
std::string stores_kernel_declaration(const std::string &name, Isa isa, bool in_place = false);
// `streamed`: NAME_dma(y, x, engine) is declared too (for C++ callers).
std::string emit_header(const std::string &name, const CppEmitOptions &options, bool streamed = false);

// Pieces of the printed text other emitters of C++ share: a header line as // comments, and a
// literal that reads back as v in the given precision.
std::string cpp_comment_lines(const std::string &text);
std::string cpp_real_literal(double v, Precision precision);

}  // namespace splgen::backends
