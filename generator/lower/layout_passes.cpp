#include "generator/lower/layout_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "generator/lower/pass_computes.h"

namespace splgen::lower {

namespace {

// One streamed pass: chunk c (of `chunks`) is read through get(c), computed in local memory
// (local order = the chunk's order in main memory), written through put(c).
struct Pass {
  Spl compute;
  std::function<IndexFn(const LoopVar &)> get, put;
  Sigma twiddle_after;  // a diagonal applied between this pass and the next (merged into them)
  // Local permutations around the compute, as gathers: G(left) compute G(right). merge_loops
  // folds them into the compute's first gathers and last scatters, not copy loops through a
  // temporary (tiled(16)[DFT(4096 x 4096)], Zen 3: the copy after the row DFTs took 8% of the time).
  IndexFn left = nullptr, right = nullptr;
};

Spl I(int64_t n) { return make_identity(n); }
Spl L(int64_t N, int64_t m) { return make_stride(N, m); }

struct Shape {
  int dims = 0;       // 1: tiled DFT(n^2), 2: tiled, 3: cubic
  int64_t n = 0, k = 0, P = 0, root = 1;
  int64_t size() const { return dims < 3 ? n * n : n * n * n; }
  int64_t chunk() const { return dims < 3 ? n * k : n * k * k; }  // a stripe (pencil)
  int64_t chunks() const { return size() / chunk(); }
};

Shape shape_of(const Spl &spec) {
  if (!is_block_layout_spec(spec))
    throw FormulaError("a block data layout needs tiled(k)[DFT(n x n)] or cubic(k)[DFT(n x n x n)]");
  const Spl &dft = spec->children.front();
  Shape s;
  s.dims = spec->tag.kind == TagKind::Cubic ? 3 : dft->kind == SplKind::DFT ? 1 : 2;
  s.n = s.dims == 1 ? int64_t(std::llround(std::sqrt(double(dft->a)))) : dft->perm.front();
  s.k = spec->tag.params.front(), s.root = dft->b;
  if (s.dims == 1 && s.n * s.n != dft->a)
    throw FormulaError(fmt::format("tiled({})[DFT({})]: the 1D tiled form (eq. (19)) needs a square size n^2", s.k, dft->a));
  if (s.k < 1 || s.n % s.k)
    throw FormulaError(fmt::format("{}({}): the block size k must divide n = {}", tag_name(spec->tag.kind), s.k, s.n));
  s.P = s.n / s.k;
  return s;
}

// Chunk c as h(c C, 1): a contiguous stripe (pencil) of the block layout, or of rows.
std::function<IndexFn(const LoopVar &)> contiguous(const Shape &s) {
  return [s](const LoopVar &c) { return fn_h(s.chunk(), s.size(), Affine::var(c, s.chunk()), 1); };
}

// Packets of `packet` elements, `count` of them per chunk, the first at c packet, the next
// `stride` packets further: q(c, stride, packet).
std::function<IndexFn(const LoopVar &)> packets(const Shape &s, int64_t stride, int64_t packet) {
  return [=](const LoopVar &c) { return fn_q(s.chunk(), s.size(), Affine::var(c), stride, packet); };
}

// 2D, eq. (17). A stripe of the tiled layout is (tc, ir, ic), of rows (ir, tc, ic); T = R9b
// = L(n, k) (x) I(k) takes the first to the second (as a gather), T' = L(n, n/k) (x) I(k);
// t, tt their gather functions.
std::vector<Pass> tiled_passes(const Shape &s, DataLayout layout) {
  const int64_t n = s.n, k = s.k, P = s.P;
  Spl T = make_tensor({L(n, k), I(k)}), Tt = make_tensor({L(n, P), I(k)});
  Spl rows = make_tensor({I(k), make_dft(n, s.root)}), cols = make_tensor({make_dft(n, s.root), I(k)});
  auto stripe = contiguous(s);
  auto column = packets(s, P, k * k);  // tiles (tr, c), tr < n/k: R10a reads whole tiles
  const IndexFn t = fn_stride(1, n, k, k), tt = fn_stride(1, n, P, k);
  switch (layout) {
    case DataLayout::ToBlock: return {{Tt, stripe, stripe}};
    case DataLayout::FromBlock: return {{T, stripe, stripe}};
    case DataLayout::Block: return {{rows, stripe, stripe, nullptr, tt, t}, {cols, column, column}};
    case DataLayout::Natural: break;
  }
  // Natural: the columns first, got from x in rows of k (a column stripe in the order of its
  // tiles) and put as whole tiles; then the rows, got as a tiled stripe and put as k natural
  // rows on the same positions (in place in y). Two passes, not three (rows, columns, P^-1):
  // a pass costs about as much as the DFTs on this machine (the P^-1 pass, a pure copy, took a
  // third of tiled(16)[DFT(4096 x 4096)], Zen 3).
  return {{cols, packets(s, P, k), column}, {rows, stripe, stripe, nullptr, nullptr, t}};
}

// 1D, eq. (19): DFT(n^2) = (DFT_n (x) I_n) T^{n^2}_n (I_n (x) DFT_n) L^{n^2}_n on the tiled
// n x n matrix. The first pass reads a column stripe (whole tiles), computes its k columns
// and writes them as k rows: a row stripe, whose tiles are the local result with each k x k
// block transposed (I(P) (x) L(k^2, k)). The twiddles (in memory order: the diagonal read
// through Q = P^-1, which swaps tile column and row within a stripe) merge into the second
// pass, the columns of the 2D case. Natural: the conversions P, P^-1 before and after (the
// six-step algorithm's first and last transposes, in whole tiles).
std::vector<Pass> tiled_1d_passes(const Shape &s, DataLayout layout) {
  const int64_t n = s.n, k = s.k, P = s.P;
  Spl T = make_tensor({L(n, k), I(k)}), Tt = make_tensor({L(n, P), I(k)});
  Spl cols = make_tensor({make_dft(n, s.root), I(k)});
  auto stripe = contiguous(s);
  auto column = packets(s, P, k * k);
  Sigma twiddles = sigma_diag(make_twiddle(n * n, n, s.root), fn_stride(P, P * k, P, k));
  Pass first{cols, column, stripe, twiddles, fn_stride(P, k * k, k, 1)}, second{cols, column, column};
  switch (layout) {
    case DataLayout::ToBlock: return {{Tt, stripe, stripe}};
    case DataLayout::FromBlock: return {{T, stripe, stripe}};
    case DataLayout::Block: return {first, second};
    case DataLayout::Natural: break;
  }
  return {{Tt, stripe, stripe}, first, second, {T, stripe, stripe}};
}

// 3D, eq. (18). A pencil of cubes (c0, c1, .) of the cubic layout is (c2, i0, i1, i2); of the
// natural layout (i0, i1, c2, i2): U = L(P k^2, k^2) (x) I(k) takes the first to the second.
// A pencil along dimension 1 is (c1, i0, i1, i2); V = I(P) (x) L(k^2, k) (x) I(k) swaps i0, i1
// (u, ut, v: the gather functions of U, U', V).
std::vector<Pass> cubic_passes(const Shape &s, DataLayout layout) {
  const int64_t n = s.n, k = s.k, P = s.P, cube = k * k * k;
  Spl U = make_tensor({L(P * k * k, k * k), I(k)}), Ut = make_tensor({L(P * k * k, P), I(k)});
  Spl lines = make_tensor({I(k * k), make_dft(n, s.root)}), planes = make_tensor({make_dft(n, s.root), I(k * k)});
  auto pencil = contiguous(s);                // cubes (c0, c1, 0..P-1), c = c0 P + c1
  auto dim0 = packets(s, P * P, cube);        // cubes (0..P-1, c1, c2), c = c1 P + c2
  auto dim1 = [=](const LoopVar &c) {         // cubes (c0, 0..P-1, c2), c = c0 P + c2:
    IndexFn virt = fn_q(s.chunk(), s.size(), Affine::var(c), P * P, cube);  // in the order (c1, c0, c2)
    return compose(fn_stride(1, P * P, P, P * cube), virt);
  };
  auto natural = [=](const LoopVar &c) {      // rows (c0 k + i0, c1 k + i1, .), c = c0 P + c1
    return compose(fn_stride(P, P * k, P, k * n), fn_h(s.chunk(), s.size(), Affine::var(c, s.chunk()), 1));
  };
  const IndexFn u = fn_stride(1, P * k * k, k * k, k), ut = fn_stride(1, P * k * k, P, k), v = fn_stride(P, k * k, k, k);
  Pass p1{planes, dim1, dim1, nullptr, v, v}, p0{planes, dim0, dim0};
  switch (layout) {
    case DataLayout::ToBlock: return {{Ut, natural, pencil}};
    case DataLayout::FromBlock: return {{U, pencil, natural}};
    case DataLayout::Block: return {{lines, pencil, pencil, nullptr, ut, u}, p1, p0};
    case DataLayout::Natural: break;
  }
  return {{lines, natural, pencil, nullptr, ut}, p1, p0, {U, pencil, natural}};
}

}  // namespace

const char *layout_name(DataLayout layout) {
  switch (layout) {
    case DataLayout::Natural: return "natural";
    case DataLayout::Block: return "block";
    case DataLayout::ToBlock: return "to-block";
    case DataLayout::FromBlock: return "from-block";
  }
  return "?";
}

bool is_block_layout_spec(const Spl &spec) {
  if (spec->kind != SplKind::Tagged || (spec->tag.kind != TagKind::Tiled && spec->tag.kind != TagKind::Cubic))
    return false;
  const Spl &dft = spec->children.front();
  if (spec->tag.kind == TagKind::Tiled && dft->kind == SplKind::DFT) return true;  // eq. (19)
  const std::size_t dims = spec->tag.kind == TagKind::Tiled ? 2 : 3;
  if (dft->kind != SplKind::DFTnd || dft->perm.size() != dims) return false;
  return std::all_of(dft->perm.begin(), dft->perm.end(), [&](int64_t d) { return d == dft->perm.front(); });
}

void check_block_layout(const Spl &spec) { shape_of(spec); }

int64_t block_layout_position(const Spl &spec, int64_t i) {
  const Shape s = shape_of(spec);
  const int64_t n = s.n, k = s.k, P = s.P;
  if (s.dims < 3) {
    const int64_t r = i / n, c = i % n;
    return ((r / k * P + c / k) * k + r % k) * k + c % k;
  }
  const int64_t a0 = i / (n * n), a1 = i / n % n, a2 = i % n;
  return (((a0 / k * P + a1 / k) * P + a2 / k) * k + a0 % k) * k * k + a1 % k * k + a2 % k;
}

Sigma layout_passes(const Spl &spec, DataLayout layout, const std::function<Sigma(const Spl &, int)> &lower_compute) {
  const Shape s = shape_of(spec);
  std::vector<Pass> passes = s.dims == 1   ? tiled_1d_passes(s, layout)
                            : s.dims == 2 ? tiled_passes(s, layout)
                                          : cubic_passes(s, layout);
  int next = 0;
  const std::vector<Sigma> computes = lower_pass_computes(passes, lower_compute, next);
  std::vector<Sigma> stages;  // applied first = rightmost
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const LoopVar c{next++, s.chunks()}, one{next++, 1};
    // The compute inside a one-iteration loop: its own gathers and scatters (the local
    // permutations) stay in local memory instead of joining the transfers.
    std::vector<Sigma> compute = {computes[i]};
    if (passes[i].left) compute.insert(compute.begin(), sigma_gather(passes[i].left));
    if (passes[i].right) compute.push_back(sigma_gather(passes[i].right));
    Sigma body = sigma_compose({sigma_scatter(passes[i].put(c), true), sigma_sum(one, sigma_compose(std::move(compute))),
                                sigma_gather(passes[i].get(c), true)});
    stages.insert(stages.begin(), sigma_sum(c, body, SumMode::Stream));
    if (passes[i].twiddle_after) stages.insert(stages.begin(), passes[i].twiddle_after);
  }
  return stages.size() == 1 ? stages.front() : sigma_compose(std::move(stages));
}

}  // namespace splgen::lower
