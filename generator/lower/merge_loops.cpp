#include "generator/lower/merge_loops.h"

#include <optional>
#include <stdexcept>
#include <vector>

namespace splgen::lower {

namespace {

bool is_sum(const Sigma &s) { return s->kind == SigmaKind::Sum || s->kind == SigmaKind::SumList; }

Sigma rebuild(const Sigma &s, std::vector<Sigma> kids) {
  switch (s->kind) {
    case SigmaKind::Compose: return sigma_compose(std::move(kids));
    case SigmaKind::Sum: return sigma_sum(s->var, kids.front(), s->mode);
    case SigmaKind::SumList: return sigma_sum_list(std::move(kids));
    default: return s;
  }
}

template <class F>
Sigma map_terms(const Sigma &s, F f) {  // applies f to the body of every term of a sum
  std::vector<Sigma> kids;
  for (const Sigma &c : s->children) kids.push_back(f(c));
  return rebuild(s, std::move(kids));
}

// x * G(f)
Sigma push_gather(const Sigma &x, const IndexFn &f) {
  if (is_sum(x)) return map_terms(x, [&](const Sigma &t) { return push_gather(t, f); });
  if (x->kind == SigmaKind::Gather && !x->dma) return sigma_gather(compose(f, x->fn));
  if (x->kind == SigmaKind::Compose) {
    std::vector<Sigma> kids = x->children;
    const Sigma &last = kids.back();
    if ((last->kind == SigmaKind::Gather && !last->dma) || is_sum(last)) {
      kids.back() = push_gather(last, f);
      return sigma_compose(std::move(kids));
    }
  }
  return sigma_compose({x, sigma_gather(f)});
}

// x * Diag(d)
Sigma push_diag_right(const Sigma &x, const Sigma &d) {
  if (is_sum(x)) return map_terms(x, [&](const Sigma &t) { return push_diag_right(t, d); });
  if (x->kind == SigmaKind::Compose) {
    std::vector<Sigma> kids = x->children;
    const Sigma last = kids.back();
    if (last->kind == SigmaKind::Gather && !last->dma) {
      kids.back() = sigma_diag(d->source, compose(d->fn, last->fn));
      kids.push_back(last);
      return sigma_compose(std::move(kids));
    }
    if (is_sum(last)) {
      kids.back() = push_diag_right(last, d);
      return sigma_compose(std::move(kids));
    }
  }
  return sigma_compose({x, d});
}

// S(f) * x
Sigma push_scatter(const IndexFn &f, const Sigma &x) {
  if (is_sum(x)) return map_terms(x, [&](const Sigma &t) { return push_scatter(f, t); });
  if (x->kind == SigmaKind::Scatter && !x->dma) return sigma_scatter(compose(f, x->fn));
  if (x->kind == SigmaKind::Compose) {
    std::vector<Sigma> kids = x->children;
    const Sigma &first = kids.front();
    if ((first->kind == SigmaKind::Scatter && !first->dma) || is_sum(first)) {
      kids.front() = push_scatter(f, first);
      return sigma_compose(std::move(kids));
    }
  }
  return sigma_compose({sigma_scatter(f), x});
}

// Diag(d) * x
Sigma push_diag_left(const Sigma &d, const Sigma &x) {
  if (is_sum(x)) return map_terms(x, [&](const Sigma &t) { return push_diag_left(d, t); });
  if (x->kind == SigmaKind::Compose) {
    std::vector<Sigma> kids = x->children;
    const Sigma first = kids.front();
    if (first->kind == SigmaKind::Scatter && !first->dma) {
      kids.insert(kids.begin() + 1, sigma_diag(d->source, compose(d->fn, first->fn)));
      return sigma_compose(std::move(kids));
    }
    if (is_sum(first)) {
      kids.front() = push_diag_left(d, first);
      return sigma_compose(std::move(kids));
    }
  }
  return sigma_compose({d, x});
}

// s with loop variable `from` renamed `to`.
Sigma rename_var(const Sigma &s, int from, const LoopVar &to) {
  switch (s->kind) {
    case SigmaKind::Gather: return sigma_gather(rename_var(s->fn, from, to), s->dma);
    case SigmaKind::Scatter: return sigma_scatter(rename_var(s->fn, from, to), s->dma);
    case SigmaKind::Diag: return sigma_diag(s->source, rename_var(s->fn, from, to));
    case SigmaKind::Kernel: return s;
    default: return map_terms(s, [&](const Sigma &c) { return rename_var(c, from, to); });
  }
}

bool straight_line(const Sigma &s) {
  if (is_sum(s)) return false;
  for (const Sigma &c : s->children)
    if (!straight_line(c)) return false;
  return true;
}

// f(i) for all values of v and i distinct, f using no other loop variable: then
// G(f_v) S(f_u) is I for u = v and 0 otherwise.
bool disjoint_images(const IndexFn &f, const LoopVar &v) {
  constexpr int64_t kBudget = int64_t(1) << 22;
  if (f->domain * v.extent > kBudget) return false;
  std::vector<char> seen(std::size_t(f->range), 0);
  for (Env env = {{v.id, 0}}; env[v.id] < v.extent; ++env[v.id])
    for (int64_t i = 0; i < f->domain; ++i) {
      int64_t p = 0;
      try {
        p = eval(f, i, env);
      } catch (const std::logic_error &) {
        return false;  // another loop variable
      }
      if (p < 0 || p >= f->range || seen[std::size_t(p)]) return false;
      seen[std::size_t(p)] = 1;
    }
  return true;
}

// Loop fusion: Sum_v (X_v G(f_v)) * Sum_u (S(f_u) Y_u) = Sum_v X_v Y_v when the f_v are
// injective with disjoint images, for straight-line bodies (the real DFT's pair loop:
// post-butterflies * twiddles * pre-butterflies, one pass instead of two).
std::optional<Sigma> fuse_sums(const Sigma &left, const Sigma &right) {
  if (left->kind != SigmaKind::Sum || right->kind != SigmaKind::Sum || left->mode != SumMode::Plain ||
      right->mode != SumMode::Plain || left->var.extent != right->var.extent)
    return std::nullopt;
  const Sigma &lb = left->children.front();
  const Sigma rb = rename_var(right->children.front(), right->var.id, left->var);
  if (lb->kind != SigmaKind::Compose || rb->kind != SigmaKind::Compose || !straight_line(lb) || !straight_line(rb))
    return std::nullopt;
  const Sigma &g = lb->children.back(), &s = rb->children.front();
  if (g->kind != SigmaKind::Gather || s->kind != SigmaKind::Scatter || g->dma || s->dma || !same(g->fn, s->fn) ||
      !disjoint_images(g->fn, left->var))
    return std::nullopt;
  std::vector<Sigma> body(lb->children.begin(), lb->children.end() - 1);
  body.insert(body.end(), rb->children.begin() + 1, rb->children.end());
  return sigma_sum(left->var, sigma_compose(std::move(body)));
}

// One merge of the adjacent factors left * right, or nothing. DMA gathers and scatters are
// explicit block transfers (the stream and par rules): they stay where the rules put them.
// In the body of a Sum_par, S(f) * Sum(A_i) = Sum(S(f) A_i) too: the worker's block then reaches
// the inner loops' scatters, whose stages lowering sees read and write the same places (in
// place, without a temporary of the whole size; 1.3-1.6x on the 1-thread timing of DFT(2^14..2^18)).
std::optional<Sigma> merge_pair(const Sigma &left, const Sigma &right, bool parallel_body) {
  if (left->dma || right->dma) return std::nullopt;
  if (parallel_body && left->kind == SigmaKind::Scatter && is_sum(right)) return push_scatter(left->fn, right);
  if (right->kind == SigmaKind::Gather && (is_sum(left) || left->kind == SigmaKind::Gather))
    return push_gather(left, right->fn);
  if (right->kind == SigmaKind::Diag && is_sum(left)) return push_diag_right(left, right);
  if (left->kind == SigmaKind::Gather && left->rows == left->cols && is_sum(right))
    if (auto inv = inverse(left->fn)) return push_scatter(*inv, right);
  if (left->kind == SigmaKind::Diag && is_sum(right)) return push_diag_left(left, right);
  if (left->kind == SigmaKind::Scatter && right->kind == SigmaKind::Scatter)
    return sigma_scatter(compose(left->fn, right->fn));
  return fuse_sums(left, right);
}

Sigma merge_compose(std::vector<Sigma> kids, bool parallel_body) {
  // A permutation table in front of a list of blocks becomes their scatters first, not the
  // gathers of the stage before it: the blocks' stores are then affine (the c2r pre-pass's
  // pairs, generator/ir/affine.h), and the stage before keeps its own index functions.
  for (std::size_t i = 0; i + 1 < kids.size(); ++i) {
    const Sigma &g = kids[i];
    if (g->kind == SigmaKind::Gather && !g->dma && g->fn->kind == FnKind::Table && g->rows == g->cols &&
        kids[i + 1]->kind == SigmaKind::SumList) {
      kids[i] = push_scatter(*inverse(g->fn), kids[i + 1]);
      kids.erase(kids.begin() + std::ptrdiff_t(i) + 1);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i + 1 < kids.size(); ++i) {
      if (auto merged = merge_pair(kids[i], kids[i + 1], parallel_body)) {
        kids[i] = *merged;
        kids.erase(kids.begin() + std::ptrdiff_t(i) + 1);
        // The merged factor may itself be a composition: flatten and look again.
        Sigma flat = sigma_compose(std::move(kids));
        kids = flat->kind == SigmaKind::Compose ? flat->children : std::vector<Sigma>{flat};
        changed = true;
        break;
      }
    }
  }
  return sigma_compose(std::move(kids));
}

}  // namespace

namespace {

Sigma merge(const Sigma &s, bool parallel_body) {
  if (s->children.empty()) return s;
  const bool par = s->kind == SigmaKind::Sum && s->mode == SumMode::Parallel;
  std::vector<Sigma> kids;
  for (const Sigma &c : s->children) kids.push_back(merge(c, par));
  if (s->kind == SigmaKind::Compose) return merge_compose(std::move(kids), parallel_body);
  return rebuild(s, std::move(kids));
}

}  // namespace

Sigma merge_loops(const Sigma &s) { return merge(s, false); }

}  // namespace splgen::lower
