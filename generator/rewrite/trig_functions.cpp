// DCT-IV (FFTW's REDFT11) of n = 2m reals by one complex DFT of m points with a pre- and a
// post-twiddle (Wang, "Fast algorithms for the discrete W transform and for the discrete
// Fourier transform", IEEE TASSP 1984; Britanak, Yip & Rao, "Discrete Cosine and Sine
// Transforms", 2007, sec. 4.4; the algorithm of FFTW's reodft11e-r2hc-odd's even case):
//   u_j = (x_2j + i x_n-1-2j) w_8n^(4j+1),  U = DFT(m) u,  V_k = w_2n^k U_k,
//   Y_2k = 2 Re V_k,  Y_n-1-2k = -2 Im V_k            (j, k = 0..m-1)
#include "generator/rewrite/trig_functions.h"

#include <fmt/format.h>

#include "generator/ir/dense.h"

namespace splgen::rewrite {

namespace {

const cplx I1(0.0, 1.0);

void check_half(const char *fn, int64_t m) {
  if (m < 1) throw FormulaError(fmt::format("@{}: the size must be positive, got {}", fn, m));
  if (m > (int64_t(1) << 25)) throw FormulaError(fmt::format("@{}: {} is too large", fn, m));
}

// Perm(p): p[2j] = 2j, p[2j+1] = n-1-2j, the pairs (x_2j, x_n-1-2j) side by side.
Spl pair_ends(int64_t m) {
  std::vector<int64_t> p(static_cast<std::size_t>(2 * m));
  for (int64_t j = 0; j < m; ++j) p[std::size_t(2 * j)] = 2 * j, p[std::size_t(2 * j + 1)] = 2 * m - 1 - 2 * j;
  return make_perm(std::move(p));
}

// x (2m reals) -> u (m): u_j = (Re x_2j + i Re x_n-1-2j) w_8n^(4j+1).
Spl dct4_pre(int64_t m) {
  check_half("dct4_pre", m);
  std::vector<cplx> d(static_cast<std::size_t>(m));
  for (int64_t j = 0; j < m; ++j) d[std::size_t(j)] = root_of_unity(16 * m, 4 * j + 1);
  Spl pack = make_tensor({make_identity(m), make_wide_dense(1, 2, {0.5, 0.5 * I1}, {0.5, 0.5 * I1})});
  return make_compose({make_diag(std::move(d)), pack, pair_ends(m)});
}

// U (m) -> Y (2m reals): Y_2k = 2 Re(w_2n^k U_k), Y_n-1-2k = -2 Im(w_2n^k U_k).
Spl dct4_post(int64_t m) {
  check_half("dct4_post", m);
  std::vector<cplx> d(static_cast<std::size_t>(m));
  for (int64_t k = 0; k < m; ++k) d[std::size_t(k)] = root_of_unity(4 * m, k);
  Spl parts = make_tensor({make_identity(m), make_wide_dense(2, 1, {1.0, I1}, {1.0, -I1})});  // [2 Re v; -2 Im v]
  return make_compose({make_transpose(pair_ends(m)), parts, make_diag(std::move(d))});
}

using Args = const std::vector<int64_t> &;

}  // namespace

std::vector<RuleFunction> trig_rule_functions() {
  return {
      {"dct4_pre", 1, "u_j = (x_2j + i x_n-1-2j) w_8n^(4j+1), n = 2m (m x 2m): DCT4(2m) = dct4_post(m) DFT(m) dct4_pre(m)",
       [](Args a) { return dct4_pre(a[0]); }},
      {"dct4_post", 1, "Y_2k = 2 Re(w_2n^k U_k), Y_n-1-2k = -2 Im(w_2n^k U_k), n = 2m (2m x m)",
       [](Args a) { return dct4_post(a[0]); }},
  };
}

}  // namespace splgen::rewrite
