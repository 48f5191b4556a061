#pragma once

namespace splgen::backends {

// --target cuda (docs/cuda.md).
void register_cuda_backend();

}  // namespace splgen::backends
