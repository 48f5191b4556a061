#include "generator/lower/packed_io.h"

#include <vector>

namespace splgen::lower {

namespace {

// p = Sum(j < m, S(h(out_stride j, 1)) K G(h(in_stride j, 1))), K a WMat with these entries.
bool pair_loop(const Sigma &p, int64_t out_stride, int64_t in_stride, const std::vector<cplx> &entries) {
  if (p->kind != SigmaKind::Sum || p->children.front()->kind != SigmaKind::Compose) return false;
  const std::vector<Sigma> &b = p->children.front()->children;
  if (b.size() != 3 || b[0]->kind != SigmaKind::Scatter || b[1]->kind != SigmaKind::Kernel ||
      b[2]->kind != SigmaKind::Gather || b[0]->dma || b[2]->dma)
    return false;
  const IndexFn &out = b[0]->fn, &in = b[2]->fn;
  const Affine j = Affine::var(p->var);
  if (out->kind != FnKind::H || out->s != 1 || !(out->base == j * out_stride) || out->range != p->rows ||
      in->kind != FnKind::H || in->s != 1 || !(in->base == j * in_stride) || in->range != p->cols)
    return false;
  return b[1]->source->kind == SplKind::WideDense && b[1]->source->diag == entries;
}

const cplx kHalf(0.5, 0.0), kHalfI(0.0, 0.5);

// s = X * Sum(j < m, S(h(j, 1)) [1/2, i/2 | 1/2, i/2] G(h(2j, 1))): z_j = Re x_2j + i Re x_2j+1.
bool packs_first(const Sigma &s) {
  return s->kind == SigmaKind::Compose && s->children.size() >= 2 &&
         pair_loop(s->children.back(), 1, 2, {kHalf, kHalfI, kHalf, kHalfI});
}

// s = Sum(j < m, S(h(2j, 1)) [1/2; -i/2 | 1/2; i/2] G(h(j, 1))) * X: y_2j = Re z_j, y_2j+1 = Im z_j.
bool unpacks_last(const Sigma &s) {
  return s->kind == SigmaKind::Compose && s->children.size() >= 2 &&
         pair_loop(s->children.front(), 2, 1, {kHalf, -kHalfI, kHalf, kHalfI});
}

}  // namespace

PackedIo strip_packing(const Sigma &s, bool real_in, bool real_out) {
  PackedIo p{s};
  if (real_in && packs_first(p.body)) {
    p.body = sigma_compose(std::vector<Sigma>(p.body->children.begin(), p.body->children.end() - 1));
    p.input = true;
  }
  if (real_out && unpacks_last(p.body)) {
    p.body = sigma_compose(std::vector<Sigma>(p.body->children.begin() + 1, p.body->children.end()));
    p.output = true;
  }
  return p;
}

}  // namespace splgen::lower
