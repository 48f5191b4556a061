// The backend interface (docs/design.md, "Adding a backend"): a backend prints a loop program
// (generator/ir/loop_program.h) as source text for one kind of target. It declares what it
// accepts; the driver picks it by the target's name (--target) and never names a backend
// itself. Backends register themselves (registry.h), FFTW-solver style: each has a
// register_<name>_backend() function, listed in generator/driver/builtin_backends.cpp.
#pragma once
#include <string>
#include <vector>

#include "backends/kernel_name.h"
#include "generator/ir/loop_program.h"
#include "generator/ir/spl.h"
#include "generator/target/target.h"

namespace splgen::backends {

struct EmitOptions {
  Precision precision = Precision::Double;
  Isa isa = Isa::Scalar;
  std::vector<std::string> header_lines;  // printed as comments at the top (spec, formula ...)
  Threading threading = Threading::OpenMP;  // how parallel loops run (smp tag, --threads)
  DmaEngine dma = DmaEngine::Thread;         // the engine of streamed loops (stream tag) by default
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;     // what --target names: "cpp"
  virtual std::string summary() const = 0;  // one line for `splgen --help` and errors
  // Whether it prints kernels for this instruction set and precision.
  virtual bool accepts(Isa isa, Precision precision) const = 0;
  // The tags (smp, par, stream ...) whose meaning its code implements; the driver lowers
  // the others to sequential code (the C++ backend consumes vec and smp).
  virtual std::vector<TagKind> consumed_tags() const = 0;
  // Whether a kernel that is one codelet may come as a ComplexCodelet (LoopProgram::codelet)
  // on a vector target; a backend without that printer gets the loop IR only.
  virtual bool prints_complex_codelets() const { return false; }
  // Whether it prints the GPU form (LoopProgram::gpu, generator/lower/gpu_kernels.h).
  virtual bool prints_gpu_programs() const { return false; }
  // Why NAME cannot be the kernel's C function (--name), or "" when it can: by default the
  // rules of C (kernel_name.h); a backend adds the names its own code uses.
  virtual std::string kernel_name_problem(const std::string &name) const { return c_function_name_problem(name); }
  // The source of the kernel, and a header declaring it.
  virtual std::string emit(const LoopProgram &program, const EmitOptions &options) const = 0;
  virtual std::string emit_header(const LoopProgram &program, const EmitOptions &options) const = 0;
};

}  // namespace splgen::backends
