// DFTs in long double for the tables of the rule functions (Rader's diagonal, Bluestein's
// kernel spectrum; generator/rewrite/functions.cpp): every table entry is computed in long
// double and rounded to double once, so the kernels' constants are correct to the last digit.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

namespace splgen::rewrite {

using lcplx = std::complex<long double>;

// w_n^e = exp(-2 pi i e / n), e reduced mod n in integers first (exact argument reduction).
lcplx long_root(int64_t n, int64_t e);

// y[r] = sum_j x[j] w_N^(r j), N = x.size(), in O(N log N) for every N: radix 2 for powers of
// two, mixed radix (Cooley-Tukey) for small prime factors, Bluestein (1970) over a power of
// two for large primes. Replaces the O(N^2) sum that made DFT(10007) take 20-50 s to generate.
std::vector<lcplx> long_dft(const std::vector<lcplx> &x);

// The same by the O(N^2) definition (twiddles exactly reduced): the reference in the tests,
// and the method for the smallest sizes.
std::vector<lcplx> long_dft_direct(const std::vector<lcplx> &x);

}  // namespace splgen::rewrite
