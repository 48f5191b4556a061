#include "backends/mpi/register.h"

#include <memory>

#include "backends/cpp/kernel_names.h"
#include "backends/mpi/mpi_backend.h"
#include "backends/registry.h"

namespace splgen::backends {

namespace {

class MpiBackend final : public Backend {
 public:
  std::string name() const override { return "mpi"; }
  std::string summary() const override { return "C++ over MPI ranks: par(p, mu) / --ranks P, one MPI_Alltoall per exchange"; }
  bool accepts(Isa, Precision) const override { return true; }
  std::vector<TagKind> consumed_tags() const override { return {TagKind::Vec, TagKind::Par}; }
  // NAME_step<i> are the local steps' functions (mpi_backend.h).
  std::string kernel_name_problem(const std::string &name) const override { return cpp_kernel_name_problem(name); }
  std::string emit(const LoopProgram &p, const EmitOptions &o) const override { return emit_mpi(p, o); }
  std::string emit_header(const LoopProgram &p, const EmitOptions &o) const override { return emit_mpi_header(p, o); }
};

}  // namespace

void register_mpi_backend() { register_backend(std::make_unique<MpiBackend>()); }

}  // namespace splgen::backends
