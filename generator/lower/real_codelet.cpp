#include "generator/lower/real_codelet.h"

#include "generator/ir/dense.h"
#include "generator/lower/real_radix2.h"
#include "generator/lower/symbolic_apply.h"
#include "generator/rewrite/functions.h"

namespace splgen::lower {

CExpr matrix_term(const Spl &matrix, const CExpr &x, const CExpr &entry) {
  if (matrix->kind != SplKind::RealTransform) return c_mul(x, entry);
  if (real_kind_info(real_kind(matrix)).real_in) return {e_mul(entry.re, x.re), e_mul(entry.im, x.re)};
  return {e_sub(e_mul(entry.re, x.re), e_mul(entry.im, x.im)), e_const(0)};  // Re(K x)
}

namespace {

// y = M x + C conj(x), entries folded: re = (Mr + Cr) xr + (Ci - Mi) xi, im = (Mi + Ci) xr + (Mr - Cr) xi.
std::vector<CExpr> symbolic_wide(const Spl &leaf, const std::vector<CExpr> &x) {
  std::vector<CExpr> y;
  const std::size_t n = std::size_t(leaf->rows * leaf->cols);
  for (int64_t r = 0; r < leaf->rows; ++r) {
    CExpr sum = c_const(0);
    for (int64_t c = 0; c < leaf->cols; ++c) {
      cplx m = leaf->diag[std::size_t(r * leaf->cols + c)], k = leaf->diag[n + std::size_t(r * leaf->cols + c)];
      const CExpr &v = x[std::size_t(c)];
      auto term = [](double coefficient, const Expr &e) { return coefficient == 0 ? e_const(0) : e_mul(e_const(coefficient), e); };
      Expr re = e_add(term(m.real() + k.real(), v.re), term(k.imag() - m.imag(), v.im));
      Expr im = e_add(term(m.imag() + k.imag(), v.re), term(m.real() - k.real(), v.im));
      sum = {e_add(sum.re, re), e_add(sum.im, im)};
    }
    y.push_back(sum);
  }
  return y;
}

}  // namespace

// WHT(n) of the real parts by its n/2 log2 n butterflies (the fast algorithm, n log2 n
// additions): from the entries, row sums share only what the factories find (WHT(4): 10).
static std::vector<CExpr> symbolic_wht(const std::vector<CExpr> &x) {
  std::vector<CExpr> y;
  for (const CExpr &v : x) y.push_back({v.re, e_const(0)});
  const std::size_t n = y.size();
  for (std::size_t h = 1; h < n; h *= 2)
    for (std::size_t i = 0; i < n; i += 2 * h)
      for (std::size_t j = i; j < i + h; ++j) {
        const Expr a = y[j].re, b = y[j + h].re;
        y[j].re = e_add(a, b), y[j + h].re = e_sub(a, b);
      }
  return y;
}

using Args = std::vector<int64_t>;
static Spl fn(const char *name, Args args) { return rewrite::find_rule_function(name)->make(args); }

// The fast algorithm of a real transform leaf as a formula over smaller DFTs and real
// transforms, the right side of its breakdown rule (rules/rdft.rules, rules/trig.rules; the
// rule's name in the comment), or nullptr where the codelet comes from the entries (odd real
// DFTs, WHT, sizes the rules do not split). As genfft knows its DFT algorithms, the codelet
// generator knows these; the formulas are the rules' own @functions.
static Spl leaf_algorithm(const Spl &leaf) {
  if (!leaf->perm.empty() || leaf->a < 2) return nullptr;
  const int64_t n = leaf->a, m = n / 2;
  const bool even = n % 2 == 0;
  auto real = [](RealKind k, int64_t size) { return make_real_transform(k, size); };
  switch (real_kind(leaf)) {
    case RealKind::RDFT: case RealKind::IRDFT: return nullptr;  // even: symbolic_real_radix2
    case RealKind::DCT2:  // dct2_rdft
      return make_compose({fn("dct2_post", {n}), real(RealKind::RDFT, n), fn("dct2_perm", {n})});
    case RealKind::DCT3:  // dct3_irdft
      return make_compose({fn("dct3_out", {n}), real(RealKind::IRDFT, n), fn("dct3_pre", {n})});
    case RealKind::DCT4:  // dct4_half, dct4_odd
      return even ? make_compose({fn("dct4_post", {m}), make_dft(m), fn("dct4_pre", {m})})
                  : make_compose({fn("dct4_odd_post", {n}), make_dft(n), fn("dct4_odd_pre", {n})});
    case RealKind::DST2:  // dst2_dct2
      return make_compose({fn("flip", {n}), real(RealKind::DCT2, n), fn("alternate", {n})});
    case RealKind::DST3:  // dst3_dct3
      return make_compose({fn("alternate", {n}), real(RealKind::DCT3, n), fn("flip", {n})});
    case RealKind::DST4:  // dst4_dct4
      return make_compose({fn("flip", {n}), real(RealKind::DCT4, n), fn("alternate", {n})});
    case RealKind::WHT: return nullptr;
  }
  return nullptr;
}

std::vector<CExpr> symbolic_kernel(const Spl &leaf, const std::vector<CExpr> &x) {
  if (leaf->kind == SplKind::DFT) return symbolic_dft(x, leaf->b);
  if (leaf->kind == SplKind::WideDense) return symbolic_wide(leaf, x);
  if (leaf->kind == SplKind::RealTransform && real_kind(leaf) == RealKind::WHT) return symbolic_wht(x);
  // Even real DFTs by the real radix-2 split, not rdft_half's complex DFT and post-pass:
  // RDFT(32) 286 -> 218 operations, IRDFT(16) 103 -> 88 (FFTW's r2cf_16: 78).
  if (leaf->kind == SplKind::RealTransform && leaf->perm.empty() && leaf->a % 2 == 0 &&
      (real_kind(leaf) == RealKind::RDFT || real_kind(leaf) == RealKind::IRDFT))
    return symbolic_real_radix2(x, leaf->a, real_kind(leaf) == RealKind::IRDFT);
  if (Spl algorithm = leaf_algorithm(leaf)) return symbolic_apply(algorithm, x);
  std::vector<CExpr> y;
  for (int64_t r = 0; r < leaf->rows; ++r) {
    CExpr sum = c_const(0);
    for (int64_t c = 0; c < leaf->cols; ++c) {
      cplx k = real_transform_entry(leaf, r, c);
      if (k == cplx(0)) continue;
      CExpr t = matrix_term(leaf, x[std::size_t(c)], c_const(k));
      sum = {e_add(sum.re, t.re), e_add(sum.im, t.im)};
    }
    y.push_back(sum);
  }
  return y;
}

}  // namespace splgen::lower
