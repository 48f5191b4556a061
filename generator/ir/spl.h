// SPL formulas: immutable, reference-counted nodes built by checking, normalising
// make_*() factories. Equal formulas have equal hashes; equality is structural.
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator/ir/diag_recipe.h"
#include "generator/ir/real_kind.h"
#include "generator/ir/spl_kind.h"

namespace splgen {

using cplx = std::complex<double>;

// Thrown by factories for ill-formed formulas (bad sizes, dimension mismatch ...).
// The parser turns it into a line:col message.
struct FormulaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tag asks for a subformula to be rewritten for a target paradigm (docs/design.md, "Tags").
enum class TagKind { Vec, Smp, Par, Stream, Tiled, Cubic };
struct Tag {
  TagKind kind;
  std::vector<int64_t> params;  // vec(nu); smp(p,mu); par(p,mu); stream(s); tiled(k); cubic(k)
  bool operator==(const Tag &) const = default;
};
const char *tag_name(TagKind kind);
std::size_t tag_arity(TagKind kind);

struct SplNode;
using Spl = std::shared_ptr<const SplNode>;

struct SplNode {
  SplKind kind;  // DFT ... Tagged (spl_kind.h); the rest are rule terms only
  int64_t rows = 0, cols = 0;
  // DFT: a = n, b = k (root w_n^k, k normalised to [0, n)); I: a = n;
  // RealTransform: a = n, b = the RealKind;
  // L: a = N, b = s; T: a = N, b = n, c = k (w_N^k, normalised to [0, N)).
  int64_t a = 0, b = 0, c = 0;
  std::vector<cplx> diag;      // Diag; Dense: rows x cols entries, row-major
  DiagRecipe recipe;           // Diag of Rader's or Bluestein's rule: how `diag` was computed
  // A Diag above kMaxPrintedDiag entries with a recipe: `diag` is empty, the values come from
  // here when asked for (diag_values).
  std::shared_ptr<const LazyDiagValues> lazy;
  std::vector<int64_t> perm;   // Perm: y[i] = x[perm[i]]; DFTnd, RealTransform of rank >= 2: the dimensions
  std::vector<Spl> children;   // Tensor, Compose (left to right, rightmost applied first), DirectSum, Tagged
  // Tensor: "(x)~", the iteration over tiles of the tiled layouts (two children);
  // Compose: "|", stages separated by a memory fence. The matrices are those of (x) and *.
  bool marked = false;
  Tag tag{TagKind::Vec, {}};   // Tagged
  std::size_t hash = 0;
};

bool operator==(const SplNode &x, const SplNode &y);
bool equal(const Spl &x, const Spl &y);
struct SplHash {
  std::size_t operator()(const Spl &f) const { return f->hash; }
};
struct SplEqual {
  bool operator()(const Spl &x, const Spl &y) const { return equal(x, y); }
};

// Factories. Each checks its arguments (FormulaError) and normalises:
// I(1) (x) A = A, nested tensors/compositions/direct sums are flattened, identities are
// dropped from compositions, L(N,1) = L(N,N) = T(N,1) = T(N,N) = I(N), identity Perm/Diag = I.
Spl make_dft(int64_t n, int64_t k = 1);
// DFT(n1 x n2 x ...) = DFT(n1) (x) DFT(n2) (x) ..., the multi-dimensional DFT (row-major data).
Spl make_dft_nd(std::vector<int64_t> dims, int64_t k = 1);
Spl make_identity(int64_t n);
// RDFT(n), IRDFT(n), WHT(n) (n a power of two), DCTk(n), DSTk(n): docs/transforms.md.
Spl make_real_transform(RealKind kind, int64_t n);
// RDFT(n1 x n2 x ...) and the other kinds on row-major multi-dimensional data, FFTW's
// multi-dimensional r2c/c2r/r2r (docs/transforms.md): a = n1 n2 ..., perm = the dimensions.
Spl make_real_transform_nd(RealKind kind, std::vector<int64_t> dims);
inline RealKind real_kind(const Spl &f) { return RealKind(f->b); }
// The dimensions of a RealTransform node: {n} for rank 1.
std::vector<int64_t> real_transform_dims(const Spl &f);
// Whether a kernel for spec f reads real numbers / writes real numbers (a real transform,
// maybe under tags): its x / y buffer holds one real per element.
bool reads_real(const Spl &f);
bool writes_real(const Spl &f);
Spl make_stride(int64_t N, int64_t s);
Spl make_twiddle(int64_t N, int64_t n, int64_t k = 1);
Spl make_diag(std::vector<cplx> values);
// A Diag whose values follow `recipe` (generator/ir/diag_recipe.h), which the backend may
// compute in the kernel instead of printing them.
Spl make_diag(std::vector<cplx> values, DiagRecipe recipe);
// A Diag of diag_size(recipe) entries whose values `compute` returns when first asked for; its
// hash is the recipe's.
Spl make_lazy_diag(DiagRecipe recipe, std::function<std::vector<cplx>()> compute);
// The entries of a Diag (computing a lazy one's), or of a Dense or WideDense node.
inline const std::vector<cplx> &diag_values(const SplNode &f) { return f.lazy ? f.lazy->get() : f.diag; }
Spl make_perm(std::vector<int64_t> perm);
Spl make_dense(int64_t rows, int64_t cols, std::vector<cplx> values);  // row-major
// WMat(r, c, [M], [C]): y = M x + C conj(x), both row-major (diag holds M then C); the
// blocks of the real transforms' rules (docs/transforms.md). Complex-linear (C = 0) is a Mat.
Spl make_wide_dense(int64_t rows, int64_t cols, std::vector<cplx> linear, std::vector<cplx> conjugate);
Spl make_tensor(std::vector<Spl> factors);
Spl make_tile_tensor(Spl tiles, Spl body);  // tiles (x)~ body: the loop over tiles
Spl make_fence(std::vector<Spl> stages);    // stages[0] | stages[1] | ...
// The transpose, pushed down to the leaves: L(N,s)' = L(N,N/s), Perm' = its inverse,
// (A B)' = B' A', DFT, T and Diag are symmetric, Dense is transposed.
Spl make_transpose(const Spl &f);
Spl make_compose(std::vector<Spl> factors);
Spl make_direct_sum(std::vector<Spl> terms);
Spl make_tagged(Tag tag, Spl child);
inline Spl tensor(Spl x, Spl y) { return make_tensor({std::move(x), std::move(y)}); }
inline Spl compose(Spl x, Spl y) { return make_compose({std::move(x), std::move(y)}); }

// The same node over new children (Tensor, Compose, DirectSum, Tagged), marks kept.
Spl with_children(const Spl &f, std::vector<Spl> children);

bool is_identity(const Spl &f);
int64_t gcd64(int64_t x, int64_t y);
int64_t mod64(int64_t x, int64_t m);  // result in [0, m)
// The most balanced split n = m r (m <= r), with gcd(m, r) = 1 when `coprime`; 1 when none.
int64_t balanced_split(int64_t n, bool coprime = false);

// Any DFT(n) up to this is one unrolled codelet, a leaf that the expansion stops at and the
// lowering prints straight-line. Measured (scalar, -O3, Zen 3): a 64-point codelet runs at 40%
// of the speed of 8 x 8 Cooley-Tukey loops over 8-point codelets.
inline constexpr int64_t kCodeletMax = 32;
inline bool is_codelet_size(int64_t n) { return n <= kCodeletMax; }

}  // namespace splgen
