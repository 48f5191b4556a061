// The divisors of a size, for solving m*n == N and splitting identities (generator/rewrite/).
// By factorisation (Miller-Rabin and Pollard's rho), not trial division up to sqrt(N), so a
// 64-bit size costs microseconds, not the 3e9 divisions sqrt(2^63) would take.
#pragma once
#include <cstdint>
#include <vector>

namespace splgen {

// Every positive divisor of n (n >= 1), ascending; {} for n < 1.
std::vector<int64_t> divisors_of(int64_t n);
// The prime factors of n (n >= 1), ascending, each as often as it divides n; {} for n < 2.
std::vector<int64_t> prime_factors_of(int64_t n);

}  // namespace splgen
