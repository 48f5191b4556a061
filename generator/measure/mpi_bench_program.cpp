// The program `splgen bench --target mpi` compiles beside each kernel and runs under mpirun
// (mpi_bench.h). It prints one line: "RESULT <splgen ns> <fftw ns> <relative rms error>".
#include "generator/measure/mpi_bench.h"

namespace splgen::measure {

const std::string &mpi_bench_program() {
  static const std::string text = R"prog(
#include <fftw3-mpi.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#define SPLGEN_CAT2(a, b) a##b
#define SPLGEN_CAT(a, b) SPLGEN_CAT2(a, b)
#if SPLGEN_FLOAT
#define FFTW(name) SPLGEN_CAT(fftwf_, name)
#define SPLGEN_MPI_REAL MPI_FLOAT
typedef float real;
#else
#define FFTW(name) SPLGEN_CAT(fftw_, name)
#define SPLGEN_MPI_REAL MPI_DOUBLE
typedef double real;
#endif

extern "C" int KERNEL(real *y, const real *x, MPI_Comm comm);

static double slowest(double seconds) {
  double out = 0;
  MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

template <class F>
static double sample(F run, long iterations) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long i = 0; i < iterations; ++i) run();
  return slowest(MPI_Wtime() - start) / double(iterations);
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  FFTW(mpi_init)();
  int ranks = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ptrdiff_t dims[] = {DIMS};
  const int rnk = int(sizeof dims / sizeof dims[0]);
  ptrdiff_t n = 1;
  for (ptrdiff_t d : dims) n *= d;
  const ptrdiff_t local = n / ranks;
  ptrdiff_t local_n0 = 0, start0 = 0, alloc = 0, local_no = 0, start_o = 0;
  if (rnk == 1)
    alloc = FFTW(mpi_local_size_1d)(n, MPI_COMM_WORLD, SIGN, FFTW_MEASURE, &local_n0, &start0, &local_no, &start_o);
  else
    alloc = FFTW(mpi_local_size)(rnk, dims, MPI_COMM_WORLD, &local_n0, &start0), local_no = local_n0 * (n / dims[0]);
  if (rnk > 1) local_n0 *= n / dims[0], start0 *= n / dims[0];
  int same = local_n0 == local && start0 == rank * local && local_no == local;
  int all_same = 0;
  MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_same) {
    if (rank == 0) std::printf("ERROR FFTW-MPI spreads this transform otherwise than in blocks of n/p\n");
    MPI_Finalize();
    return 1;
  }
  std::vector<real> x(2 * local), y(2 * local), x_fftw(2 * std::max<ptrdiff_t>(alloc, local)), y_fftw(x_fftw.size());
  std::mt19937_64 rng(7 + rank);
  std::uniform_real_distribution<double> u(-1, 1);
  for (real &v : x) v = real(u(rng));
  FFTW(plan) plan = FFTW(mpi_plan_dft)(rnk, dims, reinterpret_cast<FFTW(complex) *>(x_fftw.data()),
                                       reinterpret_cast<FFTW(complex) *>(y_fftw.data()), MPI_COMM_WORLD, SIGN,
                                       FFTW_MEASURE);
  std::copy(x.begin(), x.end(), x_fftw.begin());
  FFTW(execute)(plan);
  if (KERNEL(y.data(), x.data(), MPI_COMM_WORLD) != MPI_SUCCESS) {
    if (rank == 0) std::printf("ERROR the kernel failed\n");
    MPI_Finalize();
    return 1;
  }
  double sums[2] = {0, 0}, total[2] = {0, 0};
  for (ptrdiff_t i = 0; i < 2 * local; ++i)
    sums[0] += std::pow(double(y[i]) - double(y_fftw[i]), 2), sums[1] += std::pow(double(y_fftw[i]), 2);
  MPI_Allreduce(sums, total, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  auto ours = [&] { KERNEL(y.data(), x.data(), MPI_COMM_WORLD); };
  auto theirs = [&] { FFTW(execute)(plan); };
  const int block = int(2 * local / ranks);  // one exchange of the kernel's size, for the model (docs/mpi.md)
  auto exchange = [&] { MPI_Alltoall(x.data(), block, SPLGEN_MPI_REAL, y.data(), block, SPLGEN_MPI_REAL, MPI_COMM_WORLD); };
  long iterations = 1;  // each sample at least MIN_SECONDS
  while (sample(ours, iterations) * double(iterations) < MIN_SECONDS && iterations < (1L << 20)) iterations *= 2;
  std::vector<double> t_ours, t_theirs, t_exchange;
  for (int r = 0; r < REPS; ++r) {  // interleaved
    t_ours.push_back(sample(ours, iterations));
    t_theirs.push_back(sample(theirs, iterations));
    t_exchange.push_back(sample(exchange, iterations));
  }
  if (rank == 0)
    std::printf("RESULT %.6g %.6g %.3g %.6g\n", median(t_ours) * 1e9, median(t_theirs) * 1e9, std::sqrt(total[0] / total[1]),
                median(t_exchange) * 1e9);
  FFTW(destroy_plan)(plan);
  FFTW(mpi_cleanup)();
  MPI_Finalize();
  return 0;
}
)prog";
  return text;
}

}  // namespace splgen::measure
