// Runs one distributed kernel (docs/mpi.md) under mpirun and checks it: every rank passes its
// part of a random x (at misaligned addresses), rank 0 gathers y and compares it with FFTW3
// (double) and with long-double FFTW3 (the accurate reference), and, for sizes up to 4096, with
// an O(n^2) long-double sum. Then the failure paths: a rank with a null pointer makes the call
// fail on every rank (none waits in an exchange), and a communicator of the wrong size is
// refused on every rank. Exit 0 when all hold.
// Built by run_mpi.sh with -DKERNEL=name -DREAL=double|float -DDIMS=n0,n1,... -DSIGN=-1|1
// -DX_PACKET=0|nu -DY_PACKET=0|nu (0: block distribution) -DGRID=0,0|p0,p1 (a pencil kernel's grid)
// -DROW_BLOCK=0|a0 (an uneven slab kernel's rows per rank: rank k holds rows [k a0, min(m, (k+1) a0))
// of m, in buffers of a0 rows; the rows past its own are padding, and y's must stay finite).
#include <fftw3.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdio>
#include <random>
#include <vector>

extern "C" int KERNEL(SPLGEN_REAL *y, const SPLGEN_REAL *x, MPI_Comm comm);

namespace {

using cplx = std::complex<long double>;
const std::vector<int> kDims{DIMS};

long points() {
  long n = 1;
  for (int d : kDims) n *= d;
  return n;
}

const std::vector<long> kGrid{GRID};
#ifndef ROW_BLOCK
#define ROW_BLOCK 0
#endif

// The points of rank k's buffers (buffer) and of its own rows (mine): local each, but for an
// uneven slab kernel a0 rows of R and rank k's rows of R.
long row_points() { return points() / kDims[0]; }
long buffer_of(long local) { return ROW_BLOCK ? ROW_BLOCK * row_points() : local; }
long mine_of(long local, long k) {
  if (!ROW_BLOCK) return local;
  return std::max(0L, std::min(long(kDims[0]), (k + 1) * ROW_BLOCK) - k * ROW_BLOCK) * row_points();
}

// Global index of point o of rank k's part: block, packets of `packet` dealt out cyclically, or
// (a pencil kernel) the box of x or y rank k = a p1 + b holds, as the kernel's header comment says.
long global_index(bool input, long packet, long ranks, long local, long k, long o) {
  if (kGrid[0] > 0) {
    const long m = kDims[0], n = kDims[1], r = kDims[2], p0 = kGrid[0], p1 = kGrid[1], a = k / p1, b = k % p1;
    const long rows = input ? n / p1 : n / p0, cols = input ? r : r / p1;
    const long i = o / (rows * cols), j = o / cols % rows, t = o % cols;
    return input ? ((a * (m / p0) + i) * n + b * rows + j) * r + t : (i * n + a * rows + j) * r + b * cols + t;
  }
  if (ROW_BLOCK) return k * ROW_BLOCK * row_points() + o;
  if (!packet) return k * local + o;
  return ((o / packet) * ranks + k) * packet + o % packet;
}

// y = FFTW's transform of x, by one precision's planner (fftw_ or fftwl_ functions).
template <class Complex, class Plan>
std::vector<cplx> fftw_transform(const std::vector<cplx> &x, Plan (*plan_dft)(int, const int *, Complex *, Complex *, int, unsigned),
                                 void (*execute)(Plan), void (*destroy)(Plan)) {
  const long n = points();
  std::vector<Complex> in(n), out(n);
  for (long i = 0; i < n; ++i) in[i][0] = x[i].real(), in[i][1] = x[i].imag();
  Plan p = plan_dft(int(kDims.size()), kDims.data(), in.data(), out.data(), SIGN, FFTW_ESTIMATE);
  execute(p);
  destroy(p);
  std::vector<cplx> y(n);
  for (long i = 0; i < n; ++i) y[i] = cplx(out[i][0], out[i][1]);
  return y;
}

std::vector<cplx> fftw_double(const std::vector<cplx> &x) { return fftw_transform(x, fftw_plan_dft, fftw_execute, fftw_destroy_plan); }
std::vector<cplx> fftw_long(const std::vector<cplx> &x) { return fftw_transform(x, fftwl_plan_dft, fftwl_execute, fftwl_destroy_plan); }

// The definition, one dimension after another (O(n sum of dims)), in long double.
std::vector<cplx> direct(std::vector<cplx> v) {
  const long n = points();
  long inner = n;
  for (int d : kDims) {
    inner /= d;
    std::vector<cplx> w(n);
    std::vector<cplx> root(d);
    for (int j = 0; j < d; ++j) {
      long double a = 2 * 3.141592653589793238462643383279502884L * j / d;
      root[j] = cplx(std::cos(a), SIGN * std::sin(a));
    }
    for (long i = 0; i < n; ++i) {
      const long outer = i / (inner * d), k = (i / inner) % d, r = i % inner;
      cplx s = 0;
      for (long j = 0; j < d; ++j) s += root[(k * j) % d] * v[(outer * d + j) * inner + r];
      w[i] = s;
    }
    v = w;
  }
  return v;
}

double relative_rms(const std::vector<cplx> &a, const std::vector<cplx> &b) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) num += std::norm(a[i] - b[i]), den += std::norm(b[i]);
  return double(std::sqrt(num / den));
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int ranks = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long n = points(), local = n / ranks;
  std::mt19937_64 rng(12345);  // the same x on every rank
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cplx> x(n);
  for (cplx &v : x) v = cplx(SPLGEN_REAL(u(rng)), SPLGEN_REAL(u(rng)));
  // misaligned: one real past an aligned start
  const long buffer = buffer_of(local), mine = mine_of(local, rank);
  std::vector<SPLGEN_REAL> xs(2 * buffer + 1), ys(2 * buffer + 1, SPLGEN_REAL(-7));
  SPLGEN_REAL *xl = xs.data() + 1, *yl = ys.data() + 1;
  for (long o = 0; o < mine; ++o) {
    const cplx v = x[global_index(true, X_PACKET, ranks, local, rank, o)];
    xl[2 * o] = SPLGEN_REAL(v.real()), xl[2 * o + 1] = SPLGEN_REAL(v.imag());
  }
  for (long o = 2 * mine; o < 2 * buffer; ++o) xl[o] = SPLGEN_REAL(NAN);  // x's padding must not be read
  const std::vector<SPLGEN_REAL> x_copy(xs);
  int failed = 0;
  const int status = KERNEL(yl, xl, MPI_COMM_WORLD);
  if (status != MPI_SUCCESS) std::printf("rank %d: the kernel returned %d\n", rank, status), failed = 1;
  if (std::memcmp(xs.data(), x_copy.data(), xs.size() * sizeof xs[0])) std::printf("rank %d: x changed\n", rank), failed = 1;
  if (ys[0] != SPLGEN_REAL(-7)) std::printf("rank %d: a write before y\n", rank), failed = 1;
  for (long o = 2 * mine; o < 2 * buffer; ++o)  // y's padding rows: whatever, but never NaN or infinite garbage
    if (!std::isfinite(yl[o])) std::printf("rank %d: y's padding is not finite\n", rank), failed = 1;
  std::vector<SPLGEN_REAL> all(rank == 0 ? 2 * buffer * ranks : 0);
  MPI_Gather(yl, int(2 * buffer), sizeof(SPLGEN_REAL) == 4 ? MPI_FLOAT : MPI_DOUBLE, all.data(), int(2 * buffer),
             sizeof(SPLGEN_REAL) == 4 ? MPI_FLOAT : MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::vector<cplx> y(n);
    for (long k = 0; k < ranks; ++k)
      for (long o = 0; o < mine_of(local, k); ++o)
        y[global_index(false, Y_PACKET, ranks, local, k, o)] = cplx(all[2 * (k * buffer + o)], all[2 * (k * buffer + o) + 1]);
    const double eps = sizeof(SPLGEN_REAL) == 4 ? 1.2e-7 : 2.2e-16;
    const double tolerance = 8 * eps * std::log2(double(n));
    const double e_long = relative_rms(y, fftw_long(x)), e_double = relative_rms(y, fftw_double(x));
    const double e_direct = n <= 4096 ? relative_rms(y, direct(x)) : 0;
    std::printf("%s on %d ranks: error %.2e (long double FFTW), %.2e (FFTW), %.2e (O(n^2)); %.1f eps\n", TO_STRING, ranks,
                e_long, e_double, e_direct, e_long / eps);
    if (!(e_long < tolerance && e_double < tolerance + 1e-15 && e_direct < tolerance))
      std::printf("FAIL: error above %.2e\n", tolerance), failed = 1;
  }
  // A rank that cannot run: every rank's call fails, no rank hangs.
  const int bad = KERNEL(yl, rank == ranks - 1 ? nullptr : xl, MPI_COMM_WORLD);
  if (bad == MPI_SUCCESS) std::printf("rank %d: a null x on rank %d was not refused\n", rank, ranks - 1), failed = 1;
  // A communicator of the wrong size: refused on every rank of it.
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : 1, rank, &part);
  if (rank != 0 && KERNEL(yl, xl, part) != MPI_ERR_SIZE) std::printf("rank %d: a communicator of %d ranks ran\n", rank, ranks - 1), failed = 1;
  MPI_Comm_free(&part);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
