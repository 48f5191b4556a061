// The self-test of a DFT kernel without a reference FFT, as FFTW's (libbench2/verify-lib.c)
// after F. Ergun, "Testing multivariate linear functions: overcoming the generator
// bottleneck", STOC 1995: a function that passes, on random inputs,
//   impulse     A(e_0) = (1, 1, ..., 1), also as A(r) + A(e_0 - r) for random r,
//   linearity   A(a x + b y) = a A(x) + b A(y), random complex a, b and vectors x, y,
//   time shift  A(x shifted by s)[r] = w_n^(k r s) A(x)[r], s = 1 and random,
// is DFT(n, k) with high probability. Combinations and phases are computed in long double;
// each check's error is the largest relative RMS difference over its rounds.
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "generator/target/target.h"

namespace splgen::kernel {

using lvec = std::vector<std::complex<long double>>;

// Applies the kernel under test: y = A x, n complex values (rounded to its precision inside).
using ApplyKernel = std::function<lvec(const lvec &x)>;

struct SelftestOptions {
  int rounds = 10;         // random inputs per check
  uint64_t seed = 1;       // of the random inputs (std::mt19937_64)
  double tolerance = 0;    // largest error a check accepts; 0: default_tolerance()
};

struct SelftestCheck {
  std::string name;        // "impulse", "linearity", "time shift"
  double max_error = 0;    // relative RMS, the largest over the rounds
  double tolerance = 0;
  bool ok = false;
};

// 100 eps (log2(n) + 1), eps of the kernel's precision: rounding grows with log n in an FFT;
// the factor leaves room for Rader and Bluestein (measured errors are a few eps log n), while
// a wrong kernel is off by O(1).
double default_tolerance(int64_t n, Precision precision);

// The three checks of A against DFT(n, k) (k the root exponent, -1 for the inverse).
std::vector<SelftestCheck> selftest_dft(const ApplyKernel &apply, int64_t n, int64_t k, Precision precision,
                                        const SelftestOptions &options);

// ApplyKernel for a loaded kernel NAME(y, x) of the precision (interleaved complex, out-of-place).
ApplyKernel kernel_applier(void *function, int64_t n, Precision precision);

}  // namespace splgen::kernel
