// The MPI backend ("mpi", docs/mpi.md): a distributed kernel (LoopProgram::ranks) as C++ that
// depends on MPI only:
//   extern "C" int NAME(double *y, const double *x, MPI_Comm comm)
// Every rank of comm calls it with its local part of x and y; the local steps are the C++
// backend's kernels (with their ISA's intrinsics), each with the rank as a parameter, and each
// exchange is one MPI_Alltoall. It returns MPI_SUCCESS, or an MPI error class on every rank.
#pragma once
#include <string>

#include "backends/backend.h"

namespace splgen::backends {

std::string emit_mpi(const LoopProgram &program, const EmitOptions &options);
std::string emit_mpi_header(const LoopProgram &program, const EmitOptions &options);

}  // namespace splgen::backends
