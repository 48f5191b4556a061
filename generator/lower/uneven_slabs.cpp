#include "generator/lower/uneven_slabs.h"

#include <fmt/format.h>

#include <algorithm>

#include "generator/ir/print.h"
#include "generator/lower/pencil_ranks.h"

namespace splgen::lower {

namespace {

const Spl &inner_of(const Spl &spec) {
  const Spl *inner = &spec;
  while ((*inner)->kind == SplKind::Tagged) inner = &(*inner)->children.front();
  return *inner;
}

bool slab_spec(const Spl &inner) { return inner->kind == SplKind::DFTnd && inner->perm.size() >= 2 && inner->perm.size() <= 3; }

// The first n of `range` points: h[range <- n](0, 1), the identity when n = range.
IndexFn prefix(int64_t n, int64_t range) { return fn_h(n, range, Affine::constant(0), 1); }

// A rank's step: Sum_par over the ranks around factors (leftmost first; identities left out),
// each rank's iteration the same (its body does not use the rank). The Sum_par lets loop merging
// push an outer scatter into the compute's inner scatters, as it does for the par rules' stages.
RankStep rank_step(std::vector<Sigma> factors, int ranks, int64_t L) {
  factors.erase(std::remove_if(factors.begin(), factors.end(),
                               [](const Sigma &f) {
                                 return (f->kind == SigmaKind::Gather || f->kind == SigmaKind::Scatter) && is_identity(f->fn);
                               }),
                factors.end());
  if (factors.empty()) factors.push_back(sigma_gather(fn_identity(L)));  // y in the received order: a copy
  Sigma body = factors.size() == 1 ? factors[0] : sigma_compose(std::move(factors));
  const LoopVar k{max_sum_var(body) + 1, ranks};
  return RankStep{false, {}, sigma_sum(k, body, SumMode::Parallel)};
}

}  // namespace

bool uneven_slabs(const Spl &spec, int ranks) {
  const Spl &inner = inner_of(spec);
  if (!slab_spec(inner) || ranks < 2) return false;
  const int64_t m = inner->perm[0], R = inner->rows / m;
  return m % ranks || R % ranks;
}

RankProgram distribute_uneven_slabs(const Spl &spec, int ranks, const std::function<Sigma(const Spl &)> &lower_compute) {
  const Spl &inner = inner_of(spec);
  if (!slab_spec(inner) || ranks < 2)
    throw FormulaError(fmt::format("uneven slabs: a 2D or 3D DFT on at least 2 ranks, not {} on {}", print(spec), ranks));
  const std::vector<int64_t> &dims = inner->perm;
  const int64_t m = dims[0], N = inner->rows, R = N / m, P = ranks, root = inner->b;
  const int64_t a0 = (m + P - 1) / P, Cp = (R + P - 1) / P, L = P * a0 * Cp;  // rows, columns per rank; padded part
  RankProgram prog;
  prog.ranks = ranks, prog.points = N, prog.local = L;
  prog.slab_rows = m, prog.row_block = a0, prog.row_points = R;
  const Spl row = dims.size() == 2 ? make_dft(dims[1], root) : make_dft_nd({dims.begin() + 1, dims.end()}, root);
  // Row i, column c = d C' + j of the a0 x R part goes to block d, row i, column j of the send
  // buffer: the a0 x R rows spread to a0 x P C' (columns past R left out), then the digit swap.
  const IndexFn spread = fn_layout(a0, R, 1, P * Cp);
  const IndexFn send = compose(swap_digits(a0, P, Cp), compose(prefix(spread->range, L), spread));
  prog.steps.push_back(rank_step({sigma_scatter(send), lower_compute(make_tensor({make_identity(a0), row})),
                                  sigma_gather(prefix(a0 * R, L))}, ranks, L));
  prog.steps.push_back(RankStep{true, {0, 1, ExchangeCounts::SenderRows}, nullptr});
  // Received: m' x C', row s a0 + i of rank s's block; the valid rows are the first m.
  prog.steps.push_back(rank_step({sigma_scatter(prefix(m * Cp, L)), lower_compute(make_tensor({make_dft(m, root), make_identity(Cp)})),
                                  sigma_gather(prefix(m * Cp, L))}, ranks, L));
  prog.steps.push_back(RankStep{true, {0, 1, ExchangeCounts::ReceiverRows}, nullptr});
  // Received: P blocks (s) of a0 x C', the rank's rows of columns [s C', ..): y's a0 x R is the
  // send order read back.
  prog.steps.push_back(rank_step({sigma_scatter(prefix(a0 * R, L)), sigma_gather(send)}, ranks, L));
  return prog;
}

}  // namespace splgen::lower
