#include "generator/ir/loop_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace splgen {

std::string counts_text(ExchangeCounts counts) {
  if (counts == ExchangeCounts::Blocks) return "";
  return fmt::format(", the {}'s rows of each block (MPI_Alltoallv)", counts == ExchangeCounts::SenderRows ? "sender" : "receiver");
}

int64_t RankShape::rows_of(int64_t k) const {
  return std::max<int64_t>(0, std::min(slab_rows, (k + 1) * row_block) - k * row_block);
}

int64_t global_index(const RankShape &r, bool input, int64_t k, int64_t o) {
  if (r.slab_rows > 0) return o < r.rows_of(k) * r.row_points ? k * r.row_block * r.row_points + o : -1;
  if (r.grid[0] > 0) {  // a pencil: o = (i, j, t) in the rank's row-major box
    const int64_t m = r.dims[0], n = r.dims[1], q = r.dims[2], p0 = r.grid[0], p1 = r.grid[1], a = k / p1, b = k % p1;
    const int64_t rows = input ? n / p1 : n / p0, cols = input ? q : q / p1;
    const int64_t i = o / (rows * cols), j = o / cols % rows, t = o % cols;
    if (input) return ((a * (m / p0) + i) * n + b * rows + j) * q + t;
    return (i * n + a * rows + j) * q + b * cols + t;
  }
  const int64_t packet = input ? r.x_packet : r.y_packet;
  if (!packet) return k * r.local + o;
  return ((o / packet) * r.ranks + k) * packet + o % packet;
}

std::vector<cplx> run_on_ranks(const RankShape &r, std::size_t steps,
                               const std::function<std::optional<RankGroup>(std::size_t)> &exchange,
                               const std::function<std::vector<cplx>(std::size_t, int64_t, const std::vector<cplx> &)> &local,
                               const std::vector<cplx> &x, const std::function<int(std::size_t)> &chunks,
                               const std::function<int64_t(std::size_t)> &column_offset,
                               const std::function<bool(std::size_t)> &chunk_workers) {
  if (int64_t(x.size()) != r.points) throw std::invalid_argument("interpret: input size mismatch");
  const cplx nan(std::numeric_limits<double>::quiet_NaN(), 0);
  std::vector<std::vector<cplx>> v(std::size_t(r.ranks), std::vector<cplx>(std::size_t(r.local)));
  for (int64_t k = 0; k < r.ranks; ++k)
    for (int64_t o = 0; o < r.local; ++o) {
      const int64_t g = global_index(r, true, k, o);
      v[std::size_t(k)][std::size_t(o)] = g < 0 ? nan : x[std::size_t(g)];
    }
  for (std::size_t i = 0; i < steps; ++i) {
    std::vector<std::vector<cplx>> next(v.size(), std::vector<cplx>(std::size_t(r.local)));
    const std::optional<RankGroup> group = exchange(i);
    const int64_t slices = chunks(i), slice = r.local / slices, columns = column_offset(i);
    // a chunk's input: its slice, or the whole input from c * columns on, less what the later chunks start at
    const int64_t from = columns ? columns : slice, size = columns ? r.local - (slices - 1) * columns : slice;
    for (int64_t c = 0; c < slices; ++c)
      for (int64_t k = 0; k < r.ranks; ++k) {
        cplx *out = next[std::size_t(k)].data() + c * slice;
        if (!group) {
          const std::vector<cplx> in(v[std::size_t(k)].begin() + c * from, v[std::size_t(k)].begin() + c * from + size);
          const std::vector<cplx> y = local(i, chunk_workers(i) ? k * slices + c : k, in);
          std::copy(y.begin(), y.end(), out);
          continue;
        }
        const int64_t size = group->size ? group->size : r.ranks, stride = group->stride, block = slice / size;
        const int64_t d = k / stride % size, first = k - d * stride;  // rank k's place in its group, the group's rank 0
        for (int64_t q = 0; q < size; ++q) {  // block q of rank k's receive buffer: block d of the group's rank q
          const int64_t from = first + q * stride, row = r.row_block ? block / r.row_block : 0;
          const int64_t count = group->counts == ExchangeCounts::Blocks       ? block
                                : group->counts == ExchangeCounts::SenderRows ? r.rows_of(from) * row
                                                                              : r.rows_of(k) * row;
          for (int64_t e = 0; e < block; ++e)
            out[q * block + e] = e < count ? v[std::size_t(from)][std::size_t(c * slice + d * block + e)] : nan;
        }
      }
    v = std::move(next);
  }
  std::vector<cplx> y(x.size());
  for (int64_t k = 0; k < r.ranks; ++k)
    for (int64_t o = 0; o < r.local; ++o)
      if (const int64_t g = global_index(r, false, k, o); g >= 0) y[std::size_t(g)] = v[std::size_t(k)][std::size_t(o)];
  return y;
}

std::vector<cplx> interpret(const RankLoops &r, const std::vector<cplx> &x) {
  return run_on_ranks(
      r, r.steps.size(), [&](std::size_t i) { return r.steps[i].exchange ? std::optional<RankGroup>(r.steps[i].group) : std::nullopt; },
      [&](std::size_t i, int64_t k, const std::vector<cplx> &v) { return interpret(r.steps[i].local, v, k); }, x,
      [&](std::size_t i) { return r.steps[i].chunks; }, [&](std::size_t i) { return r.steps[i].column_offset; },
      [&](std::size_t i) { return r.steps[i].chunk_workers; });
}

std::vector<cplx> interpret(const LoopProgram &p, const std::vector<cplx> &x) {
  if (p.ranks) return interpret(*p.ranks, x);
  return p.codelet ? interpret(*p.codelet, x) : interpret(p.loops, x);
}

Matrix to_dense(const LoopProgram &p) {
  if (p.ranks) return probe_matrix(p.ranks->points, p.ranks->points, [&](const std::vector<cplx> &e) { return interpret(*p.ranks, e); });
  if (!p.codelet) return to_dense(p.loops);
  return probe_matrix(p.codelet->n, p.codelet->n, [&](const std::vector<cplx> &e) { return interpret(*p.codelet, e); });
}

std::string to_string(const LoopProgram &p) {
  if (p.gpu) return to_string(*p.gpu);
  if (!p.ranks) return p.codelet ? to_string(*p.codelet, p.name()) : to_string(p.loops);
  std::string out = fmt::format("{} on {} ranks: {} points, {} per rank\n", p.name(), p.ranks->ranks, p.ranks->points, p.ranks->local);
  for (std::size_t i = 0; i < p.ranks->steps.size(); ++i) {
    const RankLoops::Step &s = p.ranks->steps[i];
    const int group = s.group.size ? s.group.size : p.ranks->ranks;
    const std::string chunks = s.chunks > 1 ? fmt::format(" (in {} chunks)", s.chunks) : "";
    out += s.exchange ? fmt::format("step {}: all-to-all{}, {} points to each rank{}{}\n", i,
                                    s.group.size ? fmt::format(" in groups of {} (stride {})", group, s.group.stride) : "",
                                    p.ranks->local / group, chunks, counts_text(s.group.counts))
                      : fmt::format("step {}{}: ", i, chunks) + to_string(s.local);
  }
  return out;
}

}  // namespace splgen
