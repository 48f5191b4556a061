// The real DFT via a half-size complex DFT (Cooley & Lewis & Welch, "The fast Fourier
// transform algorithm: programming considerations in the calculation of sine, cosine and
// Laplace transforms", J. Sound Vib. 1970; Sorensen et al., "Real-valued fast Fourier
// transform algorithms", IEEE TASSP 1987), n = 2m, w = w_n:
//   z_j = x_2j + i x_2j+1,  Z = DFT(m) z,
//   E_k = (Z_k + conj Z_m-k)/2,  O_k = -i (Z_k - conj Z_m-k)/2,  X_k = E_k + w^k O_k,
//   and X_m-k = conj(E_k - w^k O_k): the pair (k, m-k) is one 2x2 block.
// Its inverse (c2r): Z_k = (X_k + conj X_m-k) + i w^-k (X_k - conj X_m-k), Z_0 = (Re X_0 +
// Re X_m) + i (Re X_0 - Re X_m), z = DFT(m, -1) Z, y_2j = Re z_j, y_2j+1 = Im z_j.
#include "generator/rewrite/real_functions.h"

#include <fmt/format.h>

#include "generator/ir/dense.h"

namespace splgen::rewrite {

namespace {

const cplx I1(0.0, 1.0);

void check_size(const char *fn, int64_t v) {
  if (v < 1) throw FormulaError(fmt::format("@{}: the size must be positive, got {}", fn, v));
  if (v > (int64_t(1) << 26)) throw FormulaError(fmt::format("@{}: {} is too large", fn, v));
}

Spl wmat(int64_t r, int64_t c, std::vector<cplx> m, std::vector<cplx> k) { return make_wide_dense(r, c, std::move(m), std::move(k)); }
Spl re1() { return wmat(1, 1, {0.5}, {0.5}); }    // Re(z)
Spl conj1() { return wmat(1, 1, {0.0}, {1.0}); }  // conj(z)

// Re(x) elementwise: I(n) (x) Re(1).
Spl re(int64_t n) {
  check_size("re", n);
  return make_tensor({make_identity(n), re1()});
}

// [x; x]: the vector twice.
Spl twice(int64_t m) { return make_tensor({make_dense(2, 1, {1.0, 1.0}), make_identity(m)}); }

// Perm(i -> m-1-i).
Spl reversal(int64_t m) {
  std::vector<int64_t> p(static_cast<std::size_t>(m));
  for (int64_t i = 0; i < m; ++i) p[std::size_t(i)] = m - 1 - i;
  return make_perm(std::move(p));
}

// (I(m) (x) [1/2, i/2 | 1/2, i/2]): z_j = Re x_2j + i Re x_2j+1.
Spl rdft_pack(int64_t m) {
  check_size("rdft_pack", m);
  return make_tensor({make_identity(m), wmat(1, 2, {0.5, 0.5 * I1}, {0.5, 0.5 * I1})});
}

// The indices of the pairs of a size-m half spectrum, one pair after another:
// [0, m, 1, m-1, 2, m-2, ..., p, m-p, (m/2)], p = (m-1)/2; with_m: whether index m is there.
std::vector<int64_t> pair_order(int64_t m, bool with_m) {
  std::vector<int64_t> order = {0};
  if (with_m) order.push_back(m);
  for (int64_t k = 1; 2 * k < m; ++k) order.push_back(k), order.push_back(m - k);
  if (m % 2 == 0) order.push_back(m / 2);
  return order;
}

Spl gather(const std::vector<int64_t> &order) { return make_perm(order); }

Spl scatter(const std::vector<int64_t> &order) {
  std::vector<int64_t> inv(order.size());
  for (std::size_t t = 0; t < order.size(); ++t) inv[std::size_t(order[t])] = int64_t(t);
  return make_perm(std::move(inv));
}

// The pair loop of the real DFT and its inverse, k = 1..p, p = (m-1)/2: from a pair of
// inputs, [a; b] = A [u_k; u_m-k], then [y_k; y_m-k] = [s a + t b; conj(s a - t b)], t = s
// w_2m^(root k), one 2x2 block each, so that lowering makes one loop (merge_loops.cpp fuses the
// two tensors). The scale s sits in the twiddles and the final sums (fused multiply-adds),
// not in A: rdft_post's halves then cost no multiplications of their own.
Spl pair_loop(int64_t m, const Spl &a, int64_t root, double s) {
  const int64_t p = (m - 1) / 2;
  std::vector<cplx> d;
  for (int64_t k = 1; k <= p; ++k) d.push_back(1.0), d.push_back(s * root_of_unity(2 * m, root * k));
  Spl f = wmat(2, 2, {s, 1.0, 0.0, 0.0}, {0.0, 0.0, s, -1.0});
  return make_compose({make_tensor({make_identity(p), f}), make_diag(std::move(d)), make_tensor({make_identity(p), a})});
}

// Z (m) -> X (m+1), the pairs (k, m-k) of the same 2x2 block (Sorensen et al. 1987):
// X_k = E_k + w^k O_k, X_m-k = conj(E_k - w^k O_k), [E_k; O_k] from [Z_k; Z_m-k];
// X_0, X_m = Re Z_0 +- Im Z_0; X_m/2 = conj Z_m/2 (m even).
Spl rdft_post(int64_t m) {
  check_size("rdft_post", m);
  std::vector<Spl> blocks = {wmat(2, 1, {0.5 - 0.5 * I1, 0.5 + 0.5 * I1}, {0.5 + 0.5 * I1, 0.5 - 0.5 * I1})};
  if (m > 2) blocks.push_back(pair_loop(m, wmat(2, 2, {1.0, 0.0, -I1, 0.0}, {0.0, 1.0, 0.0, I1}), 1, 0.5));
  if (m % 2 == 0) blocks.push_back(conj1());
  return make_compose({scatter(pair_order(m, true)), make_direct_sum(std::move(blocks)), gather(pair_order(m, false))});
}

// X (m+1) -> Z (m): Z_k = u_k + i w^-k v_k, u = X_k + conj X_m-k, v = X_k - conj X_m-k, and
// Z_m-k = conj(u_k - i w^-k v_k), by pairs; Z_0 = (Re X_0 + Re X_m) + i (Re X_0 - Re X_m) (c2r
// ignores their imaginary parts); Z_m/2 = 2 conj X_m/2 (m even).
Spl irdft_pre(int64_t m) {
  check_size("irdft_pre", m);
  const cplx h = 0.5 + 0.5 * I1, g = 0.5 - 0.5 * I1;
  std::vector<Spl> blocks = {wmat(1, 2, {h, g}, {h, g})};
  if (m > 2) blocks.push_back(pair_loop(m, wmat(2, 2, {1.0, 0.0, I1, 0.0}, {0.0, 1.0, 0.0, -I1}), -1, 1.0));
  if (m % 2 == 0) blocks.push_back(wmat(1, 1, {0.0}, {2.0}));
  return make_compose({scatter(pair_order(m, false)), make_direct_sum(std::move(blocks)), gather(pair_order(m, true))});
}

// z (m) -> y (2m): y_2j = Re z_j, y_2j+1 = Im z_j.
Spl irdft_unpack(int64_t m) {
  check_size("irdft_unpack", m);
  return make_tensor({make_identity(m), wmat(2, 1, {0.5, -0.5 * I1}, {0.5, 0.5 * I1})});
}

// X (n/2+1) -> Z (n): the Hermitian extension, Z_j = X_j, Z_n-j = conj X_j, Im X_0 and
// (n even) Im X_n/2 dropped as FFTW's c2r does.
Spl hermitian(int64_t n) {
  check_size("hermitian", n);
  const int64_t h = (n - 1) / 2;
  std::vector<Spl> terms = {re1()};
  if (h > 0) {
    Spl conj_rev = make_compose({make_tensor({make_identity(h), conj1()}), reversal(h)});
    terms.push_back(make_compose({make_direct_sum({make_identity(h), conj_rev}), twice(h)}));
  }
  if (n % 2 == 0) terms.push_back(re1());
  // The blocks give Z_0, Z_1..Z_h, Z_n-h..Z_n-1, (Z_n/2); natural order puts Z_n/2 after Z_h.
  std::vector<int64_t> order;
  for (int64_t t = 0; t <= h; ++t) order.push_back(t);
  if (n % 2 == 0) order.push_back(n - 1);
  for (int64_t i = 0; i < h; ++i) order.push_back(1 + h + i);
  return make_compose({make_perm(order), make_direct_sum(std::move(terms))});
}

// DCT-II through a real DFT of the same size (Makhoul, "A fast cosine transform in one and
// two dimensions", IEEE TASSP 1980): v_j = x_2j, v_n-1-j = x_2j+1 (dct2_perm), V = RDFT(n) v,
// extended by V_n-k = conj V_k, Y_k = 2 Re(w_4n^k V_k) (dct2_post).
Spl dct2_perm(int64_t n) {
  check_size("dct2_perm", n);
  std::vector<int64_t> p(static_cast<std::size_t>(n));
  const int64_t half = (n + 1) / 2;
  for (int64_t i = 0; i < n; ++i) p[std::size_t(i)] = i < half ? 2 * i : 2 * (n - 1 - i) + 1;
  return make_perm(std::move(p));
}

Spl dct2_post(int64_t n) {
  check_size("dct2_post", n);
  const int64_t h = n / 2, back = n - h - 1;  // V_0..V_h given; V_h+1..V_n-1 = conj V_back..V_1
  // [V_0..V_h] -> [V_0..V_h, V_back..V_1]: copy V_1..V_back twice, reverse the copy.
  std::vector<Spl> parts = {make_identity(1)};
  if (back > 0) parts.push_back(twice(back));
  if (h > back) parts.push_back(make_identity(h - back));  // V_h once when n is even
  std::vector<int64_t> order;  // the blocks give V_0, V_1..V_back, V_1..V_back, (V_h)
  for (int64_t i = 0; i <= back; ++i) order.push_back(i);
  if (h > back) order.push_back(2 * back + 1);
  for (int64_t i = 0; i < back; ++i) order.push_back(2 * back - i);
  // 2 Re(w^k V_k) = 2 Re(conj(w^k) conj V_k): the extended entries take the conjugate root.
  std::vector<cplx> d(static_cast<std::size_t>(n));
  for (int64_t k = 0; k < n; ++k) d[std::size_t(k)] = 2.0 * (k <= h ? root_of_unity(4 * n, k) : std::conj(root_of_unity(4 * n, k)));
  return make_compose({re(n), make_diag(std::move(d)), make_perm(order), make_direct_sum(std::move(parts))});
}

// DCT-III by an inverse real DFT of the same size, Makhoul's inverse: with x_n = 0,
// U_k = w_4n^-k (x_k - i x_n-k) for k <= n/2 (Hermitian for real x), v = IRDFT(n) U,
// Y_2j = v_j, Y_2j+1 = v_n-1-j (dct3_out = dct2_perm'). Exact, no scaling: v_j =
// x_0 + 2 sum_m x_m cos(2 pi m (4j+1) / 4n).
Spl dct3_pre(int64_t n) {
  check_size("dct3_pre", n);
  if (n < 2) throw FormulaError("@dct3_pre: n must be at least 2");
  const int64_t h = n / 2;
  // Re(x) in the order x_0, (x_1, x_n-1), ..., then x_h alone when n is even: U_0 = x_0, the
  // pairs give x_k - i x_n-k, and U_h = (1 - i) x_h. One loop over the pairs after lowering
  // (the earlier form, two copies of x truncated, padded and interleaved, was four passes).
  std::vector<int64_t> order = {0};
  const int64_t pairs = (n - 1) / 2;
  for (int64_t k = 1; k <= pairs; ++k) order.push_back(k), order.push_back(n - k);
  std::vector<Spl> blocks = {make_identity(1)};
  if (pairs > 0) blocks.push_back(make_tensor({make_identity(pairs), make_dense(1, 2, {1.0, -I1})}));
  if (n % 2 == 0) order.push_back(h), blocks.push_back(make_dense(1, 1, {cplx(1.0, -1.0)}));
  std::vector<cplx> d(static_cast<std::size_t>(h + 1));
  for (int64_t k = 0; k <= h; ++k) d[std::size_t(k)] = root_of_unity(4 * n, -k);
  return make_compose({make_diag(std::move(d)), make_direct_sum(std::move(blocks)), make_perm(std::move(order)), re(n)});
}

Spl dct3_out(int64_t n) {
  check_size("dct3_out", n);
  return make_transpose(dct2_perm(n));
}

// Diag(1, -1, 1, ...): the alternating signs that turn a cosine transform into a sine one.
Spl alternate(int64_t n) {
  check_size("alternate", n);
  std::vector<cplx> d(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) d[std::size_t(i)] = i % 2 ? -1.0 : 1.0;
  return make_diag(std::move(d));
}

using Args = const std::vector<int64_t> &;

}  // namespace

std::vector<RuleFunction> real_rule_functions() {
  return {
      {"re", 1, "Re(x) elementwise, I(n) (x) WMat(1,1,[1/2],[1/2]): a real input read as the real transforms read it",
       [](Args a) { return re(a[0]); }},
      {"rdft_pack", 1, "z_j = x_2j + i x_2j+1 (m x 2m), the packing of the real DFT by a half-size DFT (Cooley et al. 1970)",
       [](Args a) { return rdft_pack(a[0]); }},
      {"rdft_post", 1, "X_k = E_k + w_2m^k O_k from Z = DFT(m) z, (m+1) x m: RDFT(2m) = rdft_post(m) DFT(m) rdft_pack(m)",
       [](Args a) { return rdft_post(a[0]); }},
      {"irdft_pre", 1, "Z_k = E_k + i O_k from X_0..X_m, m x (m+1): IRDFT(2m) = irdft_unpack(m) DFT(m,-1) irdft_pre(m)",
       [](Args a) { return irdft_pre(a[0]); }},
      {"irdft_unpack", 1, "y_2j = Re z_j, y_2j+1 = Im z_j (2m x m)", [](Args a) { return irdft_unpack(a[0]); }},
      {"dct2_perm", 1, "v_j = x_2j, v_n-1-j = x_2j+1: the input order of DCT-II by a real DFT (Makhoul 1980)",
       [](Args a) { return dct2_perm(a[0]); }},
      {"dct2_post", 1, "Y_k = 2 Re(w_4n^k V_k), V = RDFT(n) v extended: DCT2(n) = dct2_post(n) RDFT(n) dct2_perm(n)",
       [](Args a) { return dct2_post(a[0]); }},
      {"dct3_pre", 1, "U_k = w_4n^-k (x_k - i x_n-k), k <= n/2, x_n = 0 (Makhoul 1980): DCT3(n) = dct3_out(n) IRDFT(n) dct3_pre(n)",
       [](Args a) { return dct3_pre(a[0]); }},
      {"dct3_out", 1, "Y_2j = v_j, Y_2j+1 = v_n-1-j: the transpose of dct2_perm(n)", [](Args a) { return dct3_out(a[0]); }},
      {"flip", 1, "Perm(i -> n-1-i): the reversal J_n", [](Args a) {
         check_size("flip", a[0]);
         return reversal(a[0]);
       }},
      {"alternate", 1, "Diag(1, -1, 1, ...) of size n", [](Args a) { return alternate(a[0]); }},
      {"hermitian", 1, "the Hermitian extension of X_0..X_n/2 to n values (c2r input; Im X_0, Im X_n/2 dropped)",
       [](Args a) { return hermitian(a[0]); }},
  };
}

}  // namespace splgen::rewrite
