#include "generator/driver/ranks.h"

#include <fmt/format.h>

#include "generator/driver/threads.h"
#include "generator/ir/print.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/slice_rank_tables.h"

namespace splgen::driver {

Spl ranked_spec(const Spl &spec, int ranks) {
  if (ranks <= 1 || spec->kind == SplKind::Tagged) return spec;
  return make_tagged(Tag{TagKind::Par, {ranks, 1}}, spec);
}

void check_distributable(const Spl &spec) {
  Spl inner = spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  if (inner->kind != SplKind::DFT && inner->kind != SplKind::DFTnd)
    throw FormulaError(fmt::format("--target mpi distributes complex DFTs (DFT(n), DFT(n1 x n2 ...)), not {} (docs/mpi.md)",
                                   print(spec)));
}

int par_ranks(const Spl &f) {
  if (f->kind == SplKind::Tagged && f->tag.kind == TagKind::Par) return int(f->tag.params.at(0));
  for (const Spl &c : f->children)
    if (int p = par_ranks(c); p > 0) return p;
  return 0;
}

lower::RankProgram merge_rank_steps(const lower::RankProgram &p) {
  lower::RankProgram out = p;
  for (lower::RankStep &s : out.steps)
    if (!s.exchange) s.local = lower::merge_loops(s.local);
  return out;
}

RankLoops rank_loops(const lower::RankProgram &p, const std::string &name,
                     const std::function<Function(const Sigma &, const std::string &)> &lower) {
  RankLoops r;
  static_cast<RankShape &>(r) = p;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const lower::RankStep &s = p.steps[i];
    RankLoops::Step step{s.exchange, {}, s.group, s.chunks, s.column_offset, s.chunk_workers};
    if (!step.exchange) {
      // a step of chunk workers: each rank keeps the twiddles of its own chunks together
      const int per_rank = s.chunk_workers ? s.chunks : 1;
      step.local = lower::slice_rank_tables(lower(s.local, fmt::format("{}_step{}", name, i)), per_rank);
      step.local.workers = has_parallel_loop(step.local) ? p.ranks * per_rank : 1;
    }
    r.steps.push_back(std::move(step));
  }
  return r;
}

}  // namespace splgen::driver
