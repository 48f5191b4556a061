#include "generator/lower/pencil_ranks.h"

#include <fmt/format.h>

#include <algorithm>

#include "generator/ir/print.h"

namespace splgen::lower {

const std::string &decomposition_name(Decomposition d) {
  static const std::string slab = "slab", pencil = "pencil";
  return d == Decomposition::Slab ? slab : pencil;
}

std::array<int64_t, 3> pencil_dims(const Spl &spec) {
  Spl inner = spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  if (inner->kind != SplKind::DFTnd || inner->perm.size() != 3)
    throw FormulaError(fmt::format("--decomposition pencil: needs a 3D DFT(m x n x r), not {} (docs/mpi.md)", splgen::print(spec)));
  return {inner->perm[0], inner->perm[1], inner->perm[2]};
}

namespace {

// Why p0 x p1 does not fit dims; empty when it does.
std::string misfit(const std::array<int64_t, 3> &d, int p0, int p1) {
  if (d[0] % p0) return fmt::format("p0 = {} does not divide m = {}", p0, d[0]);
  if (d[1] % p0) return fmt::format("p0 = {} does not divide n = {}", p0, d[1]);
  if (d[1] % p1) return fmt::format("p1 = {} does not divide n = {}", p1, d[1]);
  if (d[2] % p1) return fmt::format("p1 = {} does not divide r = {}", p1, d[2]);
  return "";
}

std::string dims_text(const std::array<int64_t, 3> &d) { return fmt::format("DFT({} x {} x {})", d[0], d[1], d[2]); }

}  // namespace

IndexFn swap_digits(int64_t rows, int64_t groups, int64_t packet) {
  if (rows == 1 || groups == 1) return fn_identity(rows * groups * packet);
  return fn_stride(1, rows * groups, rows, packet);
}

std::array<int, 2> pencil_grid(const std::array<int64_t, 3> &dims, int ranks, std::array<int, 2> asked) {
  if (asked[0] > 0) {
    if (int64_t(asked[0]) * asked[1] != ranks)
      throw FormulaError(fmt::format("--grid {}x{} is {} ranks, not {}", asked[0], asked[1], int64_t(asked[0]) * asked[1], ranks));
    const std::string why = misfit(dims, asked[0], asked[1]);
    if (!why.empty())
      throw FormulaError(fmt::format("--grid {}x{}: {} of {} (p0 | m, n and p1 | n, r; docs/mpi.md)", asked[0], asked[1], why,
                                     dims_text(dims)));
    return asked;
  }
  std::array<int, 2> best{};
  for (int p0 = 1; p0 <= ranks; ++p0) {
    if (ranks % p0 || !misfit(dims, p0, ranks / p0).empty()) continue;
    const int p1 = ranks / p0;
    // the largest min(p0, p1); among equals p0 <= p1 (the smaller group in the second exchange)
    if (!best[0] || std::min(p0, p1) > std::min(best[0], best[1])) best = {p0, p1};
  }
  if (!best[0])
    throw FormulaError(fmt::format("--decomposition pencil: no grid p0 x p1 of {} ranks fits {} (p0 | m, n and p1 | n, r; "
                                   "docs/mpi.md)", ranks, dims_text(dims)));
  return best;
}

RankProgram distribute_pencils(const Spl &spec, std::array<int, 2> grid, int overlap,
                               const std::function<Sigma(const Spl &)> &lower_compute) {
  const std::array<int64_t, 3> dims = pencil_dims(spec);
  Spl inner = spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  const int64_t root = inner->b;
  const std::string why = misfit(dims, grid[0], grid[1]);
  if (!why.empty()) throw FormulaError(fmt::format("pencil grid {}x{}: {} of {}", grid[0], grid[1], why, dims_text(dims)));
  const int64_t m = dims[0], n = dims[1], r = dims[2], p0 = grid[0], p1 = grid[1];
  const int64_t a0 = m / p0, b1 = n / p1, c1 = r / p1, b0 = n / p0, K = overlap;
  if (K < 1 || a0 % K)
    throw FormulaError(fmt::format("--overlap {}: the chunks split the {} rows of m each rank holds (m/p0 = {}/{}), which {} "
                                   "does not divide (docs/mpi.md)", K, a0, m, p0, K));
  const int64_t ak = a0 / K;  // of those rows, a chunk's
  RankProgram p;
  p.ranks = int(p0 * p1), p.points = m * n * r, p.local = p.points / p.ranks;
  p.dims = dims, p.grid = grid;
  // send: the output permutation as a gather (send[s] = v[send(s)]), which loop merging pushes
  // into the compute's scatters (a scatter outside a loop it only merges in a Sum_par body)
  auto local = [&](const Spl &compute, const IndexFn &gather, const IndexFn &send) {
    std::vector<Sigma> factors;
    if (!is_identity(send)) factors.push_back(sigma_gather(send));
    factors.push_back(lower_compute(compute));
    if (!is_identity(gather)) factors.push_back(sigma_gather(gather));
    p.steps.push_back(RankStep{false, {}, factors.size() == 1 ? factors[0] : sigma_compose(std::move(factors)), int(K)});
  };
  const IndexFn id = fn_identity(p.local / K);
  // With --overlap K each of the first two stages and exchanges runs on K consecutive slices,
  // a slice the ak = a0/K rows [c ak, (c+1) ak) of m (stages 1 and 2 are independent over
  // them): the same steps with a0 rows replaced by ak. DFT(r) along the ak b1 rows; column
  // block d of every row goes to rank d of the grid row.
  local(make_tensor({make_identity(ak * b1), make_dft(r, root)}), id, swap_digits(p1, ak * b1, c1));
  if (p1 > 1) p.steps.push_back(RankStep{true, {int(p1), 1}, nullptr, int(K)});
  // Received: p1 blocks of ak x b1 x c1 (block d: rows [d b1, ..) of n); DFT(n) along n, then
  // row block d' of n (b0 rows) to rank d' of the grid column.
  local(make_tensor({make_identity(ak), make_dft(n, root), make_identity(c1)}), swap_digits(ak, p1, b1 * c1),
        swap_digits(p0, ak, b0 * c1));
  if (p0 > 1) p.steps.push_back(RankStep{true, {int(p0), int(p1)}, nullptr, int(K)});
  // Received: K slices of p0 blocks of ak x b0 x c1 (slice c, block d: rows d a0 + c ak + [0, ak)
  // of m), which the gather puts in order m x b0 x c1: DFT(m) on the whole part, once.
  local(make_tensor({make_dft(m, root), make_identity(b0 * c1)}), swap_digits(p0, K, ak * b0 * c1), fn_identity(p.local));
  p.steps.back().chunks = 1;
  return p;
}

namespace {

// The dimensions of a 2D or 3D DFT spec (under its tags) and its root; FormulaError otherwise.
std::pair<std::vector<int64_t>, int64_t> slab_dims(const Spl &spec, int overlap) {
  Spl inner = spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  if (inner->kind != SplKind::DFTnd || inner->perm.size() < 2 || inner->perm.size() > 3)
    throw FormulaError(fmt::format("--overlap {}: slab kernels overlap 2D and 3D DFTs; {} is not built yet (docs/mpi.md)",
                                   overlap, splgen::print(spec)));
  return {inner->perm, inner->b};
}

// The rest of a row of m: DFT(n) or DFT(n x r).
Spl row_dft(const std::vector<int64_t> &dims, int64_t root) {
  if (dims.size() == 2) return make_dft(dims[1], root);
  return make_dft_nd({dims.begin() + 1, dims.end()}, root);
}

}  // namespace

RankProgram distribute_slabs(const Spl &spec, int ranks, int overlap, const std::function<Sigma(const Spl &)> &lower_compute) {
  const auto [dims, root] = slab_dims(spec, overlap);
  const int64_t m = dims[0], N = spec->rows, R = N / m, p = ranks, K = overlap;
  if (p < 2 || m % p || R % p)
    throw FormulaError(fmt::format("slabs: {} ranks must divide m = {} and the {} points of a row of m", p, m, R));
  const int64_t a0 = m / p, C = R / p;  // the rows of m a rank holds; its columns after the first exchange
  if (K < 1 || a0 % K)
    throw FormulaError(fmt::format("--overlap {}: the chunks split the {} rows of m each rank holds (m/p = {}/{}), which {} "
                                   "does not divide (docs/mpi.md)", K, a0, m, p, K));
  if (C % K)
    throw FormulaError(fmt::format("--overlap {}: the second exchange's chunks split the {} columns each rank holds after the "
                                   "first (N/(m p) = {}/({}*{})), which {} does not divide (docs/mpi.md)", K, C, N, m, p, K));
  const int64_t ak = a0 / K, Ck = C / K;  // a chunk's rows (first half), columns (second half)
  RankProgram prog;
  prog.ranks = ranks, prog.points = N, prog.local = N / p;
  auto step = [&](Sigma local, int chunks, int64_t column_offset = 0) {
    RankStep s{false, {}, std::move(local), chunks};
    s.column_offset = column_offset;
    prog.steps.push_back(std::move(s));
  };
  // Chunk c of x is the ak rows [c ak, (c+1) ak) of the a0 the rank holds: the DFT of each row,
  // then its columns [d C, (d+1) C) to rank d (send order: the digit swap).
  step(sigma_compose({sigma_gather(swap_digits(p, ak, C)), lower_compute(make_tensor({make_identity(ak), row_dft(dims, root)}))}),
       int(K));
  prog.steps.push_back(RankStep{true, {}, nullptr, int(K)});
  // Received: K slices of p blocks of ak x C (slice c1, block a: rows a a0 + c1 ak + [0, ak) of
  // m). DFT(m) needs every slice, so the second half chunks the C columns instead: chunk c
  // reads columns [c Ck, (c+1) Ck) of all m rows from point c Ck of the receive buffer on (the
  // row swap of the slices on the m x Ck part, then rows of C), and writes its m x Ck part
  // whole, where rows [d a0, ..) are contiguous: rank d's block, no packing.
  const IndexFn gather = compose(fn_layout(m, Ck, 1, C), swap_digits(p, K, ak * Ck));
  step(sigma_compose({lower_compute(make_tensor({make_dft(m, root), make_identity(Ck)})), sigma_gather(gather)}), int(K), Ck);
  prog.steps.push_back(RankStep{true, {}, nullptr, int(K)});
  // Received: K slices (c) of p blocks (a) of a0 x Ck, y's rows i and columns a C + c Ck + j: y
  // is the digits (i, a, c, j) of (c, a, i, j), two digit swaps; once, after every chunk arrived.
  step(sigma_gather(compose(swap_digits(p, K, a0 * Ck), swap_digits(a0, p * K, Ck))), 1);
  return prog;
}

namespace {

// The most even split N = m n (m >= n) with q | m and q | n; {0, 0} when there is none.
std::pair<int64_t, int64_t> even_split(int64_t N, int64_t q) {
  std::pair<int64_t, int64_t> best{0, 0};
  for (int64_t n = q; n * n <= N; n += q)
    if (N % n == 0 && (N / n) % q == 0) best = {N / n, n};
  return best;
}

}  // namespace

RankProgram distribute_1d(const Spl &spec, int ranks, int overlap, int64_t preferred_n,
                          const std::function<Sigma(const Spl &)> &lower_compute) {
  Spl inner = spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  if (inner->kind != SplKind::DFT) throw FormulaError(fmt::format("--overlap {}: not a 1D DFT: {}", overlap, splgen::print(spec)));
  const int64_t N = inner->a, root = inner->b, p = ranks, K = overlap;
  const bool preferred = preferred_n > 0 && N % preferred_n == 0 && preferred_n % (p * K) == 0 && (N / preferred_n) % (p * K) == 0;
  const auto [m, n] = preferred ? std::pair<int64_t, int64_t>{N / preferred_n, preferred_n} : even_split(N, p * K);
  if (p < 2 || K < 1 || !m)
    throw FormulaError(fmt::format("--overlap {}: DFT({}) on {} ranks needs a split {} = m n with {}*{} = {} dividing m and n "
                                   "(each rank's m/{} and n/{} columns in {} chunks), and has none (docs/mpi.md)", K, N, p, N, p,
                                   K, p * K, p, p, K));
  // a: the rows of x (n x m) a rank holds; b: the columns of it, of Z = (I(m) (x) DFT(n)) L x
  // (m x n) rows, after the first exchange; e: Z's columns after the second; bk, ek: a chunk's
  const int64_t a = n / p, b = m / p, e = n / p, bk = b / K, ek = e / K;
  RankProgram prog;
  prog.ranks = ranks, prog.points = N, prog.local = N / p;
  auto step = [&](Sigma local, int chunks, int64_t column_offset, bool workers = false) {
    RankStep s{false, {}, std::move(local), chunks};
    s.column_offset = column_offset, s.chunk_workers = workers;
    prog.steps.push_back(std::move(s));
  };
  auto exchange = [&] { prog.steps.push_back(RankStep{true, {}, nullptr, int(K)}); };
  // Chunk c: columns d b + c bk + [0, bk) of the rank's a rows, for each rank d, read from point
  // c bk of x on and written in send order (block d: a x bk).
  step(sigma_gather(compose(fn_layout(a * p, bk, 1, b), swap_digits(p, a, bk))), int(K), bk);
  exchange();
  // Received: chunk c of rank k is the n x bk columns j = w bk + [0, bk) of x, w = k K + c:
  // DFT(n) on each, the twiddles of row j of Z (T's entries j n + t), and column block d of Z
  // (e columns) to rank d.
  const Sigma dfts = lower_compute(make_tensor({make_identity(bk), make_dft(n, root)}));
  const LoopVar w{max_sum_var(dfts) + 1, p * K};
  const Sigma twiddles = sigma_diag(make_twiddle(N, n, root), fn_h(bk * n, N, Affine::var(w, bk * n), 1));
  step(sigma_sum(w, sigma_compose({sigma_gather(swap_digits(p, bk, e)), twiddles, dfts, sigma_gather(swap_digits(bk, n, 1))}),
                 SumMode::Parallel),
       int(K), 0, true);
  exchange();
  // Received: K slices (c) of p blocks (k) of bk x e, rows k b + c bk + [0, bk) of Z: the slab
  // kernel's second half (distribute_slabs) with its a0 = b rows and C = e columns.
  const IndexFn gather = compose(fn_layout(m, ek, 1, e), swap_digits(p, K, bk * ek));
  step(sigma_compose({lower_compute(make_tensor({make_dft(m, root), make_identity(ek)})), sigma_gather(gather)}), int(K), ek);
  exchange();
  step(sigma_gather(compose(swap_digits(p, K, b * ek), swap_digits(b, p * K, ek))), 1, 0);
  return prog;
}

}  // namespace splgen::lower
