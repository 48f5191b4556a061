#include "backends/cuda/register.h"

#include <memory>
#include <stdexcept>

#include "backends/cpp/cpp_backend.h"
#include "backends/cuda/cuda_backend.h"
#include "backends/registry.h"

namespace splgen::backends {

namespace {

// The header comment; `knobs`: the GPU form's parameters (the .cu file names them, the header need not).
std::string comments(const EmitOptions &o, const std::string &knobs = "") {
  std::string out;
  for (const std::string &line : o.header_lines) out += cpp_comment_lines(line);
  out += cpp_comment_lines("int NAME(T2 *y, const T2 *x, cudaStream_t stream): device pointers; 0, or the cudaError_t "
                           "of the first failed launch or allocation (docs/cuda.md)");
  return out + (knobs.empty() ? "" : cpp_comment_lines("GPU knobs (--gpu-knobs): " + knobs)) + "\n";
}

class CudaBackend final : public Backend {
 public:
  std::string name() const override { return "cuda"; }
  std::string summary() const override { return "CUDA: thread blocks and shared memory, a .cu file for nvcc (docs/cuda.md)"; }
  // The GPU runs scalar code per thread: the vector ISAs are the host's.
  bool accepts(Isa isa, Precision) const override { return isa == Isa::Scalar; }
  std::vector<TagKind> consumed_tags() const override { return {}; }
  bool prints_gpu_programs() const override { return true; }
  std::string emit(const LoopProgram &p, const EmitOptions &o) const override {
    if (!p.gpu) throw std::invalid_argument("emit_cuda: the loop program has no GPU form");
    return emit_cuda(*p.gpu, o.precision, comments(o, to_string(p.gpu->knobs)));
  }
  std::string emit_header(const LoopProgram &p, const EmitOptions &o) const override {
    return emit_cuda_header(p.name(), o.precision, comments(o));
  }
};

}  // namespace

void register_cuda_backend() { register_backend(std::make_unique<CudaBackend>()); }

}  // namespace splgen::backends
