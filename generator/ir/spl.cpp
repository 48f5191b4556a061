#include "generator/ir/spl.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "generator/ir/hash.h"

namespace splgen {

int64_t gcd64(int64_t x, int64_t y) { return std::gcd(x, y); }
int64_t mod64(int64_t x, int64_t m) {
  int64_t r = x % m;
  return r < 0 ? r + m : r;
}
int64_t balanced_split(int64_t n, bool coprime) {
  int64_t best = 1;
  for (int64_t m = 2; m * m <= n; ++m)
    if (n % m == 0 && (!coprime || gcd64(m, n / m) == 1)) best = m;
  return best;
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

Spl finish(SplNode node) {
  std::size_t h = std::size_t(node.kind) * 1000003u;
  for (int64_t v : {node.rows, node.cols, node.a, node.b, node.c}) hash_mix(h, std::hash<int64_t>{}(v));
  if (node.lazy) {  // the recipe stands for the values
    for (int64_t v : {int64_t(node.recipe.kind), node.recipe.n, node.recipe.M, node.recipe.k, node.recipe.g})
      hash_mix(h, std::hash<int64_t>{}(v));
  }
  for (const cplx &v : node.diag) {
    hash_mix(h, std::hash<double>{}(v.real()));
    hash_mix(h, std::hash<double>{}(v.imag()));
  }
  for (int64_t v : node.perm) hash_mix(h, std::hash<int64_t>{}(v));
  for (const Spl &child : node.children) hash_mix(h, child->hash);
  hash_mix(h, node.marked ? 0x51u : 0x17u);
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
      x.b != y.b || x.c != y.c || x.marked != y.marked || x.diag != y.diag ||
      bool(x.lazy) != bool(y.lazy) || (x.lazy && !(x.recipe == y.recipe)) || x.perm != y.perm || !(x.tag == y.tag) ||
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

Spl make_real_transform(RealKind kind, int64_t n) {
  const char *name = real_kind_name(kind);
  check_size(n, fmt::format("{}(n): n", name).c_str());
  if (kind == RealKind::WHT && (n & (n - 1)) != 0)
    throw FormulaError(fmt::format("WHT(n): n must be a power of two, got {}", n));
  SplNode node{SplKind::RealTransform, real_kind_rows(kind, n), real_kind_cols(kind, n), n, int64_t(kind)};
  return finish(std::move(node));
}

Spl make_real_transform_nd(RealKind kind, std::vector<int64_t> dims) {
  const char *name = real_kind_name(kind);
  if (dims.empty()) throw FormulaError(fmt::format("{}(n1 x n2 ...) needs at least one dimension", name));
  // A dimension of 1 but the last is the identity for these kinds (DFT(1), WHT(1)); not for
  // the DCTs and DSTs, whose 1-point transforms scale (REDFT10(1) = 2).
  const bool unit_is_identity = kind == RealKind::RDFT || kind == RealKind::IRDFT || kind == RealKind::WHT;
  std::vector<int64_t> kept;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != 1 || i + 1 == dims.size() || !unit_is_identity) kept.push_back(dims[i]);
  dims = std::move(kept);
  if (dims.size() == 1) return make_real_transform(kind, dims[0]);
  if (dims.size() > 3)  // rules/real_nd.rules has 2D and 3D; higher ranks would be O(n^2) leaves
    throw FormulaError(fmt::format("{}(n1 x n2 ...): at most 3 dimensions, got {}", name, dims.size()));
  int64_t n = 1, outer = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    make_real_transform(kind, dims[i]);  // checks each dimension as a size of the kind
    n = checked_product(n, dims[i]);
    if (i + 1 < dims.size()) outer *= dims[i];
  }
  // Every dimension but the last is a complex DFT in r2c/c2r; the last is the real one.
  SplNode node{SplKind::RealTransform, outer * real_kind_rows(kind, dims.back()), outer * real_kind_cols(kind, dims.back()),
               n, int64_t(kind)};
  node.perm = std::move(dims);
  return finish(std::move(node));
}

std::vector<int64_t> real_transform_dims(const Spl &f) {
  return f->perm.empty() ? std::vector<int64_t>{f->a} : f->perm;
}

// A batch I(b) (x) A of a real transform reads and writes as A does (docs/transforms.md, "Layouts").
static bool is_batch(const Spl &f) {
  return f->kind == SplKind::Tensor && f->children.size() == 2 && f->children.front()->kind == SplKind::Identity;
}

bool reads_real(const Spl &f) {
  if (f->kind == SplKind::Tagged || is_batch(f)) return reads_real(f->children.back());
  return f->kind == SplKind::RealTransform && real_kind_info(real_kind(f)).real_in;
}

bool writes_real(const Spl &f) {
  if (f->kind == SplKind::Tagged || is_batch(f)) return writes_real(f->children.back());
  return f->kind == SplKind::RealTransform && real_kind_info(real_kind(f)).real_out;
}

Spl make_dft(int64_t n, int64_t k) {
  check_size(n, "DFT(n): n");
  int64_t kk = mod64(k, n);
  if (gcd64(kk, n) != 1)
    throw FormulaError(fmt::format("DFT({},{}): the root exponent must be coprime to the size", n, k));
  SplNode node{SplKind::DFT, n, n, n, kk};
  return finish(std::move(node));
}

Spl make_dft_nd(std::vector<int64_t> dims, int64_t k) {
  if (dims.empty()) throw FormulaError("DFT(n1 x n2 ...) needs at least one dimension");
  if (dims.size() == 1) return make_dft(dims[0], k);
  int64_t n = 1;
  for (int64_t d : dims) {
    check_size(d, "DFT(n1 x n2 ...): each dimension");
    n = checked_product(n, d);
    if (gcd64(mod64(k, d), d) != 1)
      throw FormulaError(fmt::format("DFT(.. x {} x ..,{}): the root exponent must be coprime to every dimension", d, k));
  }
  SplNode node{SplKind::DFTnd, n, n, n, mod64(k, n)};
  node.perm = std::move(dims);
  return finish(std::move(node));
}

Spl make_dense(int64_t rows, int64_t cols, std::vector<cplx> values) {
  check_size(rows, "Mat: rows");
  check_size(cols, "Mat: cols");
  if (int64_t(values.size()) != checked_product(rows, cols))
    throw FormulaError(fmt::format("Mat({},{}) needs {} entries, got {}", rows, cols, rows * cols, values.size()));
  SplNode node{SplKind::Dense, rows, cols};
  node.diag = std::move(values);
  return finish(std::move(node));
}

Spl make_wide_dense(int64_t rows, int64_t cols, std::vector<cplx> linear, std::vector<cplx> conjugate) {
  check_size(rows, "WMat: rows");
  check_size(cols, "WMat: cols");
  int64_t n = checked_product(rows, cols);
  if (int64_t(linear.size()) != n || int64_t(conjugate.size()) != n)
    throw FormulaError(fmt::format("WMat({},{}) needs {} entries in each part, got {} and {}", rows, cols, n,
                                   linear.size(), conjugate.size()));
  if (std::all_of(conjugate.begin(), conjugate.end(), [](const cplx &v) { return v == cplx(0.0); }))
    return make_dense(rows, cols, std::move(linear));
  SplNode node{SplKind::WideDense, rows, cols};
  node.diag = std::move(linear);
  node.diag.insert(node.diag.end(), conjugate.begin(), conjugate.end());
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

Spl make_diag(std::vector<cplx> values) { return make_diag(std::move(values), DiagRecipe{}); }

Spl make_diag(std::vector<cplx> values, DiagRecipe recipe) {
  if (values.empty()) throw FormulaError("Diag needs at least one value");
  int64_t n = int64_t(values.size());
  if (std::all_of(values.begin(), values.end(), [](const cplx &v) { return v == cplx(1.0, 0.0); }))
    return make_identity(n);
  SplNode node{SplKind::Diag, n, n, n};
  node.diag = std::move(values);
  node.recipe = recipe;  // not part of the hash or of equality: the values are
  return finish(std::move(node));
}

Spl make_lazy_diag(DiagRecipe recipe, std::function<std::vector<cplx>()> compute) {
  const int64_t n = diag_size(recipe);
  if (n < 1) throw FormulaError("Diag needs at least one value");
  SplNode node{SplKind::Diag, n, n, n};
  node.recipe = recipe;
  node.lazy = std::make_shared<const LazyDiagValues>(std::move(compute));
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
    if (f->kind == SplKind::Tensor && !f->marked)
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

Spl make_tile_tensor(Spl tiles, Spl body) {
  if (is_identity(tiles) && tiles->rows == 1) return body;
  SplNode node{SplKind::Tensor, checked_product(tiles->rows, body->rows), checked_product(tiles->cols, body->cols)};
  node.children = {std::move(tiles), std::move(body)};
  node.marked = true;
  return finish(std::move(node));
}

Spl make_fence(std::vector<Spl> stages) {
  std::vector<Spl> flat;
  for (Spl &f : stages) {
    if (f->kind == SplKind::Compose && f->marked)
      flat.insert(flat.end(), f->children.begin(), f->children.end());
    else
      flat.push_back(std::move(f));
  }
  if (flat.empty()) throw FormulaError("fence of nothing");
  if (flat.size() == 1) return flat.front();
  for (std::size_t i = 0; i + 1 < flat.size(); ++i)
    if (flat[i]->cols != flat[i + 1]->rows)
      throw FormulaError(fmt::format("dimension mismatch across '|': {}x{} then {}x{}", flat[i]->rows, flat[i]->cols,
                                     flat[i + 1]->rows, flat[i + 1]->cols));
  SplNode node{SplKind::Compose, flat.front()->rows, flat.back()->cols};
  node.children = std::move(flat);
  node.marked = true;
  return finish(std::move(node));
}

Spl with_children(const Spl &f, std::vector<Spl> children) {
  switch (f->kind) {
    case SplKind::Tensor:
      return f->marked ? make_tile_tensor(children.at(0), children.at(1)) : make_tensor(std::move(children));
    case SplKind::Compose: return f->marked ? make_fence(std::move(children)) : make_compose(std::move(children));
    case SplKind::DirectSum: return make_direct_sum(std::move(children));
    case SplKind::Tagged: return make_tagged(f->tag, children.at(0));
    default: return f;
  }
}

Spl make_transpose(const Spl &f) {
  auto map = [](const std::vector<Spl> &v, bool reverse) {
    std::vector<Spl> out;
    for (const Spl &c : v) out.push_back(make_transpose(c));
    if (reverse) std::reverse(out.begin(), out.end());
    return out;
  };
  switch (f->kind) {
    case SplKind::DFT:
    case SplKind::DFTnd:
    case SplKind::Identity:
    case SplKind::Twiddle:
    case SplKind::Diag: return f;
    case SplKind::Stride: return make_stride(f->a, f->a / f->b);
    case SplKind::Perm: {
      std::vector<int64_t> inv(f->perm.size());
      for (std::size_t i = 0; i < inv.size(); ++i) inv[std::size_t(f->perm[i])] = int64_t(i);
      return make_perm(std::move(inv));
    }
    case SplKind::Dense: {
      std::vector<cplx> t(f->diag.size());
      for (int64_t r = 0; r < f->rows; ++r)
        for (int64_t c = 0; c < f->cols; ++c) t[std::size_t(c * f->rows + r)] = f->diag[std::size_t(r * f->cols + c)];
      return make_dense(f->cols, f->rows, std::move(t));
    }
    case SplKind::Tensor:
      if (f->marked) return make_tile_tensor(make_transpose(f->children[0]), make_transpose(f->children[1]));
      return make_tensor(map(f->children, false));
    case SplKind::Compose: return f->marked ? make_fence(map(f->children, true)) : make_compose(map(f->children, true));
    case SplKind::DirectSum: return make_direct_sum(map(f->children, false));
    case SplKind::Tagged: return make_tagged(f->tag, make_transpose(f->children.front()));
    case SplKind::RealTransform:  // real-linear: its transpose is no node of the language
      throw FormulaError(fmt::format("{}({}) has no transpose", real_kind_name(real_kind(f)), fmt::join(real_transform_dims(f), " x ")));
    case SplKind::WideDense: throw FormulaError("a real-linear WMat has no transpose");
    case SplKind::TileTensor: case SplKind::Fence: case SplKind::Transpose: case SplKind::FormulaVar:
    case SplKind::Call: case SplKind::Sum: case SplKind::Gather: case SplKind::Scatter:
      break;  // rule-only kinds are no SplNode (listed, so a new kind warns here: -Wswitch)
  }
  throw FormulaError("unknown formula node");
}

Spl make_compose(std::vector<Spl> factors) {
  if (factors.empty()) throw FormulaError("composition of nothing");
  std::vector<Spl> flat;
  for (Spl &f : factors) {
    if (f->kind == SplKind::Compose && !f->marked)
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
