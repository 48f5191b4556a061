#include "generator/ir/divisors.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace splgen {

namespace {

using u64 = uint64_t;
using u128 = unsigned __int128;

u64 mul_mod(u64 a, u64 b, u64 m) { return u64(u128(a) * b % m); }

u64 pow_mod(u64 b, u64 e, u64 m) {
  u64 r = 1 % m;
  for (b %= m; e; e >>= 1, b = mul_mod(b, b, m))
    if (e & 1) r = mul_mod(r, b, m);
  return r;
}

// Deterministic for 64-bit n with these bases.
bool is_prime(u64 n) {
  if (n < 2) return false;
  for (u64 p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (n % p == 0) return n == p;
  u64 d = n - 1;
  int s = 0;
  for (; d % 2 == 0; d /= 2) ++s;
  for (u64 a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    u64 x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s && composite; ++r) {
      x = mul_mod(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

// A non-trivial factor of an odd composite n (Pollard's rho, Floyd cycle finding).
u64 rho(u64 n) {
  for (u64 c = 1;; ++c) {
    auto f = [&](u64 x) { return (mul_mod(x, x, n) + c) % n; };
    u64 x = 2, y = 2, d = 1;
    while (d == 1) {
      x = f(x);
      y = f(f(y));
      d = std::gcd(x > y ? x - y : y - x, n);
    }
    if (d != n) return d;
  }
}

void factor(u64 n, std::map<u64, int> &out) {
  if (n == 1) return;
  for (u64 p = 2; p < 64; ++p)  // small factors first: cheap and keeps rho away from even n
    while (n % p == 0) {
      ++out[p];
      n /= p;
    }
  if (n == 1) return;
  if (is_prime(n)) {
    ++out[n];
    return;
  }
  u64 d = rho(n);
  factor(d, out);
  factor(n / d, out);
}

}  // namespace

std::vector<int64_t> prime_factors_of(int64_t n) {
  if (n < 2) return {};
  std::map<u64, int> primes;
  factor(u64(n), primes);
  std::vector<int64_t> out;
  for (const auto &[p, k] : primes) out.insert(out.end(), std::size_t(k), int64_t(p));
  return out;
}

std::vector<int64_t> divisors_of(int64_t n) {
  if (n < 1) return {};
  std::map<u64, int> primes;
  factor(u64(n), primes);
  std::vector<int64_t> out{1};
  for (const auto &[p, k] : primes) {
    const std::size_t before = out.size();
    int64_t power = 1;
    for (int i = 0; i < k; ++i) {
      power *= int64_t(p);
      for (std::size_t j = 0; j < before; ++j) out.push_back(out[j] * power);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace splgen
