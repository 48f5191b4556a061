#include "generator/driver/builtin_backends.h"

#include <mutex>

#include "backends/cpp/register.h"
#include "backends/cuda/register.h"
#include "backends/mpi/register.h"

namespace splgen::driver {

void register_builtin_backends() {
  static std::once_flag once;
  std::call_once(once, [] {
    backends::register_cpp_backend();
    backends::register_mpi_backend();
    backends::register_cuda_backend();
    // A new backend: its register function here, one line.
  });
}

}  // namespace splgen::driver
