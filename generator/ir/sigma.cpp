#include "generator/ir/sigma.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "generator/ir/hash.h"

#include "generator/ir/print.h"

namespace splgen {

namespace {

std::size_t node_hash(const SigmaNode &n) {
  std::hash<int64_t> h64;
  std::size_t h = std::size_t(n.kind) * 1000003u;
  for (int64_t v : {n.rows, n.cols, int64_t(n.var.id), n.var.extent, int64_t(n.mode), int64_t(n.dma), int64_t(n.put_back)})
    hash_mix(h, h64(v));
  if (n.fn) hash_mix(h, hash_value(n.fn));
  if (n.source) hash_mix(h, n.source->hash);
  for (const Sigma &c : n.children) hash_mix(h, c->hash);
  return h;
}

Sigma make(SigmaNode n) {
  n.hash = node_hash(n);
  return std::make_shared<const SigmaNode>(std::move(n));
}

bool same_fn(const IndexFn &f, const IndexFn &g) { return f && g ? same(f, g) : f == g; }
bool same_source(const Spl &f, const Spl &g) { return f && g ? equal(f, g) : f == g; }

int64_t mulmod(int64_t a, int64_t b, int64_t m) { return int64_t((__int128)a * b % m); }

}  // namespace

Sigma sigma_compose(std::vector<Sigma> factors) {
  std::vector<Sigma> flat;
  for (Sigma &f : factors) {
    if (f->kind == SigmaKind::Compose)
      flat.insert(flat.end(), f->children.begin(), f->children.end());
    else
      flat.push_back(std::move(f));
  }
  if (flat.empty()) throw std::logic_error("empty Sigma-SPL composition");
  if (flat.size() == 1) return flat.front();
  for (std::size_t i = 0; i + 1 < flat.size(); ++i)
    if (flat[i]->cols != flat[i + 1]->rows)
      throw std::logic_error(fmt::format("Sigma-SPL dimension mismatch: {}x{} * {}x{}", flat[i]->rows,
                                         flat[i]->cols, flat[i + 1]->rows, flat[i + 1]->cols));
  SigmaNode n{SigmaKind::Compose, flat.front()->rows, flat.back()->cols};
  n.children = std::move(flat);
  return make(std::move(n));
}

int max_sum_var(const Sigma &s) {
  int m = s->kind == SigmaKind::Sum ? s->var.id : -1;
  for (const Sigma &c : s->children) m = std::max(m, max_sum_var(c));
  return m;
}

Sigma sigma_sum(LoopVar var, Sigma body, SumMode mode) {
  SigmaNode n{SigmaKind::Sum, body->rows, body->cols};
  n.var = var;
  n.mode = mode;
  n.children = {std::move(body)};
  return make(std::move(n));
}

Sigma sigma_sum_list(std::vector<Sigma> terms) {
  if (terms.empty()) throw std::logic_error("empty Sigma-SPL sum");
  if (terms.size() == 1) return terms.front();
  for (const Sigma &t : terms)
    if (t->rows != terms.front()->rows || t->cols != terms.front()->cols)
      throw std::logic_error("Sigma-SPL sum of differently sized terms");
  SigmaNode n{SigmaKind::SumList, terms.front()->rows, terms.front()->cols};
  n.children = std::move(terms);
  return make(std::move(n));
}

Sigma sigma_gather(IndexFn f, bool dma) {
  SigmaNode n{SigmaKind::Gather, f->domain, f->range};
  n.dma = dma;
  n.fn = std::move(f);
  return make(std::move(n));
}

Sigma sigma_scatter(IndexFn f, bool dma, bool put_back) {
  SigmaNode n{SigmaKind::Scatter, f->range, f->domain};
  n.dma = dma;
  n.put_back = dma && put_back;
  n.fn = std::move(f);
  return make(std::move(n));
}

Sigma sigma_diag(Spl source, IndexFn f) {
  if (source->kind != SplKind::Twiddle && source->kind != SplKind::Diag)
    throw std::logic_error("Sigma-SPL Diag needs a diagonal SPL node");
  if (f->range != source->rows) throw std::logic_error("Sigma-SPL Diag: index function range mismatch");
  SigmaNode n{SigmaKind::Diag, f->domain, f->domain};
  n.fn = std::move(f);
  n.source = std::move(source);
  return make(std::move(n));
}

Sigma sigma_kernel(Spl leaf) {
  SigmaNode n{SigmaKind::Kernel, leaf->rows, leaf->cols};
  n.source = std::move(leaf);
  return make(std::move(n));
}

bool operator==(const SigmaNode &x, const SigmaNode &y) {
  if (x.hash != y.hash || x.kind != y.kind || x.rows != y.rows || x.cols != y.cols || x.var != y.var ||
      x.mode != y.mode || x.dma != y.dma || x.put_back != y.put_back || !same_fn(x.fn, y.fn) || !same_source(x.source, y.source) ||
      x.children.size() != y.children.size())
    return false;
  for (std::size_t i = 0; i < x.children.size(); ++i)
    if (!equal(x.children[i], y.children[i])) return false;
  return true;
}

bool equal(const Sigma &x, const Sigma &y) { return x == y || *x == *y; }

cplx diag_entry(const Spl &source, int64_t p) {
  if (source->kind == SplKind::Diag) return diag_values(*source).at(std::size_t(p));
  int64_t N = source->a, n = source->b;  // T(N, n, k): w_N^(k*i*j) at i*n + j
  return root_of_unity(N, mulmod(mulmod(p / n, p % n, N), source->c, N));
}

// y = s x: the matrix applied to one vector, without forming it.
std::vector<cplx> apply_to(const Sigma &s, const std::vector<cplx> &x, Env &env) {
  std::vector<cplx> y(std::size_t(s->rows), 0.0);
  switch (s->kind) {
    case SigmaKind::Compose: {
      std::vector<cplx> v = x;
      for (std::size_t i = s->children.size(); i-- > 0;) v = apply_to(s->children[i], v, env);
      return v;
    }
    case SigmaKind::Sum:
      for (int64_t j = 0; j < s->var.extent; ++j) {
        env[s->var.id] = j;
        std::vector<cplx> t = apply_to(s->children.front(), x, env);
        for (std::size_t i = 0; i < y.size(); ++i) y[i] += t[i];
      }
      env.erase(s->var.id);
      return y;
    case SigmaKind::SumList:
      for (const Sigma &c : s->children) {
        std::vector<cplx> t = apply_to(c, x, env);
        for (std::size_t i = 0; i < y.size(); ++i) y[i] += t[i];
      }
      return y;
    case SigmaKind::Gather:
      for (int64_t i = 0; i < s->fn->domain; ++i) y[std::size_t(i)] = x.at(std::size_t(eval(s->fn, i, env)));
      return y;
    case SigmaKind::Scatter:
      for (int64_t i = 0; i < s->fn->domain; ++i) y.at(std::size_t(eval(s->fn, i, env))) += x[std::size_t(i)];
      return y;
    case SigmaKind::Diag:
      for (int64_t i = 0; i < s->rows; ++i)
        y[std::size_t(i)] = diag_entry(s->source, eval(s->fn, i, env)) * x[std::size_t(i)];
      return y;
    case SigmaKind::Kernel: {
      return apply_matrix(splgen::to_dense(s->source), x);
    }
  }
  throw std::logic_error("bad Sigma-SPL node");
}

Matrix to_dense(const Sigma &s, Env &env) {
  return probe_matrix(s->rows, s->cols, [&](const std::vector<cplx> &e) { return apply_to(s, e, env); });
}

Matrix to_dense(const Sigma &s) {
  Env env;
  return to_dense(s, env);
}

namespace {

std::string diag_source_name(const Spl &source) {
  if (source->kind == SplKind::Twiddle) return print(source);
  return fmt::format("Diag[{}]", source->rows);
}

void print_to(const Sigma &s, int depth, std::string &out) {
  std::string pad(std::size_t(depth) * 2, ' ');
  switch (s->kind) {
    case SigmaKind::Compose:
      for (std::size_t i = 0; i < s->children.size(); ++i) {
        print_to(s->children[i], depth, out);
        if (i + 1 < s->children.size()) out.insert(out.size() - 1, " *");
      }
      break;
    case SigmaKind::Sum:
      out += fmt::format("{}Sum{}({} < {},\n", pad,
                         s->mode == SumMode::Parallel ? "_par" : s->mode == SumMode::Stream ? "_stream" : "",
                         var_name(s->var.id), s->var.extent);
      print_to(s->children.front(), depth + 1, out);
      out.insert(out.size() - 1, ")");
      break;
    case SigmaKind::SumList:
      out += pad + "Sum(\n";
      for (std::size_t i = 0; i < s->children.size(); ++i) {
        print_to(s->children[i], depth + 1, out);
        if (i + 1 < s->children.size()) out.insert(out.size() - 1, ",");
      }
      out.insert(out.size() - 1, ")");
      break;
    case SigmaKind::Gather: out += fmt::format("{}G{}({})\n", pad, s->dma ? "_dma" : "", to_string(s->fn)); break;
    case SigmaKind::Scatter: out += fmt::format("{}S{}({})\n", pad, s->dma ? "_dma" : "", to_string(s->fn)); break;
    case SigmaKind::Diag:
      out += fmt::format("{}Diag({} o {})\n", pad, diag_source_name(s->source), to_string(s->fn));
      break;
    case SigmaKind::Kernel: out += fmt::format("{}{}\n", pad, print(s->source)); break;
  }
}

}  // namespace

std::string print(const Sigma &s) {
  std::string out;
  print_to(s, 0, out);
  return out;
}

}  // namespace splgen
