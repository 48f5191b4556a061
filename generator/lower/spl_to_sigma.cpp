#include "generator/lower/spl_to_sigma.h"

#include "generator/lower/merge_loops.h"

#include <stdexcept>

namespace splgen {

namespace {

class Lowering {
 public:
  Lowering(const LoweringHook &hook, int first_var) : hook_(hook), next_var_(first_var) {}

  Sigma lower(const Spl &f) {
    if (hook_)
      if (std::optional<Sigma> s = hook_(f)) return *s;
    switch (f->kind) {
      case SplKind::DFT:
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
        std::vector<Sigma> factors;
        for (const Spl &c : f->children) factors.push_back(lower(c));
        return sigma_compose(std::move(factors));
      }
      case SplKind::DirectSum: return lower_direct_sum(f);
      case SplKind::Tagged: return lower(f->children.front());
    }
    throw std::logic_error("unknown formula node");
  }

 private:
  const LoweringHook &hook_;
  int next_var_;

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
    if (is_identity(b) && !is_leaf(a)) return tensor_identity(merge_loops(lower(a)), b->a);
    if (is_identity(b)) {  // A (x) I(n)
      int64_t n = b->a;
      LoopVar j = fresh(n);
      return sigma_sum(j, sigma_compose({sigma_scatter(fn_h(a->rows, a->rows * n, Affine::var(j), n)), lower(a),
                                         sigma_gather(fn_h(a->cols, a->cols * n, Affine::var(j), n))}));
    }
    // A (x) B = (A (x) I(rows B)) * (I(cols A) (x) B)
    return lower(make_compose({tensor(a, make_identity(b->rows)), tensor(make_identity(a->cols), b)}));
  }

  static bool is_leaf(const Spl &a) { return a->kind == SplKind::DFT || a->kind == SplKind::Dense; }

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

Sigma lower_to_sigma(const Spl &formula, const LoweringHook &hook, int first_var) {
  return Lowering(hook, first_var).lower(formula);
}

}  // namespace splgen
