#include "generator/lower/spl_to_sigma.h"

#include "generator/lower/merge_loops.h"

#include <algorithm>
#include <stdexcept>

namespace splgen::lower {

namespace {

class Lowering {
 public:
  Lowering(const LoweringHook &hook, int first_var, const Blocking &blocking)
      : hook_(hook), next_var_(first_var), blocking_(blocking) {}

  Sigma lower(const Spl &f) {
    if (hook_)
      if (std::optional<Sigma> s = hook_(f)) return *s;
    switch (f->kind) {
      case SplKind::DFT:
      case SplKind::RealTransform:
      case SplKind::WideDense:
      case SplKind::Dense: return sigma_kernel(f);
      case SplKind::DFTnd: {  // row-column: DFT(m x n) = DFT(m) (x) DFT(n)
        std::vector<Spl> dfts;
        for (int64_t d : f->perm) dfts.push_back(make_dft(d, f->b));
        return lower(make_tensor(std::move(dfts)));
      }
      case SplKind::Identity: return sigma_gather(fn_identity(f->a));
      case SplKind::Stride: return sigma_gather(fn_stride(f->a, f->b));
      case SplKind::Perm: return sigma_gather(fn_table(f->perm));
      case SplKind::Twiddle:
      case SplKind::Diag: return sigma_diag(f, fn_identity(f->rows));
      case SplKind::Tensor:  // (x)~ has the matrix of (x); the tile loop is a plain loop here
        return lower_tensor(f->children.front(), tail(f->children));
      case SplKind::Compose: {
        return sigma_compose(lower_factors(f->children));
      }
      case SplKind::DirectSum: return lower_direct_sum(f);
      case SplKind::Tagged: return lower(f->children.front());
      case SplKind::TileTensor: case SplKind::Fence: case SplKind::Transpose: case SplKind::FormulaVar:
      case SplKind::Call: case SplKind::Sum: case SplKind::Gather: case SplKind::Scatter:
        break;  // rule-only kinds are no SplNode (listed, so a new kind warns here: -Wswitch)
    }
    throw std::logic_error("unknown formula node");
  }

 private:
  const LoweringHook &hook_;
  int next_var_;
  Blocking blocking_;
  int64_t columns_ = 1;  // the product of the I(c) that what is being lowered will run under

  LoopVar fresh(int64_t extent) { return LoopVar{next_var_++, extent}; }

  static Spl tail(const std::vector<Spl> &factors) {
    return make_tensor(std::vector<Spl>(factors.begin() + 1, factors.end()));
  }

  Sigma lower_tensor(const Spl &a, const Spl &b) {
    if (is_identity(a)) {  // I(n) (x) B
      LoopVar j = fresh(a->a);
      Affine out_base = Affine::var(j, b->rows), in_base = Affine::var(j, b->cols);
      return sigma_sum(j, sigma_compose({sigma_scatter(fn_h(b->rows, a->a * b->rows, out_base, 1)), lower(b),
                                         sigma_gather(fn_h(b->cols, a->a * b->cols, in_base, 1))}));
    }
    // merged first, so diagonals and permutations ride in the stages beside them
    if (is_identity(b) && !is_leaf(a)) {
      // X's own A (x) I(m) run under this I(c): their blocks count c columns more
      int64_t n = b->a, c = LoweringKnobs::block_columns(a->rows, n, columns_, blocking_.points, blocking_.min_columns);
      int64_t outer = columns_;
      columns_ *= c;
      Sigma x = merge_loops(lower(a));
      columns_ = outer;
      return blocked_tensor_identity(x, n, c);
    }
    if (is_identity(b)) {  // A (x) I(n)
      int64_t n = b->a;
      LoopVar j = fresh(n);
      return sigma_sum(j, sigma_compose({sigma_scatter(fn_h(a->rows, a->rows * n, Affine::var(j), n)), lower(a),
                                         sigma_gather(fn_h(a->cols, a->cols * n, Affine::var(j), n))}));
    }
    // A (x) B = (A (x) I(rows B)) * (I(cols A) (x) B)
    return lower(make_compose({tensor(a, make_identity(b->rows)), tensor(make_identity(a->cols), b)}));
  }

  // (I(m) (x) A) L(mn, m), A composite and the whole out of cache: the m children would each
  // read at stride m, every stage of theirs a cache line per element. Instead L is one
  // blocked transposition pass and the children run on contiguous data (FFTW's
  // dft-indirect-before).
  std::vector<Sigma> lower_factors(const std::vector<Spl> &factors) {
    std::vector<Sigma> out;
    for (std::size_t i = 0; i < factors.size(); ++i) {
      if (i + 1 < factors.size() && transposes_first(factors[i], factors[i + 1])) {
        out.push_back(lower(factors[i]));
        out.push_back(transposition(factors[i + 1]->a, factors[i + 1]->b));
        ++i;
      } else {
        out.push_back(lower(factors[i]));
      }
    }
    return out;
  }

  // t * l = (I(m) (x) A) L(mn, m), A composite, out of cache, m and n whole blocks.
  bool transposes_first(const Spl &t, const Spl &l) const {
    if (t->kind != SplKind::Tensor || t->children.size() != 2 || l->kind != SplKind::Stride) return false;
    const Spl &ident = t->children[0], &a = t->children[1];
    if (!is_identity(ident) || is_leaf(a)) return false;
    int64_t m = ident->a, n = a->cols;
    return blocking_.transpose_pass && l->a == m * n && l->b == m && m * n * columns_ > blocking_.points && m % kTransposeBlock == 0 &&
           n % kTransposeBlock == 0;
  }

  // L(N, m) (y[i n + j] = x[j m + i]) as a loop over blocks of kTransposeBlock rows i: each
  // block reads whole cache lines, x[j m + i .. + b), and vector loops over j store whole rows.
  static constexpr int64_t kTransposeBlock = 4;
  Sigma transposition(int64_t N, int64_t m) {
    int64_t n = N / m, b = kTransposeBlock;
    LoopVar i = fresh(m / b), j = fresh(n);
    return sigma_sum(i, sigma_sum(j, sigma_compose({sigma_scatter(fn_h(b, N, Affine::var(i, b * n) + Affine::var(j), n)),
                                                    sigma_gather(fn_h(b, N, Affine::var(j, m) + Affine::var(i, b), 1))})));
  }

  static bool is_leaf(const Spl &a) {
    return a->kind == SplKind::DFT || a->kind == SplKind::Dense || a->kind == SplKind::RealTransform ||
           a->kind == SplKind::WideDense;
  }

  // A block: straight-line code (gathers, diagonals, at most one kernel, scatters), no loop.
  static bool is_block(const Sigma &s) {
    if (s->kind == SigmaKind::Sum || s->kind == SigmaKind::SumList) return false;
    if (s->kind != SigmaKind::Compose) return true;
    int kernels = 0;
    for (const Sigma &c : s->children) {
      if (!is_block(c)) return false;
      if (c->kind == SigmaKind::Kernel) ++kernels;
    }
    return kernels <= 1;
  }

  // X (x) I(n) for a lowered composite X, with the loop over I(n) innermost:
  //   (X1 X2) (x) I = (X1 (x) I)(X2 (x) I),  (Sum_i X_i) (x) I = Sum_i (X_i (x) I),
  //   B (x) I(n) = Sum_j S(h(j, n)) B G(h(j, n)) for a block B.
  // Vector loops then run over j, whose elements are adjacent, instead of gathering lanes n
  // apart as one loop over I(n) around all of X does (merge_loops folds the h into B's own
  // gathers and scatters).
  Sigma tensor_identity(const Sigma &x, int64_t n) {
    if (x->kind == SigmaKind::Gather || x->kind == SigmaKind::Scatter)
      if (std::optional<IndexFn> f = tensor_identity(x->fn, n))
        return x->kind == SigmaKind::Gather ? sigma_gather(*f, x->dma) : sigma_scatter(*f, x->dma);
    if (is_block(x)) {
      LoopVar j = fresh(n);
      return sigma_sum(j, sigma_compose({sigma_scatter(fn_h(x->rows, x->rows * n, Affine::var(j), n)), x,
                                         sigma_gather(fn_h(x->cols, x->cols * n, Affine::var(j), n))}));
    }
    if (x->kind == SigmaKind::Sum) return sigma_sum(x->var, tensor_identity(x->children.front(), n), x->mode);
    std::vector<Sigma> parts;  // a Compose or SumList that is not a block
    for (const Sigma &c : x->children) parts.push_back(tensor_identity(c, n));
    return x->kind == SigmaKind::Compose ? sigma_compose(std::move(parts)) : sigma_sum_list(std::move(parts));
  }

  // f (x) I(n): i*n + j -> f(i)*n + j, where it has a closed form.
  //   h(b, s) (x) I(n) = q(b, s, n),  q(b, s, mu) (x) I(n) = q(b, s, mu*n)
  static std::optional<IndexFn> tensor_identity(const IndexFn &f, int64_t n) {
    if (f->kind == FnKind::H) return fn_q(f->domain * n, f->range * n, f->base, f->s, n);
    if (f->kind == FnKind::Q) return fn_q(f->domain * n, f->range * n, f->base, f->s, f->mu * n);
    return std::nullopt;
  }

  // X (x) I(n) in blocks of c adjacent columns (c from LoweringKnobs::block_columns), each block
  // through all stages of X while it is in cache (SPIRAL's loop tiling of A (x) I):
  //   X (x) I(n) = Sum(k < n/c) S(q(k, n/c, c)) (X (x) I(c)) G(q(k, n/c, c))
  // Stage by stage over all n columns, every stage of X would be a pass through memory.
  Sigma blocked_tensor_identity(const Sigma &x, int64_t n, int64_t c) {
    if (c == n) return tensor_identity(x, n);
    LoopVar k = fresh(n / c);
    return sigma_sum(k, sigma_compose({sigma_scatter(fn_q(x->rows * c, x->rows * n, Affine::var(k), n / c, c)),
                                       tensor_identity(x, c),
                                       sigma_gather(fn_q(x->cols * c, x->cols * n, Affine::var(k), n / c, c))}));
  }

  Sigma lower_direct_sum(const Spl &f) {
    std::vector<Sigma> terms;
    int64_t r = 0, c = 0;
    for (const Spl &t : f->children) {
      terms.push_back(sigma_compose({sigma_scatter(fn_h(t->rows, f->rows, Affine::constant(r), 1)), lower(t),
                                     sigma_gather(fn_h(t->cols, f->cols, Affine::constant(c), 1))}));
      r += t->rows, c += t->cols;
    }
    return sigma_sum_list(std::move(terms));
  }
};

}  // namespace

int64_t LoweringKnobs::block_columns(int64_t rows, int64_t n, int64_t outer, int64_t block_points, int64_t min_columns) {
  if (rows * n * outer <= block_points) return n;
  // the widest block that fits, else the narrowest; with the columns outside, at least
  // min_columns adjacent ones (or all there are)
  int64_t narrowest = 0, widest_fitting = 0;
  for (int64_t c = 1; c <= n; ++c) {
    if (n % c || c * outer < std::min(n * outer, min_columns)) continue;
    if (!narrowest) narrowest = c;
    if (rows * c * outer <= block_points) widest_fitting = c;
  }
  return widest_fitting ? widest_fitting : narrowest;
}

Sigma lower_to_sigma(const Spl &formula, const LoweringHook &hook, int first_var, const Blocking &blocking) {
  return Lowering(hook, first_var, blocking).lower(formula);
}

}  // namespace splgen::lower
