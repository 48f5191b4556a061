#include "generator/lower/slice_rank_tables.h"

#include <map>
#include <optional>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {

namespace {

// The variable of the function's parallel loop (the rank's), if it has one.
std::optional<LoopVar> parallel_var(const Stmt &s) {
  if (s->kind == StmtKind::For) return s->parallel ? std::optional<LoopVar>(s->var) : parallel_var(s->loop_body);
  if (s->kind == StmtKind::Block)
    for (const Stmt &t : s->body)
      if (auto v = parallel_var(t)) return v;
  return std::nullopt;
}

int64_t coefficient(const Affine &a, const LoopVar &k) {
  for (const auto &[v, c] : a.terms)
    if (v.id == k.id) return c;
  return 0;
}

// Per table: the slice C all its loads share, or 0 when one does not fit.
class SliceFinder : public LoopVisitor {
 public:
  SliceFinder(const Function &f, LoopVar k) : f_(f), k_(k) {}
  std::map<int, int64_t> slices;

 protected:
  void visit_load(const Expr &e) override {
    LoopVisitor::visit_load(e);
    const Buffer &b = f_.buffers[std::size_t(e->buffer)];
    if (b.role != BufferRole::Table || b.recipe.N == 0) return;
    const Affine *a = as_affine(e->index);
    int64_t c = a ? coefficient(*a, k_) : 0;
    if (c > 0) {
      Affine rest = *a + Affine::var(k_, -c);
      if (rest.min() < 0 || rest.max() >= c || c * k_.extent > b.size) c = 0;
    }
    auto [it, first] = slices.emplace(e->buffer, c);
    if (!first && it->second != c) it->second = 0;
  }

 private:
  const Function &f_;
  LoopVar k_;
};

class SliceLoads : public LoopMutator {
 public:
  SliceLoads(const std::map<int, int64_t> &slices, LoopVar k) : slices_(slices), k_(k) {}

 protected:
  Expr mutate_load(const Expr &e) override {
    auto it = slices_.find(e->buffer);
    if (it == slices_.end() || it->second == 0) return e;
    return e_load(e->buffer, idx_affine(*as_affine(e->index) + Affine::var(k_, -it->second)), e->part);
  }

 private:
  const std::map<int, int64_t> &slices_;
  LoopVar k_;
};

}  // namespace

Function slice_rank_tables(const Function &f, int workers_per_rank) {
  std::optional<LoopVar> k = f.body ? parallel_var(f.body) : std::nullopt;
  if (!k) return f;
  SliceFinder finder(f, *k);
  finder.include(f.body);
  Function out = f;
  SliceLoads slicer(finder.slices, *k);
  out.body = slicer.mutate(f.body);
  for (const auto &[buffer, c] : finder.slices)
    if (c > 0) {
      Buffer &b = out.buffers[std::size_t(buffer)];
      b.size = c, b.recipe.worker_stride = c, b.recipe.workers_per_rank = workers_per_rank;
    }
  return out;
}

}  // namespace splgen::lower
