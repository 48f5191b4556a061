// The CUDA backend (docs/cuda.md): prints a GPU program (generator/ir/gpu_program.h) as one
// self-contained .cu file that needs only the CUDA runtime:
//   extern "C" int NAME(double2 *y, const double2 *x, cudaStream_t stream)
// (float2 for Precision::Float) on device pointers, interleaved complex, out of place, batch
// and layout fixed at generation. It returns 0, or the cudaError_t of the first failed launch
// or allocation. Calls on different streams may overlap: the kernel keeps no state.
#pragma once
#include <string>

#include "generator/ir/gpu_program.h"
#include "generator/target/target.h"

namespace splgen::backends {

std::string emit_cuda(const GpuProgram &p, Precision precision, const std::string &header_comment);
std::string emit_cuda_header(const std::string &name, Precision precision, const std::string &header_comment);

}  // namespace splgen::backends
