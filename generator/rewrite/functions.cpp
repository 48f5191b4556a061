// The C++ functions that rule files call as @name(args) (generator/rewrite/functions.h).
// Each returns an SPL formula built with the factories of generator/ir/spl.h and throws
// FormulaError on bad arguments. Every identity they serve is checked numerically in
// tests/unit/rule_functions_test.cpp; the rules that use them are in rules/dft.rules.
//
//   Good-Thomas (prime factor algorithm; Good 1958, Thomas 1963), m, n coprime:
//     DFT(mn, k) = @gt_out(m, n) * (DFT(m, k) (x) DFT(n, k)) * @gt_in(m, n)
//   Rader (Rader 1968; the form of Tolimieri, An, Lu, "Algorithms for discrete Fourier
//   transform and convolution", and of SPIRAL), p prime, g the smallest primitive root:
//     DFT(p, k) = W_p' * (I(1) (+) DFT(p-1)) * E_p(k) * (I(1) (+) DFT(p-1)) * W_p
//     W_p = @rader_perm(p), W_p' = @rader_out(p), E_p(k) = @rader_diag(p, k)
//   Bluestein (chirp z-transform; Bluestein 1970), any n, M >= 2n-1:
//     DFT(n, k) = @chirp(n, k) * @trunc(n, M) * DFT(M, -1) * @chirp_fft(n, M, k) * DFT(M)
//                 * @pad(M, n) * @chirp(n, k)
//     and with M the least smooth size >= 2n-1 chosen inside (bluestein_size):
//     DFT(n, k) = @chirp(n, k) * @bluestein_trunc(n) * @bluestein_conv(n, k) * @bluestein_pad(n) * @chirp(n, k)
//   Roots: DFT(n, k) = @root_perm(n, k) * DFT(n); DFT(n, -1) = @reverse(n) * DFT(n).
#include "generator/rewrite/functions.h"

#include <fmt/format.h>

#include <cmath>
#include <deque>
#include <mutex>
#include <limits>

#include "generator/ir/dense.h"
#include "generator/rewrite/diag_recipe_values.h"
#include "generator/rewrite/long_dft.h"
#include "generator/rewrite/real_functions.h"
#include "generator/rewrite/trig_functions.h"

namespace splgen::rewrite {

// The convolution size: the least M >= 2n-1 of the form 2^a, 3 * 2^a or 5 * 2^a, or 9, 15, 27,
// 45 or 81 times 2^a with 2^a >= 16 (smooth and vectorised in splgen's Cooley-Tukey): M stays
// within 9/8 x (2n-1) from 2n-1 = 1296 on (4/3 x with 2^a, 3 2^a and 5 2^a alone). The least M
// is the cheapest, the two DFT(M) being most of the time. Measured (bench, Zen 3, AVX2,
// double, loaded; DFT(M) alone): 20480 = 5 2^12 82 - 116 us, 20736 = 81 2^8 86 - 115 us,
// 24576 = 3 2^13 127 - 147 us; DFT(10247) (2n-1 = 20493) with M = 24576 ran at 0.65x - 0.79x
// FFTW, with 20736 at 0.87x - 1.15x (docs/bench/README.md, "Primes").
int64_t bluestein_size(int64_t n) {
  int64_t best = 0;
  for (int64_t odd : {1, 3, 5, 9, 15, 27, 45, 81}) {
    int64_t M = odd;
    while (M < 2 * n - 1 || (odd > 5 && M < 16 * odd)) M *= 2;
    if (best == 0 || M < best) best = M;
  }
  return best;
}

namespace {

// Permutation tables and dense diagonals are materialised: refuse absurd sizes early.
constexpr int64_t kMaxTable = int64_t(1) << 26;

void check_positive(const char *fn, const char *what, int64_t v) {
  if (v < 1) throw FormulaError(fmt::format("@{}: {} must be a positive size, got {}", fn, what, v));
  if (v > kMaxTable) throw FormulaError(fmt::format("@{}: {} = {} is too large", fn, what, v));
}

int64_t mulmod(int64_t a, int64_t b, int64_t m) { return int64_t((__int128)mod64(a, m) * mod64(b, m) % m); }

int64_t powmod(int64_t b, int64_t e, int64_t m) {
  int64_t r = 1 % m;
  b = mod64(b, m);
  while (e > 0) {
    if (e & 1) r = mulmod(r, b, m);
    b = mulmod(b, b, m);
    e >>= 1;
  }
  return r;
}

// x^-1 mod m for gcd(x, m) == 1 (extended Euclid).
int64_t invmod(int64_t x, int64_t m) {
  if (m == 1) return 0;
  int64_t a = mod64(x, m), b = m, u = 1, v = 0;
  while (b != 0) {
    int64_t t = a / b;
    a -= t * b, std::swap(a, b);
    u -= t * v, std::swap(u, v);
  }
  return mod64(u, m);
}

bool is_prime(int64_t p) {
  if (p < 2) return false;
  for (int64_t d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

// The smallest primitive root modulo the prime p.
int64_t primitive_root(int64_t p) {
  if (p == 2) return 1;
  std::vector<int64_t> factors;  // prime factors of p - 1
  int64_t r = p - 1;
  for (int64_t d = 2; d * d <= r; ++d)
    if (r % d == 0) {
      factors.push_back(d);
      while (r % d == 0) r /= d;
    }
  if (r > 1) factors.push_back(r);
  for (int64_t g = 2; g < p; ++g) {
    bool ok = true;
    for (int64_t f : factors) ok = ok && powmod(g, (p - 1) / f, p) != 1;
    if (ok) return g;
  }
  throw FormulaError(fmt::format("no primitive root modulo {}", p));
}

void check_prime(const char *fn, int64_t p) {
  check_positive(fn, "p", p);
  if (!is_prime(p)) throw FormulaError(fmt::format("@{}: p must be prime, got {}", fn, p));
}

// The root exponent k of DFT(n, k): coprime to n (as make_dft requires).
void check_root(const char *fn, int64_t n, int64_t k) {
  if (gcd64(mod64(k, n), n) != 1)
    throw FormulaError(fmt::format("@{}: the root exponent {} must be coprime to {}", fn, k, n));
}

// ---- Good-Thomas -------------------------------------------------------------------------

void check_coprime(const char *fn, int64_t m, int64_t n) {
  check_positive(fn, "m", m);
  check_positive(fn, "n", n);
  if (m > kMaxTable / n) throw FormulaError(fmt::format("@{}: m*n = {}*{} is too large", fn, m, n));
  if (gcd64(m, n) != 1) throw FormulaError(fmt::format("@{}: m and n must be coprime, got {} and {}", fn, m, n));
}

// Input (Ruritanian) map: x'[l1*n + l2] = x[(l1*n + l2*m) mod mn].
Spl gt_in(int64_t m, int64_t n) {
  check_coprime("gt_in", m, n);
  std::vector<int64_t> perm(static_cast<std::size_t>(m * n));
  for (int64_t l1 = 0; l1 < m; ++l1)
    for (int64_t l2 = 0; l2 < n; ++l2) perm[std::size_t(l1 * n + l2)] = (l1 * n + l2 * m) % (m * n);
  return make_perm(std::move(perm));
}

// Output (CRT) map: y[(k1*e1 + k2*e2) mod mn] = y'[k1*n + k2], e1 = n (n^-1 mod m), e2 = m (m^-1 mod n).
Spl gt_out(int64_t m, int64_t n) {
  check_coprime("gt_out", m, n);
  int64_t N = m * n, e1 = n * invmod(n, m) % N, e2 = m * invmod(m, n) % N;
  std::vector<int64_t> perm(static_cast<std::size_t>(N));
  for (int64_t k1 = 0; k1 < m; ++k1)
    for (int64_t k2 = 0; k2 < n; ++k2) perm[std::size_t((k1 * e1 + k2 * e2) % N)] = k1 * n + k2;
  return make_perm(std::move(perm));
}

// ---- Rader -------------------------------------------------------------------------------

// W_p: z[0] = x[0], z[1+b] = x[g^-b mod p], b < p-1.
std::vector<int64_t> rader_table(int64_t p) {
  check_prime("rader_perm", p);
  int64_t ginv = invmod(primitive_root(p), p);
  std::vector<int64_t> perm(static_cast<std::size_t>(p));
  perm[0] = 0;
  int64_t v = 1;
  for (int64_t b = 0; b < p - 1; ++b) perm[std::size_t(1 + b)] = v, v = mulmod(v, ginv, p);
  return perm;
}

Spl rader_perm(int64_t p) { return make_perm(rader_table(p)); }
Spl rader_out(int64_t p) { return make_transpose(make_perm(rader_table(p))); }

// E_p(k) = [[1, 1], [1, d_0]] (+) Diag(d_1, ..., d_{p-2}), d = DFT(p-1) c / (p-1),
// c_j = w_p^(k g^j): the cyclic convolution by c diagonalised by DFT(p-1)
// (generator/rewrite/diag_recipe_values.cpp).
Spl rader_diag(int64_t p, int64_t k) {
  check_prime("rader_diag", p);
  check_root("rader_diag", p, k);
  const int64_t N = p - 1;
  // d_0 exactly: the sum of all w_p^x, x != 0, is -1
  Spl block = make_dense(2, 2, {1.0, 1.0, 1.0, to_double(lcplx(-1.0L / (long double)N, 0.0L))});
  if (N == 1) return block;
  return make_direct_sum({block, recipe_diag({DiagRecipe::Kind::RaderSpectrum, p, 0, mod64(k, p), primitive_root(p)})});
}

// Rader's rule holds DFT(p-1) twice, so the expansion asks for the tables of nested primes again
// and again (DFT(262127): p = 131063 twice, 3449 4 times, 431 8 times): the last few large
// ones are kept, which halved the time of gen "DFT(262127)".
Spl rader_diag_cached(int64_t p, int64_t k) {
  constexpr int64_t kCacheFrom = 1000;
  constexpr std::size_t kCacheSize = 16;
  if (p < kCacheFrom) return rader_diag(p, k);
  static std::mutex mutex;
  static std::deque<std::pair<std::pair<int64_t, int64_t>, Spl>> cache;
  const std::pair<int64_t, int64_t> key{p, mod64(k, p)};
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &[known, table] : cache)
      if (known == key) return table;
  }
  Spl table = rader_diag(p, k);
  std::lock_guard<std::mutex> lock(mutex);
  cache.emplace_back(key, table);
  if (cache.size() > kCacheSize) cache.pop_front();
  return table;
}

// ---- Bluestein ---------------------------------------------------------------------------

// diag(w_2n^(k l^2)), l < n.
Spl chirp(int64_t n, int64_t k) {
  check_positive("chirp", "n", n);
  check_root("chirp", n, k);
  return recipe_diag({DiagRecipe::Kind::Chirp, n, 0, mod64(k, 2 * n), 0});
}

void check_embedding(const char *fn, int64_t n, int64_t M) {
  check_positive(fn, "n", n);
  check_positive(fn, "M", M);
  if (M < 2 * n - 1) throw FormulaError(fmt::format("@{}: M must be at least 2n-1 = {}, got {}", fn, 2 * n - 1, M));
}

// DFT(M) b / M, b the chirp kernel b_j = w_2n^(-k j^2) for |j| < n wrapped around M.
Spl chirp_fft(int64_t n, int64_t M, int64_t k) {
  check_embedding("chirp_fft", n, M);
  check_root("chirp_fft", n, k);
  return recipe_diag({DiagRecipe::Kind::ChirpSpectrum, n, M, mod64(k, 2 * n), 0});
}

// [I(n); 0] (M x n), as I(n-1) (+) (the column e_0 of height M-n+1): no dense M x n matrix.
Spl pad(int64_t M, int64_t n) {
  check_positive("pad", "n", n);
  check_positive("pad", "M", M);
  if (M < n) throw FormulaError(fmt::format("@pad: M must be at least n = {}, got {}", n, M));
  if (M == n) return make_identity(n);
  std::vector<cplx> col(std::size_t(M - n + 1), 0.0);
  col[0] = 1.0;
  Spl tail = make_dense(M - n + 1, 1, std::move(col));
  return n == 1 ? tail : make_direct_sum({make_identity(n - 1), tail});
}

// [I(n) 0] (n x M): the transpose of pad(M, n).
Spl trunc(int64_t n, int64_t M) {
  check_positive("trunc", "n", n);
  check_positive("trunc", "M", M);
  if (M < n) throw FormulaError(fmt::format("@trunc: M must be at least n = {}, got {}", n, M));
  return make_transpose(pad(M, n));
}

// DFT(M, -1) * Diag(DFT(M) b / M) * DFT(M): the cyclic convolution by the chirp kernel.
Spl root_perm(int64_t n, int64_t k);

Spl bluestein_conv(int64_t n, int64_t k) {
  check_positive("bluestein_conv", "n", n);
  int64_t M = bluestein_size(n);
  // DFT(M, -1) = reverse(M) * DFT(M): both transforms share one twiddle table and one
  // codelet set, and the reversal folds into the truncation's gather. DFT(10007) (M = 20480)
  // went from 0.98x to 1.24x FFTW (bench, Zen 3, AVX2): one table of 20480 twiddles less.
  return make_compose({root_perm(M, -1), make_dft(M), chirp_fft(n, M, k), make_dft(M)});
}

// ---- roots -------------------------------------------------------------------------------

// Perm(r -> k r mod n): DFT(n, k) = root_perm(n, k) * DFT(n).
Spl root_perm(int64_t n, int64_t k) {
  check_positive("root_perm", "n", n);
  check_root("root_perm", n, k);
  // k r mod n by additions, not products: root_perm(2^21, -1) with its __int128 remainders was
  // 6% of the CPU time of gen "DFT(1048127)" (perf, Zen 3)
  std::vector<int64_t> perm(static_cast<std::size_t>(n));
  const int64_t step = mod64(k, n);
  for (int64_t r = 0, v = 0; r < n; ++r, v = v >= n - step ? v - (n - step) : v + step) perm[std::size_t(r)] = v;
  return make_perm(std::move(perm));
}

Spl dft_matrix(int64_t n, int64_t k) {
  check_positive("dft_matrix", "n", n);
  if (n > 64) throw FormulaError(fmt::format("@dft_matrix: meant for base cases (n <= 64), got {}", n));
  check_root("dft_matrix", n, k);
  std::vector<cplx> v(static_cast<std::size_t>(n * n));
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < n; ++c) v[std::size_t(r * n + c)] = root_of_unity(n, mulmod(k, r * c, n));
  return make_dense(n, n, std::move(v));
}

using Args = const std::vector<int64_t> &;

std::vector<RuleFunction> build() {
  return {
      {"gt_in", 2, "Good-Thomas input (Ruritanian) permutation of size mn, x'[l1 n + l2] = x[(l1 n + l2 m) mod mn] (Good 1958)",
       [](Args a) { return gt_in(a[0], a[1]); }},
      {"gt_out", 2, "Good-Thomas output (CRT) permutation of size mn: DFT(mn,k) = gt_out(m,n) (DFT(m,k) (x) DFT(n,k)) gt_in(m,n)",
       [](Args a) { return gt_out(a[0], a[1]); }},
      {"rader_perm", 1, "Rader input permutation W_p: z[0] = x[0], z[1+b] = x[g^-b mod p], g the least primitive root (Rader 1968)",
       [](Args a) { return rader_perm(a[0]); }},
      {"rader_out", 1, "Rader output permutation W_p' (the transpose of rader_perm(p))",
       [](Args a) { return rader_out(a[0]); }},
      {"rader_diag", 2, "Rader middle factor E_p = [[1,1],[1,d0]] (+) Diag(d1..), d = DFT(p-1) c/(p-1), c_j = w_p^(k g^j) (Tolimieri et al.)",
       [](Args a) { return rader_diag_cached(a[0], a[1]); }},
      {"chirp", 2, "Bluestein chirp Diag(w_2n^(k l^2)), l < n (Bluestein 1970)",
       [](Args a) { return chirp(a[0], a[1]); }},
      {"chirp_fft", 3, "Bluestein kernel spectrum Diag(DFT(M) b / M), b_j = w_2n^(-k j^2) for |j| < n wrapped mod M; args n, M, k",
       [](Args a) { return chirp_fft(a[0], a[1], a[2]); }},
      {"pad", 2, "zero padding [I(n); 0], M x n; args M, n", [](Args a) { return pad(a[0], a[1]); }},
      {"trunc", 2, "truncation [I(n) 0], n x M; args n, M", [](Args a) { return trunc(a[0], a[1]); }},
      {"bluestein_pad", 1, "pad(M, n) with M = bluestein_size(n), the least 2^a, 3 2^a, 5 2^a or 9, 15, 27, 45, 81 times 2^a >= 16 that is >= 2n-1",
       [](Args a) {
         check_positive("bluestein_pad", "n", a[0]);
         return pad(bluestein_size(a[0]), a[0]);
       }},
      {"bluestein_trunc", 1, "trunc(n, M) with M = bluestein_size(n) >= 2n-1",
       [](Args a) {
         check_positive("bluestein_trunc", "n", a[0]);
         return trunc(a[0], bluestein_size(a[0]));
       }},
      {"bluestein_conv", 2, "reverse(M) * DFT(M) * chirp_fft(n, M, k) * DFT(M) (= DFT(M,-1) * ...), M = bluestein_size(n) >= 2n-1 (Bluestein 1970)",
       [](Args a) { return bluestein_conv(a[0], a[1]); },
       [](Args a) { return std::vector<int64_t>(2, bluestein_size(a[0])); }},
      {"reverse", 1, "Perm(r -> -r mod n): DFT(n, -1) = reverse(n) * DFT(n)",
       [](Args a) { return root_perm(a[0], -1); }},
      {"root_perm", 2, "Perm(r -> k r mod n): DFT(n, k) = root_perm(n, k) * DFT(n)",
       [](Args a) { return root_perm(a[0], a[1]); }},
      {"dft_matrix", 2, "DFT(n, k) as a dense matrix (base cases, n <= 64)",
       [](Args a) { return dft_matrix(a[0], a[1]); }},
  };
}

}  // namespace

const std::vector<RuleFunction> &rule_functions() {
  static const std::vector<RuleFunction> functions = [] {
    std::vector<RuleFunction> fs = build();
    for (RuleFunction &f : real_rule_functions()) fs.push_back(std::move(f));
    for (RuleFunction &f : trig_rule_functions()) fs.push_back(std::move(f));
    for (RuleFunction &f : fs) {  // check the argument count before calling
      auto inner = std::move(f.make);
      f.make = [name = f.name, arity = f.arity, inner](const std::vector<int64_t> &args) {
        if (args.size() != arity)
          throw FormulaError(fmt::format("@{} takes {} argument(s), got {}", name, arity, args.size()));
        return inner(args);
      };
    }
    return fs;
  }();
  return functions;
}

const RuleFunction *find_rule_function(const std::string &name) {
  for (const RuleFunction &f : rule_functions())
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace splgen::rewrite
