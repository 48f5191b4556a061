#include "generator/lower/distribute_ranks.h"

#include <fmt/format.h>

#include <optional>

namespace splgen::lower {

const std::string &distribution_name(Distribution d) {
  static const std::string block = "block", cyclic = "cyclic";
  return d == Distribution::Block ? block : cyclic;
}

int RankProgram::exchanges() const {
  int n = 0;
  for (const RankStep &s : steps) n += s.exchange;
  return n;
}

namespace {

// How a stage of rank k reaches a vector of N points: its own block h(k L, 1), or its packets
// q(k, p, nu) (packet k of each row of p nu points).
struct Access {
  bool packets = false;
  int64_t packet = 0;
};

struct Stage {
  LoopVar k;
  IndexFn gather, scatter;    // global: domain L, range N
  std::vector<Sigma> inner;   // between them, leftmost first
  Access in, out;
};

struct Shape {
  int ranks;
  int64_t points, local;
};

std::optional<Access> access_of(const IndexFn &f, const LoopVar &k, const Shape &s) {
  if (f->domain != s.local || f->range != s.points) return std::nullopt;
  if (f->kind == FnKind::H && f->s == 1 && f->base == Affine::var(k, s.local)) return Access{};
  if (f->kind == FnKind::Q && f->s == s.ranks && f->base == Affine::var(k, 1) && (s.local / f->mu) % s.ranks == 0)
    return Access{true, f->mu};
  return std::nullopt;
}

Stage stage_of(const Sigma &sum, const Shape &s) {
  const std::string where = "par: ";
  if (sum->kind != SigmaKind::Sum || sum->mode != SumMode::Parallel)
    throw FormulaError(where + "no rule of rules/par.rules distributes this part of the formula over the ranks: " +
                       print(sum).substr(0, print(sum).find('\n')) + " (docs/mpi.md)");
  if (sum->var.extent != s.ranks)
    throw FormulaError(fmt::format("par: a stage runs on {} workers, the kernel on {} ranks", sum->var.extent, s.ranks));
  const Sigma &body = sum->children.front();
  if (body->kind != SigmaKind::Compose || body->children.front()->kind != SigmaKind::Scatter ||
      body->children.back()->kind != SigmaKind::Gather)
    throw FormulaError("par: a Sum_par stage without its own gather and scatter (docs/mpi.md)");
  Stage st{sum->var, body->children.back()->fn, body->children.front()->fn,
           {body->children.begin() + 1, body->children.end() - 1}, {}, {}};
  auto in = access_of(st.gather, st.k, s), out = access_of(st.scatter, st.k, s);
  if (!in || !out)
    throw FormulaError(fmt::format("par: rank k's {} {} is neither its block h(k*{}, 1) nor packets q(k, {}, nu): not an "
                                   "all-to-all (docs/mpi.md)", in ? "scatter" : "gather",
                                   to_string(in ? st.scatter : st.gather), s.local, s.ranks));
  st.in = *in, st.out = *out;
  return st;
}

// The Sum_par stages in the order they run, each diagonal outside a stage moved into the stage
// that runs before it (it scales that stage's output), or after it when it comes first.
std::vector<Stage> stages_of(const Sigma &sigma, const Shape &s) {
  std::vector<Sigma> factors = sigma->kind == SigmaKind::Compose ? sigma->children : std::vector<Sigma>{sigma};
  std::vector<Stage> stages;
  std::vector<Sigma> pending;  // diagonals before the first stage
  for (std::size_t i = factors.size(); i-- > 0;) {
    const Sigma &f = factors[i];
    if (f->kind != SigmaKind::Diag) {
      stages.push_back(stage_of(f, s));
      for (const Sigma &d : pending)
        stages.back().inner.push_back(sigma_diag(d->source, compose(d->fn, stages.back().gather)));
      pending.clear();
      continue;
    }
    if (stages.empty()) {
      pending.insert(pending.begin(), f);
      continue;
    }
    Stage &last = stages.back();
    last.inner.insert(last.inner.begin(), sigma_diag(f->source, compose(f->fn, last.scatter)));
  }
  if (stages.empty()) throw FormulaError("par: the formula has no Sum_par stage (docs/mpi.md)");
  return stages;
}

// The send order of an exchange into packets q(k, p, nu): send[s] = v[pi(s)], v the local block
// (L / (p nu) rows of p packets), the send buffer p blocks (one per destination) of L / (p nu)
// packets: a transposition of packets, l(L/nu, p) (x) I(nu).
IndexFn send_order(const Shape &s, int64_t nu) { return fn_stride(1, s.local / nu, s.ranks, nu); }

IndexFn inverse_of(const IndexFn &f) {
  std::optional<IndexFn> inv = inverse(f);
  if (!inv) throw std::logic_error("distribute_ranks: no inverse of " + to_string(f));
  return *inv;
}

// One local step: rank k's body between a local gather and a local scatter.
RankStep compute(const Stage &st, const IndexFn &gather, const IndexFn &scatter) {
  std::vector<Sigma> factors{sigma_scatter(scatter)};
  factors.insert(factors.end(), st.inner.begin(), st.inner.end());
  factors.push_back(sigma_gather(gather));
  return RankStep{false, {}, sigma_sum(st.k, sigma_compose(std::move(factors)), SumMode::Parallel)};
}

RankStep permutation(const IndexFn &gather) { return RankStep{false, {}, sigma_gather(gather)}; }

RankStep exchange() { return RankStep{true, {}, nullptr}; }

}  // namespace

RankProgram distribute_ranks(const Sigma &sigma, int ranks, Distribution distribution) {
  if (ranks < 2) throw FormulaError(fmt::format("par: {} ranks; a distributed kernel needs at least 2", ranks));
  if (sigma->rows != sigma->cols || sigma->rows % ranks)
    throw FormulaError(fmt::format("par: {} points cannot be shared by {} ranks (the ranks must divide the size)",
                                   sigma->rows, ranks));
  const Shape s{ranks, sigma->rows, sigma->rows / ranks};
  std::vector<Stage> stages = stages_of(sigma, s);
  RankProgram p;
  p.ranks = ranks, p.points = s.points, p.local = s.local;
  const IndexFn id = fn_identity(s.local);
  if (distribution == Distribution::Cyclic) {
    if (!stages.front().in.packets || !stages.back().out.packets)
      throw FormulaError("--distribution cyclic: the first stage must read, and the last write, packets q(k, p, nu) "
                         "(a 1D DFT's par_dft stages do; docs/mpi.md)");
    p.x_packet = stages.front().in.packet, p.y_packet = stages.back().out.packet;
  }
  // order: where the current vector's local point o is stored (stored[order(o)] = v[o]).
  IndexFn order = id;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const Stage &st = stages[i];
    IndexFn gather = order;
    if (st.in.packets && !(i == 0 && p.x_packet)) {  // the first stage reads a cyclic x in place
      // an exchange into packets: the stage before wrote in send order (below), or a
      // permutation brings the stored vector into it
      if (!(i > 0 && !stages[i - 1].out.packets)) p.steps.push_back(permutation(compose(order, send_order(s, st.in.packet))));
      p.steps.push_back(exchange());
      gather = id;
    }
    IndexFn scatter = id;
    const bool last = i + 1 == stages.size();
    if (!last && !st.out.packets && stages[i + 1].in.packets) scatter = inverse_of(send_order(s, stages[i + 1].in.packet));
    p.steps.push_back(compute(st, gather, scatter));
    order = id;
    if (st.out.packets && !(last && p.y_packet)) {  // packets written to their owners: received in send order
      p.steps.push_back(exchange());
      order = inverse_of(send_order(s, st.out.packet));
    }
  }
  if (!is_identity(order)) p.steps.push_back(permutation(order));
  return p;
}

std::vector<cplx> simulate_ranks(const RankProgram &p, const std::vector<cplx> &x) {
  return run_on_ranks(
      p, p.steps.size(),
      [&](std::size_t i) { return p.steps[i].exchange ? std::optional<RankGroup>(p.steps[i].group) : std::nullopt; },
      [&](std::size_t i, int64_t k, const std::vector<cplx> &v) {
        const Sigma &local = p.steps[i].local;
        Env env;
        if (local->kind != SigmaKind::Sum || local->mode != SumMode::Parallel) return apply_to(local, v, env);
        env[local->var.id] = k;
        return apply_to(local->children.front(), v, env);
      },
      x, [&](std::size_t i) { return p.steps[i].chunks; }, [&](std::size_t i) { return p.steps[i].column_offset; },
      [&](std::size_t i) { return p.steps[i].chunk_workers; });
}

std::string print(const RankProgram &p) {
  const std::string x = p.grid[0]     ? fmt::format("pencils of a {} x {} grid", p.grid[0], p.grid[1])
                        : p.slab_rows ? fmt::format("rows of m = {} in blocks of {} (FFTW-MPI's default)", p.slab_rows, p.row_block)
                        : p.x_packet  ? fmt::format("cyclic({})", p.x_packet) : "block";
  const std::string y = p.grid[0] || p.slab_rows ? x : p.y_packet ? fmt::format("cyclic({})", p.y_packet) : "block";
  std::string out = fmt::format("ranks {}, {} points, {} per rank{}; x {}, y {}; {} all-to-all exchanges\n", p.ranks,
                                p.points, p.local, p.slab_rows ? " (padded)" : "", x, y, p.exchanges());
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    if (p.steps[i].exchange) {
      const RankGroup &g = p.steps[i].group;
      out += fmt::format("step {}: all-to-all{}, {} points to each rank{}{}\n", i,
                         g.size ? fmt::format(" in groups of {} (stride {})", g.size, g.stride) : "",
                         p.local / (g.size ? g.size : p.ranks),
                         p.steps[i].chunks > 1 ? fmt::format(" in {} chunks of {}", p.steps[i].chunks,
                                                             p.local / (g.size ? g.size : p.ranks) / p.steps[i].chunks) : "",
                         counts_text(g.counts));
      continue;
    }
    const RankStep &s = p.steps[i];
    std::string whole = s.column_offset ? fmt::format(", chunk c reading all of its input from point c*{} on", s.column_offset) : "";
    if (s.chunk_workers) whole += fmt::format(", chunk c of rank k as worker k*{} + c", s.chunks);
    out += fmt::format("step {}: local{}{}\n", i, s.chunks > 1 ? fmt::format(", on each of {} chunks of {} points", s.chunks,
                                                                          p.local / s.chunks) : "", whole)
           + print(p.steps[i].local);
    if (out.back() != '\n') out += "\n";
  }
  return out;
}

}  // namespace splgen::lower
