#include "generator/ir/loop_program.h"

#include <fmt/format.h>

#include <stdexcept>

namespace splgen {

namespace {

// Point o of rank k's part under a block (packet 0) or cyclic distribution.
int64_t global_index(const RankShape &r, int64_t packet, int64_t k, int64_t o) {
  if (!packet) return k * r.local + o;
  return ((o / packet) * r.ranks + k) * packet + o % packet;
}

}  // namespace

std::vector<cplx> run_on_ranks(const RankShape &r, std::size_t steps, const std::function<bool(std::size_t)> &is_exchange,
                               const std::function<std::vector<cplx>(std::size_t, int64_t, const std::vector<cplx> &)> &local,
                               const std::vector<cplx> &x) {
  if (int64_t(x.size()) != r.points) throw std::invalid_argument("interpret: input size mismatch");
  std::vector<std::vector<cplx>> v(std::size_t(r.ranks), std::vector<cplx>(std::size_t(r.local)));
  for (int64_t k = 0; k < r.ranks; ++k)
    for (int64_t o = 0; o < r.local; ++o) v[std::size_t(k)][std::size_t(o)] = x[std::size_t(global_index(r, r.x_packet, k, o))];
  const int64_t block = r.local / r.ranks;
  for (std::size_t i = 0; i < steps; ++i) {
    std::vector<std::vector<cplx>> next(v.size(), std::vector<cplx>(std::size_t(r.local)));
    for (int64_t k = 0; k < r.ranks; ++k) {
      std::vector<cplx> &out = next[std::size_t(k)];
      if (!is_exchange(i)) {
        out = local(i, k, v[std::size_t(k)]);
        continue;
      }
      for (int64_t q = 0; q < r.ranks; ++q)  // block q of rank k's receive buffer: rank q's block k
        for (int64_t e = 0; e < block; ++e) out[std::size_t(q * block + e)] = v[std::size_t(q)][std::size_t(k * block + e)];
    }
    v = std::move(next);
  }
  std::vector<cplx> y(x.size());
  for (int64_t k = 0; k < r.ranks; ++k)
    for (int64_t o = 0; o < r.local; ++o) y[std::size_t(global_index(r, r.y_packet, k, o))] = v[std::size_t(k)][std::size_t(o)];
  return y;
}

std::vector<cplx> interpret(const RankLoops &r, const std::vector<cplx> &x) {
  return run_on_ranks(
      r, r.steps.size(), [&](std::size_t i) { return r.steps[i].exchange; },
      [&](std::size_t i, int64_t k, const std::vector<cplx> &v) { return interpret(r.steps[i].local, v, k); }, x);
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
  if (!p.ranks) return p.codelet ? to_string(*p.codelet, p.name()) : to_string(p.loops);
  std::string out = fmt::format("{} on {} ranks: {} points, {} per rank\n", p.name(), p.ranks->ranks, p.ranks->points, p.ranks->local);
  for (std::size_t i = 0; i < p.ranks->steps.size(); ++i) {
    const RankLoops::Step &s = p.ranks->steps[i];
    out += s.exchange ? fmt::format("step {}: all-to-all, {} points to each rank\n", i, p.ranks->local / p.ranks->ranks)
                      : fmt::format("step {}: ", i) + to_string(s.local);
  }
  return out;
}

}  // namespace splgen
