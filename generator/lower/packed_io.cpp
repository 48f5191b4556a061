#include "generator/lower/packed_io.h"

#include <optional>
#include <vector>

namespace splgen::lower {

namespace {

// a - c j, when that leaves no j in a (the offset of a loop over j's accesses).
std::optional<Affine> offset_of(const Affine &a, const LoopVar &j, int64_t c) {
  Affine rest = a + Affine::var(j, -c);
  for (const auto &[v, coeff] : rest.terms)
    if (v.id == j.id) return std::nullopt;
  return rest;
}

struct PairLoop {
  Affine out, in;  // the offsets of S(h(out + out_stride j, 1)) and G(h(in + in_stride j, 1))
};

// p = Sum(j < m, S(h(out_stride j + o, 1)) K G(h(in_stride j + i, 1))), K a WMat with these
// entries; o and i free of j (0, or b times a transform's size in a batch).
std::optional<PairLoop> pair_loop(const Sigma &p, int64_t out_stride, int64_t in_stride, const std::vector<cplx> &entries) {
  if (p->kind != SigmaKind::Sum || p->children.front()->kind != SigmaKind::Compose) return std::nullopt;
  const std::vector<Sigma> &b = p->children.front()->children;
  if (b.size() != 3 || b[0]->kind != SigmaKind::Scatter || b[1]->kind != SigmaKind::Kernel ||
      b[2]->kind != SigmaKind::Gather || b[0]->dma || b[2]->dma)
    return std::nullopt;
  const IndexFn &out = b[0]->fn, &in = b[2]->fn;
  if (out->kind != FnKind::H || out->s != 1 || in->kind != FnKind::H || in->s != 1 || out->range != p->rows ||
      in->range != p->cols || b[1]->source->kind != SplKind::WideDense || b[1]->source->diag != entries)
    return std::nullopt;
  std::optional<Affine> o = offset_of(out->base, p->var, out_stride), i = offset_of(in->base, p->var, in_stride);
  if (!o || !i) return std::nullopt;
  return PairLoop{*o, *i};
}

const cplx kHalf(0.5, 0.0), kHalfI(0.0, 0.5);

// Sum(j < m, S(h(j, 1)) [1/2, i/2 | 1/2, i/2] G(h(2j + i, 1))): z_j = Re x_(i+2j) + i Re x_(i+2j+1),
// i even. Returns the gather of the z_j from the packed x (m complex at i/2).
std::optional<Sigma> packing(const Sigma &p) {
  std::optional<PairLoop> l = pair_loop(p, 1, 2, {kHalf, kHalfI, kHalf, kHalfI});
  if (!l || !(l->out == Affine::constant(0)) || p->rows != p->var.extent || !l->in.divisible_by(2) || p->cols % 2)
    return std::nullopt;
  return sigma_gather(fn_h(p->rows, p->cols / 2, exact_div(l->in, 2), 1));
}

// Sum(j < m, S(h(2j + o, 1)) [1/2; -i/2 | 1/2; i/2] G(h(j, 1))): y_(o+2j) = Re z_j, y_(o+2j+1) = Im z_j.
std::optional<Sigma> unpacking(const Sigma &p) {
  std::optional<PairLoop> l = pair_loop(p, 2, 1, {kHalf, -kHalfI, kHalf, kHalfI});
  if (!l || !(l->in == Affine::constant(0)) || p->cols != p->var.extent || !l->out.divisible_by(2) || p->rows % 2)
    return std::nullopt;
  return sigma_scatter(fn_h(p->cols, p->rows / 2, exact_div(l->out, 2), 1));
}

// g, an h(b, 1) over reals, as the same over the complex pairs of the packed buffer.
IndexFn halved(const IndexFn &g) {
  if (g->kind != FnKind::H || g->s != 1 || !g->base.divisible_by(2) || g->domain % 2 || g->range % 2) return nullptr;
  return fn_h(g->domain / 2, g->range / 2, exact_div(g->base, 2), 1);
}

// The stages of a composition with the packing (unpacking) replaced by its gather (scatter),
// an identity one left out; `found` says which were. A batch's outer gather (scatter) of
// transform b that loop merging left beside the packing (unpacking) is folded into it.
std::vector<Sigma> strip_stages(std::vector<Sigma> f, bool real_in, bool real_out, PackedIo &found) {
  if (real_in && f.size() >= 2) {
    std::size_t k = f.size() - 1;  // the packing: the last stage, or the one before an outer gather
    IndexFn outer;
    if (f.size() >= 3 && f.back()->kind == SigmaKind::Gather && !f.back()->dma && packing(f[k - 1]))
      if ((outer = halved(f.back()->fn))) --k;
    if (std::optional<Sigma> g = packing(f[k])) {
      const IndexFn fn = outer ? compose(outer, (*g)->fn) : (*g)->fn;
      f.resize(k);
      if (!is_identity(fn)) f.push_back(sigma_gather(fn));
      found.input = true;
    }
  }
  if (real_out && f.size() >= 2) {
    std::size_t k = 0;  // the unpacking: the first stage, or the one after an outer scatter
    IndexFn outer;
    if (f.size() >= 3 && f.front()->kind == SigmaKind::Scatter && !f.front()->dma && unpacking(f[1]))
      if ((outer = halved(f.front()->fn))) k = 1;
    if (std::optional<Sigma> s = unpacking(f[k])) {
      const IndexFn fn = outer ? compose(outer, (*s)->fn) : (*s)->fn;
      f.erase(f.begin(), f.begin() + std::ptrdiff_t(k + 1));
      if (!is_identity(fn)) f.insert(f.begin(), sigma_scatter(fn));
      found.output = true;
    }
  }
  return f;
}

}  // namespace

PackedIo strip_packing(const Sigma &s, bool real_in, bool real_out) {
  PackedIo p{s};
  if (s->kind == SigmaKind::Compose) {
    p.body = sigma_compose(strip_stages(s->children, real_in, real_out, p));
  } else if (s->kind == SigmaKind::Sum && s->mode == SumMode::Plain && s->children.front()->kind == SigmaKind::Compose) {
    // a batch: the loop over the transforms, each one's stages in its body
    std::vector<Sigma> body = strip_stages(s->children.front()->children, real_in, real_out, p);
    if (p.input || p.output) p.body = sigma_sum(s->var, sigma_compose(std::move(body)), s->mode);
  }
  return p;
}

}  // namespace splgen::lower
