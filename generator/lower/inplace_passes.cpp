#include "generator/lower/inplace_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "generator/lower/pass_computes.h"

namespace splgen::lower {

namespace {

// One streamed pass: chunk c is got through get(c), computed in local memory and put through
// put(c); get(c) and put(c) cover the same positions, so the pass runs in place.
struct Pass {
  Spl compute;
  int64_t chunks = 0;
  std::function<IndexFn(const LoopVar &)> get, put;
  // The twiddles after the compute, in memory order: entry p of the chunk's output (at put(c)(p))
  // is multiplied by twiddle[twiddle_at(put(c)(p))]: Diag(d) S(f) = S(f) Diag(d o f).
  Spl twiddle;
  IndexFn twiddle_at;
};

int64_t isqrt(int64_t v) {
  int64_t r = int64_t(std::llround(std::sqrt(double(v))));
  while (r > 0 && r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

Spl I(int64_t n) { return make_identity(n); }
Spl L(int64_t N, int64_t m) { return make_stride(N, m); }
Spl times(int64_t k, Spl a) { return k == 1 ? a : make_tensor({I(k), std::move(a)}); }

// A row pass: chunk c is the contiguous rows c C .. c C + C - 1.
Pass row_pass(int64_t n, int64_t C, Spl compute, Spl twiddle = nullptr, IndexFn twiddle_at = nullptr) {
  auto rows = [n, C](const LoopVar &c) { return fn_h(C, n, Affine::var(c, C), 1); };
  return {std::move(compute), n / C, rows, rows, std::move(twiddle), std::move(twiddle_at)};
}

// The square transpose of the m x m matrix of elements of `pair` complex numbers, in k x k
// tiles (P = m / k per row, P even): chunk c holds the tiles t[2c], t[2c+1] of the table
// (a tile (a, b) numbered a P + b), off-diagonal tiles with their transposes first, then the
// diagonal tiles two by two; each tile is transposed locally (L(k^2, k)) and put at the
// transposed tile. Q = I(P) (x) L(P k, P) (x) I(k pair) takes the tiled order to memory.
Pass transpose_pass(const InplaceShape &s) {
  const int64_t P = s.m / s.k, mu = s.k * s.k * s.pair, n = s.m * s.m * s.pair;
  std::vector<int64_t> got, put;
  for (int64_t a = 0; a < P; ++a)
    for (int64_t b = a + 1; b < P; ++b) got.insert(got.end(), {a * P + b, b * P + a});
  for (int64_t a = 0; a < P; ++a) got.push_back(a * P + a);
  for (int64_t t : got) put.push_back(t % P * P + t / P);
  IndexFn Q = fn_stride(P, P * s.k, P, s.k * s.pair), tg = fn_table(got, mu), tp = fn_table(put, mu);
  auto through = [Q, mu, n](const IndexFn &table) {
    return [Q, table, mu, n](const LoopVar &c) { return compose(Q, compose(table, fn_h(2 * mu, n, Affine::var(c, 2 * mu), 1))); };
  };
  std::vector<Spl> local = {I(2), L(s.k * s.k, s.k)};
  if (s.pair > 1) local.push_back(I(s.pair));
  return {make_tensor(std::move(local)), P * P / 2, through(tg), through(tp), nullptr, nullptr};
}

std::vector<Pass> passes_of(const InplaceShape &s, int64_t root) {
  const int64_t m = s.m, k = s.k, n = m * m * s.pair;
  const Pass X = transpose_pass(s);
  if (s.pair == 1) {
    Spl rows = times(k, make_dft(m, root));
    return {X, row_pass(n, s.row_chunk(), rows, make_twiddle(n, m, root), fn_identity(n)), X,
            row_pass(n, s.row_chunk(), rows), X};
  }
  // E T (I_2m (x) DFT_m) D on k segments of 2m: T after E in memory order is T o (gather of E).
  Spl first = times(k, make_compose({L(2 * m, m), make_tensor({I(2), make_dft(m, root)}), L(2 * m, 2)}));
  return {X, row_pass(n, s.row_chunk(), first, make_twiddle(n, m, root), fn_stride(m, 2 * m, m, 1)), X, row_pass(n, s.row_chunk(), times(k, make_dft(2 * m, root))), X,
          row_pass(n, s.row_chunk(), times(k, L(2 * m, 2)))};
}

}  // namespace

InplaceShape inplace_shape(const Spl &spec) {
  if (spec->kind != SplKind::Tagged || spec->tag.kind != TagKind::Tiled || spec->children.front()->kind != SplKind::DFT)
    throw FormulaError("--in-place with a tag: the large 1D DFT in place needs tiled(k)[DFT(n)] (docs/streaming.md)");
  const int64_t n = spec->children.front()->a, k = spec->tag.params.front();
  InplaceShape s;
  s.k = k;
  if (isqrt(n) * isqrt(n) == n) s.m = isqrt(n);
  else if (n % 2 == 0 && isqrt(n / 2) * isqrt(n / 2) == n / 2) s.m = isqrt(n / 2), s.pair = 2;
  else
    throw FormulaError(fmt::format("tiled({})[DFT({})] --in-place: n must be m^2 or 2 m^2 (square and 1:2 transposes)", k, n));
  if (k < 2 || s.m % k || (s.m / k) % 2)
    throw FormulaError(fmt::format("tiled({})[DFT({})] --in-place: k must be at least 2 and divide m = {} into an even "
                                   "number of tiles (transposed in pairs)", k, n, s.m));
  return s;
}

void check_inplace(const Spl &spec) { inplace_shape(spec); }

Sigma inplace_passes(const Spl &spec, const std::function<Sigma(const Spl &, int)> &lower_compute) {
  const InplaceShape s = inplace_shape(spec);
  const std::vector<Pass> passes = passes_of(s, spec->children.front()->b);
  int next = 0;
  const std::vector<Sigma> computes = lower_pass_computes(passes, lower_compute, next);
  std::vector<Sigma> stages;  // applied first = rightmost
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const LoopVar c{next++, passes[i].chunks}, one{next++, 1};
    const Pass &p = passes[i];
    std::vector<Sigma> body = {sigma_scatter(p.put(c), true, true), sigma_sum(one, computes[i]), sigma_gather(p.get(c), true)};
    if (p.twiddle) body.insert(body.begin() + 1, sigma_diag(p.twiddle, compose(p.twiddle_at, p.put(c))));
    stages.insert(stages.begin(), sigma_sum(c, sigma_compose(std::move(body)), SumMode::Stream));
  }
  return sigma_compose(std::move(stages));
}

}  // namespace splgen::lower
