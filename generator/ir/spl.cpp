#include "generator/ir/spl.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

namespace splgen {

int64_t gcd64(int64_t x, int64_t y) { return std::gcd(x, y); }
int64_t mod64(int64_t x, int64_t m) {
  int64_t r = x % m;
  return r < 0 ? r + m : r;
}

const char *tag_name(TagKind kind) {
  switch (kind) {
    case TagKind::Vec: return "vec";
    case TagKind::Smp: return "smp";
    case TagKind::Par: return "par";
    case TagKind::Stream: return "stream";
    case TagKind::Tiled: return "tiled";
    case TagKind::Cubic: return "cubic";
  }
  return "?";
}

std::size_t tag_arity(TagKind kind) {
  return (kind == TagKind::Smp || kind == TagKind::Par) ? 2 : 1;
}

namespace {

constexpr int64_t kMaxSize = int64_t(1) << 40;

void hash_mix(std::size_t &h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

Spl finish(SplNode node) {
  std::size_t h = std::size_t(node.kind) * 1000003u;
  for (int64_t v : {node.rows, node.cols, node.a, node.b, node.c}) hash_mix(h, std::hash<int64_t>{}(v));
  for (const cplx &v : node.diag) {
    hash_mix(h, std::hash<double>{}(v.real()));
    hash_mix(h, std::hash<double>{}(v.imag()));
  }
  for (int64_t v : node.perm) hash_mix(h, std::hash<int64_t>{}(v));
  for (const Spl &child : node.children) hash_mix(h, child->hash);
  if (node.kind == SplKind::Tagged) {
    hash_mix(h, std::size_t(node.tag.kind));
    for (int64_t v : node.tag.params) hash_mix(h, std::hash<int64_t>{}(v));
  }
  node.hash = h;
  return std::make_shared<const SplNode>(std::move(node));
}

void check_size(int64_t n, const char *what) {
  if (n < 1) throw FormulaError(fmt::format("{} must be a positive size, got {}", what, n));
  if (n > kMaxSize) throw FormulaError(fmt::format("{} is too large: {}", what, n));
}

int64_t checked_product(int64_t x, int64_t y) {
  if (x > kMaxSize / y) throw FormulaError("formula size overflows");
  return x * y;
}

}  // namespace

bool operator==(const SplNode &x, const SplNode &y) {
  if (x.hash != y.hash || x.kind != y.kind || x.rows != y.rows || x.cols != y.cols || x.a != y.a ||
      x.b != y.b || x.c != y.c || x.diag != y.diag || x.perm != y.perm || !(x.tag == y.tag) ||
      x.children.size() != y.children.size())
    return false;
  for (std::size_t i = 0; i < x.children.size(); ++i)
    if (!equal(x.children[i], y.children[i])) return false;
  return true;
}

bool equal(const Spl &x, const Spl &y) { return x == y || *x == *y; }

bool is_identity(const Spl &f) { return f->kind == SplKind::Identity; }

Spl make_identity(int64_t n) {
  check_size(n, "I(n): n");
  SplNode node{SplKind::Identity, n, n, n};
  return finish(std::move(node));
}

Spl make_dft(int64_t n, int64_t k) {
  check_size(n, "DFT(n): n");
  int64_t kk = mod64(k, n);
  if (gcd64(kk, n) != 1)
    throw FormulaError(fmt::format("DFT({},{}): the root exponent must be coprime to the size", n, k));
  SplNode node{SplKind::DFT, n, n, n, kk};
  return finish(std::move(node));
}

Spl make_stride(int64_t N, int64_t s) {
  check_size(N, "L(N,s): N");
  check_size(s, "L(N,s): s");
  if (N % s != 0) throw FormulaError(fmt::format("L({},{}): the stride must divide the size", N, s));
  if (s == 1 || s == N) return make_identity(N);
  SplNode node{SplKind::Stride, N, N, N, s};
  return finish(std::move(node));
}

Spl make_twiddle(int64_t N, int64_t n, int64_t k) {
  check_size(N, "T(N,n): N");
  check_size(n, "T(N,n): n");
  if (N % n != 0) throw FormulaError(fmt::format("T({},{}): n must divide N", N, n));
  int64_t kk = mod64(k, N);
  if (n == 1 || n == N || kk == 0) return make_identity(N);
  SplNode node{SplKind::Twiddle, N, N, N, n, kk};
  return finish(std::move(node));
}

Spl make_diag(std::vector<cplx> values) {
  if (values.empty()) throw FormulaError("Diag needs at least one value");
  int64_t n = int64_t(values.size());
  if (std::all_of(values.begin(), values.end(), [](const cplx &v) { return v == cplx(1.0, 0.0); }))
    return make_identity(n);
  SplNode node{SplKind::Diag, n, n, n};
  node.diag = std::move(values);
  return finish(std::move(node));
}

Spl make_perm(std::vector<int64_t> perm) {
  if (perm.empty()) throw FormulaError("Perm needs at least one index");
  int64_t n = int64_t(perm.size());
  std::vector<bool> seen(perm.size(), false);
  bool identity = true;
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = perm[i];
    if (p < 0 || p >= n || seen[p])
      throw FormulaError(fmt::format("Perm: entries must be a permutation of 0..{}", n - 1));
    seen[p] = true;
    identity = identity && p == i;
  }
  if (identity) return make_identity(n);
  SplNode node{SplKind::Perm, n, n, n};
  node.perm = std::move(perm);
  return finish(std::move(node));
}

Spl make_tensor(std::vector<Spl> factors) {
  std::vector<Spl> flat;
  for (Spl &f : factors) {
    if (f->kind == SplKind::Tensor)
      flat.insert(flat.end(), f->children.begin(), f->children.end());
    else
      flat.push_back(std::move(f));
  }
  std::vector<Spl> merged;  // I(a) (x) I(b) = I(ab); I(1) (x) A = A
  for (Spl &f : flat) {
    if (is_identity(f) && f->rows == 1) continue;
    if (is_identity(f) && !merged.empty() && is_identity(merged.back()))
      merged.back() = make_identity(checked_product(merged.back()->rows, f->rows));
    else
      merged.push_back(std::move(f));
  }
  if (merged.empty()) return make_identity(1);
  if (merged.size() == 1) return merged.front();
  SplNode node{SplKind::Tensor, 1, 1};
  for (const Spl &f : merged) {
    node.rows = checked_product(node.rows, f->rows);
    node.cols = checked_product(node.cols, f->cols);
  }
  node.children = std::move(merged);
  return finish(std::move(node));
}

Spl make_compose(std::vector<Spl> factors) {
  if (factors.empty()) throw FormulaError("composition of nothing");
  std::vector<Spl> flat;
  for (Spl &f : factors) {
    if (f->kind == SplKind::Compose)
      flat.insert(flat.end(), f->children.begin(), f->children.end());
    else
      flat.push_back(std::move(f));
  }
  for (std::size_t i = 0; i + 1 < flat.size(); ++i)
    if (flat[i]->cols != flat[i + 1]->rows)
      throw FormulaError(fmt::format("dimension mismatch in composition: {}x{} times {}x{}", flat[i]->rows,
                                     flat[i]->cols, flat[i + 1]->rows, flat[i + 1]->cols));
  int64_t rows = flat.front()->rows, cols = flat.back()->cols;
  std::vector<Spl> kept;
  for (Spl &f : flat)
    if (!is_identity(f)) kept.push_back(std::move(f));
  if (kept.empty()) return make_identity(rows);
  if (kept.size() == 1) return kept.front();
  SplNode node{SplKind::Compose, rows, cols};
  node.children = std::move(kept);
  return finish(std::move(node));
}

Spl make_direct_sum(std::vector<Spl> terms) {
  if (terms.empty()) throw FormulaError("direct sum of nothing");
  std::vector<Spl> flat;
  for (Spl &f : terms) {
    if (f->kind == SplKind::DirectSum)
      flat.insert(flat.end(), f->children.begin(), f->children.end());
    else
      flat.push_back(std::move(f));
  }
  if (flat.size() == 1) return flat.front();
  SplNode node{SplKind::DirectSum, 0, 0};
  for (const Spl &f : flat) {
    node.rows += f->rows;
    node.cols += f->cols;
    if (node.rows > kMaxSize || node.cols > kMaxSize) throw FormulaError("formula size overflows");
  }
  node.children = std::move(flat);
  return finish(std::move(node));
}

Spl make_tagged(Tag tag, Spl child) {
  if (tag.params.size() != tag_arity(tag.kind))
    throw FormulaError(fmt::format("tag {} takes {} parameter(s), got {}", tag_name(tag.kind),
                                   tag_arity(tag.kind), tag.params.size()));
  for (int64_t p : tag.params)
    if (p < 1) throw FormulaError(fmt::format("tag {}: parameters must be positive, got {}", tag_name(tag.kind), p));
  SplNode node{SplKind::Tagged, child->rows, child->cols};
  node.tag = std::move(tag);
  node.children = {std::move(child)};
  return finish(std::move(node));
}

}  // namespace splgen
