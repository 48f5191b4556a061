// The MPI backend ("mpi"): distributed kernels, par(p, mu) over MPI ranks (mpi_backend.h).
#pragma once

namespace splgen::backends {

void register_mpi_backend();

}  // namespace splgen::backends
