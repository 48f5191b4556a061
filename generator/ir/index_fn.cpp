#include "generator/ir/index_fn.h"

#include <fmt/format.h>

#include <functional>
#include <stdexcept>

#include "generator/ir/hash.h"

namespace splgen {

namespace {

IndexFn make(IndexFnNode n) { return std::make_shared<const IndexFnNode>(std::move(n)); }

// t[i] = (n - i) mod n, n = t.size() > 1.
bool is_reversal(const std::vector<int64_t> &t) {
  const int64_t n = int64_t(t.size());
  if (n < 2 || t[0] != 0) return false;
  for (int64_t i = 1; i < n; ++i)
    if (t[std::size_t(i)] != n - i) return false;
  return true;
}

// l(N, m) o h(b, s): the stride permutation read through a strided range. Exact when b's
// remainder modulo n = N/m is known and the range stays inside one block of n, or when
// the stride is a multiple of n.
std::optional<IndexFn> stride_after_h(const IndexFnNode &l, const IndexFnNode &h) {
  int64_t m = l.s, n = l.range / l.s;
  auto qr = divmod(h.base, n);
  if (!qr) return std::nullopt;
  auto &[high, low] = *qr;
  if (low.max() + (h.domain - 1) * h.s < n)  // (low + i*s)*m + high: stays in one block
    return fn_h(h.domain, l.range, high + low * m, h.s * m);
  if (h.s % n == 0)  // low*m + high + i*(s/n)
    return fn_h(h.domain, l.range, high + low * m, h.s / n);
  return std::nullopt;
}

// v(n, s, d) o h(b, t): exact as an h when b's remainder modulo n is known and the range stays
// inside one block, or when t is a multiple of n (the loop over blocks of I(howmany) (x) A).
std::optional<IndexFn> layout_after_h(const IndexFnNode &v, const IndexFnNode &h) {
  auto qr = divmod(h.base, v.mu);
  if (!qr) return std::nullopt;
  auto &[high, low] = *qr;
  if (low.max() + (h.domain - 1) * h.s < v.mu) return fn_h(h.domain, v.range, high * v.outer + low * v.s, h.s * v.s);
  if (h.s % v.mu == 0) return fn_h(h.domain, v.range, high * v.outer + low * v.s, h.s / v.mu * v.outer);
  return std::nullopt;
}

}  // namespace

IndexFn fn_h(int64_t domain, int64_t range, Affine base, int64_t stride) {
  if (base.min() < 0 || base.max() + (domain - 1) * stride >= range || (domain > 1 && stride < 0))
    throw std::logic_error(fmt::format("h({}, {}) leaves [0, {})", to_string(base), stride, range));
  IndexFnNode n{FnKind::H, domain, range, std::move(base), stride};
  return make(std::move(n));
}

IndexFn fn_q(int64_t domain, int64_t range, Affine base, int64_t s, int64_t mu) {
  if (mu < 1 || domain % mu) throw std::logic_error("q: the packet size must divide the domain");
  IndexFnNode n{FnKind::Q, domain, range, std::move(base), s, mu};
  return make(std::move(n));
}

IndexFn fn_stride(int64_t N, int64_t m) { return fn_stride(1, N, m, 1); }

IndexFn fn_stride(int64_t a, int64_t N, int64_t m, int64_t mu) {
  if (m < 1 || N % m) throw std::logic_error("l(N, m): m must divide N");
  if (a < 1 || mu < 1) throw std::logic_error("l(a; N, m; mu): a and mu must be positive");
  if (m == 1 || m == N) return fn_identity(a * N * mu);
  IndexFnNode n{FnKind::Stride, a * N * mu, a * N * mu, Affine::constant(0), m, mu};
  n.outer = a;
  return make(std::move(n));
}

IndexFn fn_table(std::vector<int64_t> table, int64_t mu) {
  if (mu < 1) throw std::logic_error("table: the packet size must be positive");
  IndexFnNode n{FnKind::Table, int64_t(table.size()) * mu, int64_t(table.size()) * mu};
  n.mu = mu;
  n.reversal = mu == 1 && is_reversal(table);
  n.table = std::make_shared<const std::vector<int64_t>>(std::move(table));
  return make(std::move(n));
}

IndexFn fn_layout(int64_t howmany, int64_t n, int64_t stride, int64_t dist) {
  if (howmany < 1 || n < 1 || stride < 1 || dist < 0) throw std::logic_error("v(n, s, d): bad layout");
  const int64_t range = (howmany - 1) * dist + (n - 1) * stride + 1;
  if (howmany == 1 || dist == n * stride) return fn_h(howmany * n, range, Affine::constant(0), stride);
  if (stride == howmany && dist == 1) return fn_stride(howmany * n, howmany);
  IndexFnNode v{FnKind::Layout, howmany * n, range, Affine::constant(0), stride, n};
  v.outer = dist;
  return make(std::move(v));
}

IndexFn fn_identity(int64_t n) { return fn_h(n, n, Affine::constant(0), 1); }

bool is_identity(const IndexFn &f) {
  return f->kind == FnKind::H && f->domain == f->range && f->s == 1 && f->base == Affine::constant(0);
}

IndexFn compose(const IndexFn &f, const IndexFn &g) {
  if (g->range != f->domain)
    throw std::logic_error(fmt::format("composing index functions: range {} != domain {}", g->range, f->domain));
  if (is_identity(g)) return f;
  if (is_identity(f)) return g;
  if (f->kind == FnKind::H && g->kind == FnKind::H)
    return fn_h(g->domain, f->range, f->base + g->base * f->s, f->s * g->s);
  if (f->kind == FnKind::Stride && f->outer == 1 && f->mu == 1 && g->kind == FnKind::H)
    if (auto r = stride_after_h(*f, *g)) return *r;
  if (f->kind == FnKind::Layout && g->kind == FnKind::H)
    if (auto r = layout_after_h(*f, *g)) return *r;
  if (f->kind == FnKind::Compose)  // (a o b) o g = a o (b o g), simplifying b o g first
    return compose(f->f, compose(f->g, g));
  IndexFnNode n{FnKind::Compose, g->domain, f->range};
  n.f = f, n.g = g;
  return make(std::move(n));
}

bool same(const IndexFn &f, const IndexFn &g) {
  if (f == g) return true;
  if (f->kind != g->kind || f->domain != g->domain || f->range != g->range || !(f->base == g->base) ||
      f->s != g->s || f->mu != g->mu || f->outer != g->outer)
    return false;
  switch (f->kind) {
    case FnKind::Table: return *f->table == *g->table;
    case FnKind::Compose: return same(f->f, g->f) && same(f->g, g->g);
    default: return true;
  }
}

std::size_t hash_value(const IndexFn &f) {
  std::hash<int64_t> h64;
  std::size_t h = std::size_t(f->kind) * 1000003u;
  for (int64_t v : {f->domain, f->range, f->base.c0, f->s, f->mu, f->outer}) hash_mix(h, h64(v));
  for (const auto &[var, coeff] : f->base.terms)
    for (int64_t v : {int64_t(var.id), var.extent, coeff}) hash_mix(h, h64(v));
  if (f->kind == FnKind::Table)
    for (int64_t v : *f->table) hash_mix(h, h64(v));
  if (f->kind == FnKind::Compose) {
    hash_mix(h, hash_value(f->f));
    hash_mix(h, hash_value(f->g));
  }
  return h;
}

std::optional<IndexFn> inverse(const IndexFn &f) {
  if (f->domain != f->range) return std::nullopt;
  switch (f->kind) {
    case FnKind::H:
      if (is_identity(f)) return f;
      return std::nullopt;
    case FnKind::Stride: {
      int64_t N = f->range / (f->outer * f->mu);
      return fn_stride(f->outer, N, N / f->s, f->mu);
    }
    case FnKind::Table: {
      std::vector<int64_t> inv(f->table->size());
      for (std::size_t i = 0; i < inv.size(); ++i) inv[std::size_t((*f->table)[i])] = int64_t(i);
      return fn_table(std::move(inv), f->mu);
    }
    case FnKind::Compose: {
      auto a = inverse(f->f), b = inverse(f->g);
      if (a && b) return compose(*b, *a);
      return std::nullopt;
    }
    case FnKind::Q:
    case FnKind::Layout: return std::nullopt;
  }
  return std::nullopt;
}

IndexFn rename_var(const IndexFn &f, int from, const LoopVar &to) {
  if (!f) return f;
  IndexFnNode n = *f;
  n.base = Affine::constant(f->base.c0);
  for (const auto &[v, c] : f->base.terms) n.base = n.base + Affine::var(v.id == from ? to : v, c);
  n.f = rename_var(f->f, from, to), n.g = rename_var(f->g, from, to);
  return make(std::move(n));
}

int64_t eval(const IndexFn &f, int64_t i, const Env &env) {
  switch (f->kind) {
    case FnKind::H: return f->base.eval(env) + i * f->s;
    case FnKind::Q: return (f->base.eval(env) + (i / f->mu) * f->s) * f->mu + i % f->mu;
    case FnKind::Stride: {
      int64_t block = f->range / f->outer, n = block / (f->mu * f->s), p = i % block / f->mu;
      return i - i % block + ((p % n) * f->s + p / n) * f->mu + i % f->mu;
    }
    case FnKind::Table: return (*f->table)[std::size_t(i / f->mu)] * f->mu + i % f->mu;
    case FnKind::Layout: return i / f->mu * f->outer + i % f->mu * f->s;
    case FnKind::Compose: return eval(f->f, eval(f->g, i, env), env);
  }
  throw std::logic_error("bad index function");
}

void eval_each(const IndexFn &f, std::vector<int64_t> &points, const Env &env) {
  switch (f->kind) {
    case FnKind::H:
    case FnKind::Q: {
      const int64_t base = f->base.eval(env);  // once, not per point: Env is a map
      if (f->kind == FnKind::H)
        for (int64_t &i : points) i = base + i * f->s;
      else
        for (int64_t &i : points) i = (base + (i / f->mu) * f->s) * f->mu + i % f->mu;
      return;
    }
    case FnKind::Compose:
      eval_each(f->g, points, env);
      eval_each(f->f, points, env);
      return;
    default:
      for (int64_t &i : points) i = eval(f, i, env);  // no loop variables
      return;
  }
}

Idx apply_index(const IndexFn &f, const Idx &i) {
  switch (f->kind) {
    case FnKind::H: return idx_add(idx_affine(f->base), idx_scale(i, f->s));
    case FnKind::Q:
      return idx_add(idx_scale(idx_add(idx_affine(f->base), idx_scale(idx_div(i, f->mu), f->s)), f->mu),
                     idx_mod(i, f->mu));
    case FnKind::Stride: {
      int64_t block = f->range / f->outer, n = block / (f->mu * f->s);
      Idx p = f->mu == 1 ? i : idx_div(i, f->mu);
      if (f->outer > 1) p = idx_mod(p, n * f->s);
      Idx within = idx_add(idx_scale(idx_mod(p, n), f->s), idx_div(p, n));
      if (f->mu > 1) within = idx_add(idx_scale(within, f->mu), idx_mod(i, f->mu));
      return f->outer > 1 ? idx_add(idx_scale(idx_div(i, block), block), within) : within;
    }
    case FnKind::Table:
      if (f->reversal) return idx_mod(idx_add(idx_const(f->domain), idx_scale(i, -1)), f->domain);  // i < n: n - i > 0
      if (f->mu == 1) return idx_lookup(f->table, i);
      return idx_add(idx_scale(idx_lookup(f->table, idx_div(i, f->mu)), f->mu), idx_mod(i, f->mu));
    case FnKind::Layout: return idx_add(idx_scale(idx_div(i, f->mu), f->outer), idx_scale(idx_mod(i, f->mu), f->s));
    case FnKind::Compose: return apply_index(f->f, apply_index(f->g, i));
  }
  throw std::logic_error("bad index function");
}

std::string to_string(const IndexFn &f) {
  switch (f->kind) {
    case FnKind::H: return fmt::format("h[{}<-{}]({}, {})", f->range, f->domain, to_string(f->base), f->s);
    case FnKind::Q:
      return fmt::format("q[{}<-{}]({}, {}, {})", f->range, f->domain, to_string(f->base), f->s, f->mu);
    case FnKind::Stride:
      if (f->outer == 1 && f->mu == 1) return fmt::format("l({}, {})", f->range, f->s);
      return fmt::format("l({}; {}, {}; {})", f->outer, f->range / (f->outer * f->mu), f->s, f->mu);
    case FnKind::Table: {
      std::string s = "perm(";
      for (std::size_t i = 0; i < f->table->size(); ++i) s += fmt::format("{}{}", i ? "," : "", (*f->table)[i]);
      return f->mu == 1 ? s + ")" : fmt::format("{}; {})", s, f->mu);
    }
    case FnKind::Layout: return fmt::format("v[{}<-{}]({}, {}, {})", f->range, f->domain, f->mu, f->s, f->outer);
    case FnKind::Compose: return fmt::format("{} o {}", to_string(f->f), to_string(f->g));
  }
  return "?";
}

}  // namespace splgen
