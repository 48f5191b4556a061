#include "generator/lower/contiguous_runs.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "generator/ir/loop_visitor.h"

// Why: one process, 2^21 complex doubles, AVX-512 (Intel Xeon): the packing step of a
// 2-rank DFT(2^22) as one flat div/mod loop took 11-32 ms, split into runs of 64 contiguous
// values 7-15 ms, memcpy 5-17 ms (a noisy machine; the split form is about copy speed).

namespace splgen::lower {
namespace {

// The divisors of div and mod nodes whose operand depends on var: the candidate run lengths.
class RunCandidates : public LoopVisitor {
 public:
  explicit RunCandidates(int var) : var_(var) {}
  std::set<int64_t> divisors;

 protected:
  void visit_idx_div(const Idx &x) override { note(x); }
  void visit_idx_mod(const Idx &x) override { note(x); }

 private:
  void note(const Idx &x) {
    if (uses_var(x->a, var_)) divisors.insert(x->divisor);
    include(x->a);
  }
  int var_;
};

// A body that only moves values: scalars assigned from loads, stores of scalars or loads.
bool only_copies(const std::vector<Stmt> &body) {
  for (const Stmt &s : body) {
    if (s->kind == StmtKind::Assign && s->value->kind == ExprKind::Load) continue;
    if (s->kind == StmtKind::Store && (s->value->kind == ExprKind::Scalar || s->value->kind == ExprKind::Load)) continue;
    return false;
  }
  return !body.empty();
}

std::vector<Idx> indices_of(const std::vector<Stmt> &body) {
  std::vector<Idx> out;
  for (const Stmt &s : body) {
    if (s->kind == StmtKind::Store) out.push_back(s->index);
    if (s->value->kind == ExprKind::Load) out.push_back(s->value->index);
  }
  return out;
}

// Substitutes var = r * outer + inner (0 <= inner < r) and simplifies what the factories do not:
// for d a multiple of r and a = r q + inner (q >= 0 affine), a / d = q / (d/r) and
// a % d = r (q % (d/r)) + inner, exact for floor division. E.g. (8 o + j) / 32 = o / 4.
class SubstituteRun : public LoopMutator {
 public:
  SubstituteRun(int var, LoopVar outer, LoopVar inner)
      : var_(var), inner_(inner), value_(Affine::var(outer, inner.extent) + Affine::var(inner)) {}

 protected:
  Idx mutate_affine(const Idx &x) override { return substitute(x, var_, value_); }
  Idx mutate_idx_div(const Idx &x) override {
    Idx a = mutate(x->a);
    if (std::optional<Affine> q = runs_of(a, x->divisor)) return idx_div(idx_affine(*q), x->divisor / inner_.extent);
    return idx_div(a, x->divisor);
  }
  Idx mutate_idx_mod(const Idx &x) override {
    Idx a = mutate(x->a);
    if (std::optional<Affine> q = runs_of(a, x->divisor))
      return idx_add(idx_scale(idx_mod(idx_affine(*q), x->divisor / inner_.extent), inner_.extent), idx_affine(Affine::var(inner_)));
    return idx_mod(a, x->divisor);
  }

 private:
  // q where a = r q + inner, when d is a multiple of r and q >= 0.
  std::optional<Affine> runs_of(const Idx &a, int64_t d) const {
    const Affine *x = as_affine(a);
    const int64_t r = inner_.extent;
    if (!x || d % r != 0) return std::nullopt;
    Affine rest = Affine::constant(x->c0);
    bool has_inner = false;
    for (auto &[v, c] : x->terms) {
      if (v.id == inner_.id && c == 1)
        has_inner = true;
      else
        rest = rest + Affine::var(v, c);
    }
    if (!has_inner || !rest.divisible_by(r) || rest.min() < 0) return std::nullopt;
    return exact_div(rest, r);
  }

  int var_;
  LoopVar inner_;
  Affine value_;
};

class SplitRuns : public LoopMutator {
 public:
  SplitRuns(int next_var, int min_run) : next_var_(next_var), min_run_(min_run) {}

 protected:
  Stmt mutate_for(const Stmt &s) override {
    std::vector<Stmt> body = statements_of(s->loop_body);
    if (s->parallel || s->vector_width > 1 || !only_copies(body)) return LoopMutator::mutate_for(s);
    std::vector<Idx> indices = indices_of(body);
    RunCandidates candidates(s->var.id);
    for (const Idx &x : indices) candidates.include(x);
    for (auto it = candidates.divisors.rbegin(); it != candidates.divisors.rend(); ++it)
      if (Stmt split = try_split(s, indices, *it)) return split;
    return s;
  }

 private:
  // var = r * outer + inner; the loop nest when every index is then unit-stride in inner.
  Stmt try_split(const Stmt &s, const std::vector<Idx> &indices, int64_t r) {
    const LoopVar v = s->var;
    if (r < min_run_ || r >= v.extent || v.extent % r != 0) return nullptr;
    const LoopVar outer{next_var_, v.extent / r}, inner{next_var_ + 1, r};
    SubstituteRun run(v.id, outer, inner);
    for (const Idx &x : indices)
      if (!unit_stride(run.mutate(x), inner.id)) return nullptr;
    next_var_ += 2;
    return make_for(outer, make_for(inner, run.mutate(s->loop_body)));
  }

  int next_var_, min_run_;
};

}  // namespace

Function split_contiguous_runs(const Function &f, int min_run) {
  Function out = f;
  out.body = SplitRuns(max_var_id(f.body) + 1, std::max(min_run, 2)).mutate(f.body);
  return out;
}

}  // namespace splgen::lower
