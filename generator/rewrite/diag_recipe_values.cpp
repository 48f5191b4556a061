#include "generator/rewrite/diag_recipe_values.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "generator/ir/dense.h"

namespace splgen::rewrite {

namespace {

int64_t mulmod(int64_t a, int64_t b, int64_t m) { return int64_t((__int128)mod64(a, m) * mod64(b, m) % m); }

// w_2n^(k l^2), l < n.
std::vector<cplx> chirp_values(int64_t n, int64_t k) {
  std::vector<cplx> d(static_cast<std::size_t>(n));
  for (int64_t l = 0; l < n; ++l) d[std::size_t(l)] = root_of_unity(2 * n, mulmod(k, mulmod(l, l, 2 * n), 2 * n));
  return d;
}

// DFT(M) b / M, b the chirp kernel b_j = w_2n^(-k j^2) for |j| < n wrapped around M.
std::vector<cplx> chirp_spectrum_values(int64_t n, int64_t M, int64_t k) {
  std::vector<lcplx> b(std::size_t(M), 0.0L);
  for (int64_t j = 0; j < n; ++j) {
    lcplx v = long_root(2 * n, -mulmod(k, mulmod(j, j, 2 * n), 2 * n));
    b[std::size_t(j)] = v;
    if (j > 0) b[std::size_t(M - j)] = v;
  }
  std::vector<lcplx> d = long_dft(b);
  std::vector<cplx> out(static_cast<std::size_t>(M));
  for (int64_t r = 0; r < M; ++r) out[std::size_t(r)] = to_double(d[std::size_t(r)] / (long double)M);
  return out;
}

// d_1 .. d_(p-2), d = DFT(p-1) c / (p-1), c_j = w_p^(k g^j).
std::vector<cplx> rader_spectrum_values(int64_t p, int64_t k, int64_t g) {
  const int64_t N = p - 1;
  std::vector<lcplx> c(static_cast<std::size_t>(N));
  int64_t v = 1;
  for (int64_t j = 0; j < N; ++j) c[std::size_t(j)] = long_root(p, mulmod(k, v, p)), v = mulmod(v, g, p);
  std::vector<lcplx> d = long_dft(c);
  for (lcplx &x : d) x /= (long double)N;
  std::vector<cplx> rest;
  for (int64_t j = 1; j < N; ++j) rest.push_back(to_double(d[std::size_t(j)]));
  return rest;
}

}  // namespace

cplx to_double(lcplx v) {
  long double noise = 16 * std::numeric_limits<long double>::epsilon() * std::abs(v);
  long double re = std::fabs(v.real()) <= noise ? 0.0L : v.real(), im = std::fabs(v.imag()) <= noise ? 0.0L : v.imag();
  return cplx(double(re), double(im));
}

std::vector<cplx> recipe_values(const DiagRecipe &r) {
  switch (r.kind) {
    case DiagRecipe::Kind::Chirp: return chirp_values(r.n, r.k);
    case DiagRecipe::Kind::ChirpSpectrum: return chirp_spectrum_values(r.n, r.M, r.k);
    case DiagRecipe::Kind::RaderSpectrum: return rader_spectrum_values(r.n, r.k, r.g);
    case DiagRecipe::Kind::None: break;
  }
  throw std::invalid_argument("recipe_values: no recipe");
}

Spl recipe_diag(const DiagRecipe &r) {
  if (diag_size(r) <= kMaxPrintedDiag) return make_diag(recipe_values(r), r);
  return make_lazy_diag(r, [r] { return recipe_values(r); });
}

}  // namespace splgen::rewrite
