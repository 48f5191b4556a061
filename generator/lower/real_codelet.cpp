#include "generator/lower/real_codelet.h"

#include "generator/ir/dense.h"
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
    case RealKind::RDFT:  // rdft_half
      return even ? make_compose({fn("rdft_post", {m}), make_dft(m), fn("rdft_pack", {m})}) : nullptr;
    case RealKind::IRDFT:  // irdft_half
      return even ? make_compose({fn("irdft_unpack", {m}), make_dft(m, -1), fn("irdft_pre", {m})}) : nullptr;
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

// (A0 (x) A1 (x) ...) x: the rest on each of A0's column blocks, then A0 down each column.
static std::vector<CExpr> symbolic_tensor(const std::vector<Spl> &factors, std::size_t first, const std::vector<CExpr> &x) {
  if (first + 1 == factors.size()) return symbolic_apply(factors[first], x);
  const Spl &a = factors[first];
  int64_t rb = 1, cb = 1;
  for (std::size_t i = first + 1; i < factors.size(); ++i) rb *= factors[i]->rows, cb *= factors[i]->cols;
  std::vector<CExpr> t;
  for (int64_t i = 0; i < a->cols; ++i) {
    std::vector<CExpr> block(x.begin() + std::ptrdiff_t(i * cb), x.begin() + std::ptrdiff_t((i + 1) * cb));
    for (CExpr &v : symbolic_tensor(factors, first + 1, block)) t.push_back(v);
  }
  std::vector<CExpr> y(std::size_t(a->rows * rb)), column(std::size_t(a->cols));
  for (int64_t q = 0; q < rb; ++q) {
    for (int64_t i = 0; i < a->cols; ++i) column[std::size_t(i)] = t[std::size_t(i * rb + q)];
    std::vector<CExpr> out = symbolic_apply(a, column);
    for (int64_t p = 0; p < a->rows; ++p) y[std::size_t(p * rb + q)] = out[std::size_t(p)];
  }
  return y;
}

std::vector<CExpr> symbolic_apply(const Spl &f, const std::vector<CExpr> &x) {
  switch (f->kind) {
    case SplKind::Identity: return x;
    case SplKind::Compose: {
      std::vector<CExpr> v = x;
      for (std::size_t i = f->children.size(); i-- > 0;) v = symbolic_apply(f->children[i], v);
      return v;
    }
    case SplKind::Tensor: return symbolic_tensor(f->children, 0, x);
    case SplKind::DirectSum: {
      std::vector<CExpr> y;
      std::size_t at = 0;
      for (const Spl &c : f->children) {
        std::vector<CExpr> part(x.begin() + std::ptrdiff_t(at), x.begin() + std::ptrdiff_t(at + std::size_t(c->cols)));
        for (CExpr &v : symbolic_apply(c, part)) y.push_back(v);
        at += std::size_t(c->cols);
      }
      return y;
    }
    case SplKind::Perm: {
      std::vector<CExpr> y;
      for (int64_t from : f->perm) y.push_back(x[std::size_t(from)]);
      return y;
    }
    case SplKind::Stride: {  // y[i n + j] = x[j m + i], m = s, n = N/s
      const int64_t m = f->b, n = f->a / f->b;
      std::vector<CExpr> y(x.size());
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) y[std::size_t(i * n + j)] = x[std::size_t(j * m + i)];
      return y;
    }
    case SplKind::Twiddle: {  // w_N^(k i j) at i n + j
      const int64_t N = f->a, n = f->b, k = f->c;
      std::vector<CExpr> y(x.size());
      for (int64_t i = 0; i < N / n; ++i)
        for (int64_t j = 0; j < n; ++j)
          y[std::size_t(i * n + j)] = c_mul_root(x[std::size_t(i * n + j)], N, mod64(i * j % N * k, N));
      return y;
    }
    case SplKind::Diag: {
      std::vector<CExpr> y;
      for (std::size_t i = 0; i < x.size(); ++i) y.push_back(c_mul(x[i], c_const(f->diag[i])));
      return y;
    }
    case SplKind::Dense: {
      std::vector<CExpr> y;
      for (int64_t r = 0; r < f->rows; ++r) {
        CExpr sum = c_const(0);
        for (int64_t c = 0; c < f->cols; ++c) {
          const cplx v = f->diag[std::size_t(r * f->cols + c)];
          if (v != cplx(0)) sum = c_add(sum, c_mul(x[std::size_t(c)], c_const(v)));
        }
        y.push_back(sum);
      }
      return y;
    }
    case SplKind::Tagged: return symbolic_apply(f->children.front(), x);
    case SplKind::DFT: case SplKind::WideDense: case SplKind::RealTransform: return symbolic_kernel(f, x);
    default: break;
  }
  throw FormulaError("symbolic_apply: a formula node no codelet is made of");
}

std::vector<CExpr> symbolic_kernel(const Spl &leaf, const std::vector<CExpr> &x) {
  if (leaf->kind == SplKind::DFT) return symbolic_dft(x, leaf->b);
  if (leaf->kind == SplKind::WideDense) return symbolic_wide(leaf, x);
  if (leaf->kind == SplKind::RealTransform && real_kind(leaf) == RealKind::WHT) return symbolic_wht(x);
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
