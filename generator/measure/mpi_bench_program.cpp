// The program `splgen bench --target mpi` compiles beside each kernel and runs under mpirun
// (mpi_bench.h). It prints one line: "RESULT <splgen ns> <fftw ns> <relative rms error> <exchange ns>
// <node ns> <copy ns>".
#include "generator/measure/mpi_bench.h"

namespace splgen::measure {

const std::string &mpi_bench_program() {
  static const std::string text = R"prog(
#include <fftw3-mpi.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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
extern "C" void NODE(real *y, const real *x);  // the sequential DFT of a rank's points

#ifndef ROW_BLOCK
#define ROW_BLOCK 0  // > 0: an uneven slab kernel's a0, each rank's buffers a0 rows of m (docs/mpi.md)
#endif

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

// x's point g, the same whichever rank holds it (splitmix64 of g, in [-1, 1)).
static double value(unsigned long long g) {
  g += 0x9e3779b97f4a7c15ULL;
  g = (g ^ (g >> 30)) * 0xbf58476d1ce4e5b9ULL;
  g = (g ^ (g >> 27)) * 0x94d049bb133111ebULL;
  return double((g ^ (g >> 31)) >> 11) * 0x1.0p-52 - 1;
}

// Where point o of rank k's part of the kernel's x (input) or y lies: a block (of `part` points,
// or an uneven slab kernel's rows at k a0 rows on, its buffers `part` = a0 rows), or a pencil
// kernel's box (GRID = p0, p1; docs/mpi.md).
static ptrdiff_t kernel_index(const ptrdiff_t *d, bool input, ptrdiff_t part, ptrdiff_t k, ptrdiff_t o) {
  const ptrdiff_t grid[] = {GRID};
  if (grid[0] == 0) return k * part + o;
  // (the grid is 0, 0 for slabs: the guards keep -Wdiv-by-zero quiet on that dead path)
  const ptrdiff_t m = d[0], n = d[1], r = d[2], p0 = grid[0] > 0 ? grid[0] : 1, p1 = grid[1] > 0 ? grid[1] : 1;
  const ptrdiff_t a = k / p1, b = k % p1;
  const ptrdiff_t rows = input ? n / p1 : n / p0, cols = input ? r : r / p1;
  const ptrdiff_t i = o / (rows * cols), j = o / cols % rows, t = o % cols;
  return input ? ((a * (m / p0) + i) * n + b * rows + j) * r + t : (i * n + a * rows + j) * r + b * cols + t;
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
  const ptrdiff_t local = n / ranks, row = n / dims[0], row_block = ROW_BLOCK;
  // Each rank's buffers (part) and its own points (mine): n/p each, or an uneven slab kernel's
  // a0 rows and the rank's rows of FFTW-MPI's default distribution.
  const ptrdiff_t part = row_block ? row_block * row : local;
  auto mine_of = [&](ptrdiff_t k) {
    return row_block ? std::max<ptrdiff_t>(0, std::min<ptrdiff_t>(dims[0], (k + 1) * row_block) - k * row_block) * row : local;
  };
  const ptrdiff_t mine = mine_of(rank);
  ptrdiff_t local_n0 = 0, start0 = 0, alloc = 0, local_no = 0, start_o = 0;
  if (rnk == 1)
    alloc = FFTW(mpi_local_size_1d)(n, MPI_COMM_WORLD, SIGN, FFTW_MEASURE, &local_n0, &start0, &local_no, &start_o);
  else
    alloc = FFTW(mpi_local_size)(rnk, dims, MPI_COMM_WORLD, &local_n0, &start0), local_no = local_n0 * (n / dims[0]);
  if (rnk > 1) local_n0 *= n / dims[0], start0 *= n / dims[0];
  int same = local_n0 == mine && (mine == 0 || start0 == rank * part) && local_no == mine;
  int all_same = 0;
  MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_same) {
    if (rank == 0 && row_block)
      std::printf("ERROR FFTW-MPI's local_n0 / local_0_start differ from the kernel's rows (blocks of %td of the %td rows)\n",
                  row_block, dims[0]);
    else if (rank == 0)
      std::printf("ERROR FFTW-MPI spreads this transform otherwise than in blocks of n/p\n");
    MPI_Finalize();
    return 1;
  }
  std::vector<real> x(2 * part), y(2 * part), x_fftw(2 * std::max<ptrdiff_t>(alloc, part)), y_fftw(x_fftw.size());
  for (ptrdiff_t o = 0; o < mine; ++o) {
    const ptrdiff_t g = kernel_index(dims, true, part, rank, o);
    x[2 * o] = real(value(2 * g)), x[2 * o + 1] = real(value(2 * g + 1));
  }
  FFTW(plan) plan = FFTW(mpi_plan_dft)(rnk, dims, reinterpret_cast<FFTW(complex) *>(x_fftw.data()),
                                       reinterpret_cast<FFTW(complex) *>(y_fftw.data()), MPI_COMM_WORLD, SIGN,
                                       FFTW_MEASURE);
  for (ptrdiff_t o = 0; o < mine; ++o)  // FFTW-MPI's block of the same x
    x_fftw[2 * o] = real(value(2 * (start0 + o))), x_fftw[2 * o + 1] = real(value(2 * (start0 + o) + 1));
  FFTW(execute)(plan);
  if (KERNEL(y.data(), x.data(), MPI_COMM_WORLD) != MPI_SUCCESS) {
    if (rank == 0) std::printf("ERROR the kernel failed\n");
    MPI_Finalize();
    return 1;
  }
  double total[2] = {0, 0};
  {  // rank 0 gathers both y and compares them point by point
    std::vector<real> ours(rank == 0 ? 2 * part * ranks : 0), theirs(ours.size());
    MPI_Gather(y.data(), int(2 * part), SPLGEN_MPI_REAL, ours.data(), int(2 * part), SPLGEN_MPI_REAL, 0, MPI_COMM_WORLD);
    MPI_Gather(y_fftw.data(), int(2 * part), SPLGEN_MPI_REAL, theirs.data(), int(2 * part), SPLGEN_MPI_REAL, 0, MPI_COMM_WORLD);
    for (ptrdiff_t k = 0; rank == 0 && k < ranks; ++k)
      for (ptrdiff_t o = 0; o < mine_of(k); ++o) {
        const ptrdiff_t g = kernel_index(dims, false, part, k, o);  // FFTW-MPI's y: blocks of n/p, or the same rows
        for (int c = 0; c < 2; ++c) {
          const double a = ours[2 * (k * part + o) + c], b = theirs[2 * (row_block ? k * part + o : g) + c];
          total[0] += (a - b) * (a - b), total[1] += b * b;
        }
      }
  }
  auto ours = [&] { KERNEL(y.data(), x.data(), MPI_COMM_WORLD); };
  auto theirs = [&] { FFTW(execute)(plan); };
  const int block = int(2 * local / ranks);  // one exchange of the kernel's size, for the model (docs/mpi.md)
  auto exchange = [&] { MPI_Alltoall(x.data(), block, SPLGEN_MPI_REAL, y.data(), block, SPLGEN_MPI_REAL, MPI_COMM_WORLD); };
  long iterations = 1;  // each sample at least MIN_SECONDS
  while (sample(ours, iterations) * double(iterations) < MIN_SECONDS && iterations < (1L << 20)) iterations *= 2;
  // the model's node and memory, every rank at once (y_fftw is only timed from here on)
  auto node = [&] { NODE(y_fftw.data(), x.data()); };
  auto copy = [&] { std::memcpy(y_fftw.data(), x.data(), sizeof(real) * 2 * local); };
  std::vector<double> t_ours, t_theirs, t_exchange, t_node, t_copy;
  for (int r = 0; r < REPS; ++r) {  // interleaved
    t_ours.push_back(sample(ours, iterations));
    t_theirs.push_back(sample(theirs, iterations));
    t_exchange.push_back(sample(exchange, iterations));
    t_node.push_back(sample(node, iterations));
    t_copy.push_back(sample(copy, iterations));
  }
  if (rank == 0)
    std::printf("RESULT %.6g %.6g %.3g %.6g %.6g %.6g\n", median(t_ours) * 1e9, median(t_theirs) * 1e9,
                std::sqrt(total[0] / total[1]), median(t_exchange) * 1e9, median(t_node) * 1e9, median(t_copy) * 1e9);
  FFTW(destroy_plan)(plan);
  FFTW(mpi_cleanup)();
  MPI_Finalize();
  return 0;
}
)prog";
  return text;
}

}  // namespace splgen::measure
