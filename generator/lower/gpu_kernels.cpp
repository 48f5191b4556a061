#include "generator/lower/gpu_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <numeric>
#include <set>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {

namespace {

void check_supported(const Function &f) {
  if (f.in_place) throw FormulaError("--target cuda: in-place kernels are not built (out of place only)");
  if (f.dma_tags > 0) throw FormulaError("--target cuda: streamed loops (stream tag) are not built for the GPU");
  for (const Buffer &b : f.buffers)
    if (b.real || b.split || b.packed)
      throw FormulaError("--target cuda: complex interleaved data only (no real transforms, no --format split)");
}

// Every load and store: the buffer and its index.
struct Accesses : LoopVisitor {
  std::vector<std::pair<int, Idx>> all;
  std::set<int> assigned, read;
  void visit_load(const Expr &e) override {
    all.emplace_back(e->buffer, e->index);
    LoopVisitor::visit_load(e);
  }
  void visit_store(const Stmt &s) override {
    all.emplace_back(s->buffer, s->index);
    LoopVisitor::visit_store(s);
  }
  void visit_scalar(const Expr &e) override { read.insert(e->scalar); }
  void visit_assign(const Stmt &s) override {
    assigned.insert(s->scalar);
    LoopVisitor::visit_assign(s);
  }
  void visit_for(const Stmt &s) override {
    if (s->vector_width > 1 || s->parallel) throw FormulaError("--target cuda: a vector or parallel loop in the sequential program");
    LoopVisitor::visit_for(s);
  }
  void visit_dma(const Stmt &) override { throw FormulaError("--target cuda: a DMA transfer in the sequential program"); }
};

Accesses accesses_of(const Stmt &s) {
  Accesses a;
  a.include(s);
  return a;
}

// The coefficient of var in x and x without it, where x is a sum whose only term in var is affine.
std::optional<std::pair<int64_t, Idx>> split_var(const Idx &x, int var) {
  if (const Affine *a = as_affine(x)) {
    Affine rest = *a;
    int64_t coeff = 0;
    std::erase_if(rest.terms, [&](const auto &t) { return t.first.id == var ? (coeff = t.second, true) : false; });
    return std::pair{coeff, idx_affine(rest)};
  }
  if (x->kind == IdxKind::Add) {
    auto a = split_var(x->a, var), b = split_var(x->b, var);
    if (!a || !b) return std::nullopt;
    return std::pair{a->first + b->first, idx_add(a->second, b->second)};
  }
  if (uses_var(x, var)) return std::nullopt;
  return std::pair{int64_t(0), x};
}

bool in_global_memory(const Function &f, int buffer, bool temps_global) {
  const BufferRole r = f.buffers[std::size_t(buffer)].role;
  return r == BufferRole::Input || r == BufferRole::Output || (temps_global && r == BufferRole::Temp);
}

// The variables in coalescing order, the last the fastest: the one whose step moves the
// global accesses (else any accesses) the least goes last; variables no access moves first.
std::vector<LoopVar> coalescing_order(std::vector<LoopVar> vars, const Stmt &body, const Function &f, bool temps_global) {
  const Accesses a = accesses_of(body);
  bool any_global = false;
  for (const auto &[buffer, index] : a.all) any_global |= in_global_memory(f, buffer, temps_global);
  std::map<int, int64_t> stride;  // least non-zero |coefficient| of each variable
  for (const auto &[buffer, index] : a.all) {
    if (any_global && !in_global_memory(f, buffer, temps_global)) continue;
    for (const LoopVar &v : vars) {
      auto s = split_var(index, v.id);
      const int64_t c = s ? std::abs(s->first) : 0;
      if (c > 0 && (!stride.count(v.id) || c < stride[v.id])) stride[v.id] = c;
    }
  }
  auto key = [&](const LoopVar &v) { return stride.count(v.id) ? stride[v.id] : INT64_MAX; };
  std::stable_sort(vars.begin(), vars.end(), [&](const LoopVar &x, const LoopVar &y) { return key(x) > key(y); });
  return vars;
}

// A stage from one top-level statement: a perfect loop nest's variables become its lanes.
GpuStage stage_of(Stmt s) {
  GpuStage stage;
  while (s->kind == StmtKind::For) {
    stage.lanes.push_back(s->var);
    std::vector<Stmt> inner = statements_of(s->loop_body);
    s = inner.size() == 1 ? inner[0] : s->loop_body;
    if (inner.size() != 1) break;
  }
  stage.body = s;
  return stage;
}

// The stages of a statement list: each loop nest one, runs of straight-line statements between
// merged into one stage of one lane.
std::vector<GpuStage> split_stages(const std::vector<Stmt> &stmts) {
  std::vector<GpuStage> stages;
  std::vector<Stmt> straight;
  auto flush = [&] {
    if (!straight.empty()) stages.push_back(GpuStage{{}, false, false, make_block(straight)});
    straight.clear();
  };
  for (const Stmt &s : stmts) {
    if (s->kind != StmtKind::For) {
      straight.push_back(s);
      continue;
    }
    flush();
    stages.push_back(stage_of(s));
  }
  flush();
  return stages;
}

// The buffers a statement stores into.
std::set<int> written(const Stmt &s) {
  struct Stores : LoopVisitor {
    std::set<int> ids;
    void visit_store(const Stmt &t) override { ids.insert(t->buffer); }
  } w;
  w.include(s);
  return w.ids;
}

// A scalar one stage assigns and another reads would cross a barrier in registers: the later
// stage computes it again (its top-level assignment, and the ones that feeds on, copied), which
// is right where no stage between writes what they read. A stage left with no store does
// nothing and goes.
void rematerialise_scalars(std::vector<GpuStage> &stages) {
  std::map<int, std::pair<Stmt, std::size_t>> definition;  // scalar -> its assignment, its stage
  std::map<const StmtNode *, int> order;                  // program order of the definitions
  for (std::size_t i = 0; i < stages.size(); ++i)
    if (stages[i].lanes.empty())
      for (const Stmt &t : statements_of(stages[i].body))
        if (t->kind == StmtKind::Assign) definition[t->scalar] = {t, i}, order.emplace(t.get(), int(order.size()));
  std::vector<std::set<int>> writes;
  for (const GpuStage &s : stages) writes.push_back(written(s.body));
  for (std::size_t i = 0; i < stages.size(); ++i) {
    GpuStage &s = stages[i];
    Accesses a = accesses_of(s.body);
    std::vector<int> missing;
    for (int r : a.read)
      if (!a.assigned.count(r)) missing.push_back(r);
    std::map<int, Stmt> needed;  // by scalar; placed in program order
    while (!missing.empty()) {
      const int r = missing.back();
      missing.pop_back();
      if (needed.count(r) || a.assigned.count(r)) continue;
      auto it = definition.find(r);
      bool unchanged = it != definition.end() && it->second.second < i;  // what it read is still there
      if (unchanged)
        for (const auto &[buffer, index] : accesses_of(it->second.first).all)
          for (std::size_t j = it->second.second + 1; j <= i; ++j) unchanged &= !writes[j].count(buffer);
      if (!unchanged) throw FormulaError(fmt::format("--target cuda: scalar s{} crosses a stage barrier", r));
      needed[r] = it->second.first;
      for (int q : accesses_of(it->second.first).read) missing.push_back(q);
    }
    if (needed.empty()) continue;
    std::vector<Stmt> moved;
    for (const auto &[r, t] : needed) moved.push_back(t);
    std::stable_sort(moved.begin(), moved.end(), [&](const Stmt &x, const Stmt &y) { return order[x.get()] < order[y.get()]; });
    for (const Stmt &t : statements_of(s.body)) moved.push_back(t);
    s.body = make_block(moved);
  }
  std::erase_if(stages, [](const GpuStage &s) {
    struct HasStore : LoopVisitor {
      bool found = false;
      void visit_store(const Stmt &) override { found = true; }
    } h;
    h.include(s.body);
    return !h.found;
  });
}

// The Temp buffers a statement list touches, and whether any of their indices there uses one of vars.
std::map<int, bool> temps_in(const Function &f, const std::vector<Stmt> &stmts, const std::vector<LoopVar> &vars) {
  std::map<int, bool> temps;
  for (const Stmt &s : stmts)
    for (const auto &[buffer, index] : accesses_of(s).all) {
      if (f.buffers[std::size_t(buffer)].role != BufferRole::Temp) continue;
      bool uses = false;
      for (const LoopVar &v : vars) uses |= uses_var(index, v.id);
      temps[buffer] = temps[buffer] || uses;
    }
  return temps;
}

// Whether buffer is accessed anywhere in `all` outside `part` (counted by accesses).
int64_t access_count(const std::vector<Stmt> &stmts, int buffer) {
  int64_t n = 0;
  for (const Stmt &s : stmts)
    for (const auto &[b, index] : accesses_of(s).all) n += b == buffer;
  return n;
}

// Temp buffer t of size S used by every iteration of `vars` alike becomes one slice per
// iteration: index + flat(vars) S (array privatisation).
struct Privatise : LoopMutator {
  std::map<int, int64_t> size;  // buffer -> slice size
  Affine flat;
  Idx moved(int buffer, const Idx &index) const {
    auto it = size.find(buffer);
    return it == size.end() ? index : idx_add(index, idx_affine(flat * it->second));
  }
  Expr mutate_load(const Expr &e) override { return e_load(e->buffer, moved(e->buffer, e->index), e->part); }
  Stmt mutate_store(const Stmt &s) override {
    return make_store(s->buffer, moved(s->buffer, s->index), s->part, mutate(s->value));
  }
};

Affine flattened(const std::vector<LoopVar> &vars) {
  Affine a;
  int64_t stride = 1;
  for (auto it = vars.rbegin(); it != vars.rend(); ++it) a = a + Affine::var(*it, stride), stride *= it->extent;
  return a;
}

GpuKernel grid_kernel(const Function &f, const std::vector<LoopVar> &vars, const Stmt &body, const GpuKnobs &knobs) {
  GpuKernel k;
  k.groups = coalescing_order(vars, body, f, true);
  k.groups_per_block = int(std::min<int64_t>(knobs.grid_block_threads, k.group_count()));
  k.stages.push_back(GpuStage{{}, false, false, body});
  return k;
}

// ---- one kernel, the groups' temporaries in shared memory --------------------------------------

// Where one group's accesses of a global buffer lie: group * step + offset + stride * e for e in
// [0, count), a progression a block can copy through shared memory (a row of x when a group
// is a transform of a batch; a column when it is one of the DFT(k)s of a four-step stage).
struct Footprint {
  int64_t step = 0, offset = 0, stride = 1, count = 0;
};

std::optional<Footprint> footprint(const std::vector<GpuStage> &stages, int buffer, const LoopVar &g) {
  std::optional<int64_t> step;
  std::vector<Affine> rests;
  for (const GpuStage &s : stages)
    for (const auto &[b, index] : accesses_of(s.body).all) {
      if (b != buffer) continue;
      auto split = split_var(index, g.id);
      if (!split || (step && *step != split->first)) return std::nullopt;
      step = split->first;
      const Affine *rest = as_affine(split->second);
      if (!rest) return std::nullopt;
      rests.push_back(*rest);
    }
  if (rests.empty()) return std::nullopt;
  Footprint fp;
  fp.step = *step;
  int64_t stride = 0, lo = INT64_MAX, hi = INT64_MIN;
  for (const Affine &a : rests) {
    for (const auto &t : a.terms) stride = std::gcd(stride, std::abs(t.second));
    lo = std::min(lo, a.min()), hi = std::max(hi, a.max());
  }
  fp.stride = std::max<int64_t>(stride, 1), fp.offset = lo;
  for (const Affine &a : rests)
    if ((a.c0 - lo) % fp.stride != 0) return std::nullopt;
  fp.count = (hi - lo) / fp.stride + 1;
  return fp;
}

// Whether the groups' footprints are disjoint (needed where the copy writes the buffer).
bool disjoint(const Footprint &fp, int64_t groups) {
  if (groups == 1) return true;
  const int64_t step = std::abs(fp.step);
  if (fp.stride == 1) return step >= fp.count;                  // rows one after another
  return step >= 1 && step * groups <= fp.stride && step > 0;   // columns side by side
}

// Accesses of `global` go to the shared copy `local`: element (index - group step - offset) / stride.
struct Restage : LoopMutator {
  int global, local, group;
  Footprint fp;
  bool loads_only = false;  // stores stay global
  Restage(int g, int l, int var, Footprint f) : global(g), local(l), group(var), fp(f) {}
  Idx moved(const Idx &index) const {
    const Affine rest = *as_affine(split_var(index, group)->second);
    return idx_affine(exact_div(rest + (-fp.offset), fp.stride));
  }
  Expr mutate_load(const Expr &e) override {
    return e->buffer == global ? e_load(local, moved(e->index), e->part) : e;
  }
  Stmt mutate_store(const Stmt &s) override {
    Expr v = mutate(s->value);
    return s->buffer == global && !loads_only ? make_store(local, moved(s->index), s->part, v)
                                              : make_store(s->buffer, s->index, s->part, v);
  }
};

bool loads_from(const std::vector<GpuStage> &stages, int buffer) {
  struct Loads : LoopVisitor {
    int buffer;
    bool found = false;
    void visit_load(const Expr &e) override { found |= e->buffer == buffer; }
  };
  for (const GpuStage &s : stages) {
    Loads l;
    l.buffer = buffer;
    l.include(s.body);
    if (l.found) return true;
  }
  return false;
}

// Whether a stage touches `buffer` with no lane variable stepping through it one element at a
// time (consecutive threads, scattered addresses), or with too few such lanes: fewer than a
// warp (GpuStaging::Warp), or than fill a 32-byte sector (GpuStaging::Sector: 2 double2, 4 float2).
bool uncoalesced_access(const std::vector<GpuStage> &stages, int buffer, const GpuKnobs &knobs) {
  const int64_t enough = knobs.staging == GpuStaging::Warp ? 32 : 32 / (2 * knobs.real_bytes);
  for (const GpuStage &s : stages) {
    bool touches = false, unit = false;
    for (const auto &[b, index] : accesses_of(s.body).all) {
      if (b != buffer) continue;
      touches = true;
      for (const LoopVar &v : s.lanes) {
        auto split = split_var(index, v.id);
        unit |= split && std::abs(split->first) == 1;
      }
    }
    if (touches && (lane_count(s) < enough || !unit)) return true;
  }
  return false;
}

// Stores of `buffer` (part 0) one run of `s` makes, loops counted by their extents.
int64_t stores_into(const Stmt &s, int buffer) {
  switch (s->kind) {
    case StmtKind::Block: {
      int64_t n = 0;
      for (const Stmt &t : statements_of(s)) n += stores_into(t, buffer);
      return n;
    }
    case StmtKind::For: return s->var.extent * stores_into(s->loop_body, buffer);
    case StmtKind::Store: return s->buffer == buffer && s->part == 0;
    default: return 0;
  }
}

// Whether, in program order, `s` loads an element of `buffer` it may have stored before (an
// index equal to a stored one, or not provably different: not affine, or differing by more
// than a constant). Loops inside count as such.
bool may_load_own_store(const Stmt &s, int buffer) {
  std::vector<Affine> stored;
  bool conflict = false;
  struct Walk : LoopVisitor {
    int buffer;
    std::vector<Affine> *stored;
    bool *conflict;
    void visit_load(const Expr &e) override {
      if (e->buffer != buffer) return;
      const Affine *a = as_affine(e->index);
      for (const Affine &t : *stored) *conflict |= !a || !((t + (*a * -1)).terms.empty() && t.c0 != a->c0);
    }
    void visit_store(const Stmt &t) override {
      LoopVisitor::visit_store(t);
      if (t->buffer != buffer) return;
      if (const Affine *a = as_affine(t->index)) stored->push_back(*a);
      else *conflict = true;
    }
    void visit_for(const Stmt &) override { *conflict = true; }
  } w;
  w.buffer = buffer, w.stored = &stored, w.conflict = &conflict;
  w.include(s);
  return conflict;
}

// GpuKnobs::direct_stores: the stage whose stores of `buffer` may go straight to global memory
// (its loads still reading the shared copy), so that no copy goes out: the last stage writing
// it, when it writes all of a group's footprint (a Sigma-SPL loop's iterations write disjoint
// elements) with coalesced stores, loads no element it stored, and no stage after it reads the
// buffer. stages.size() when there is none.
std::size_t direct_store_stage(const std::vector<GpuStage> &stages, int buffer, const Footprint &fp, const GpuKnobs &knobs) {
  if (!knobs.direct_stores) return stages.size();
  for (std::size_t i = stages.size(); i-- > 0;) {
    const GpuStage &s = stages[i];
    if (loads_from({s}, buffer) && !written(s.body).count(buffer)) return stages.size();  // read after the last write
    if (!written(s.body).count(buffer)) continue;
    const bool whole = lane_count(s) * stores_into(s.body, buffer) == fp.count;
    const bool ok = whole && !s.cooperative && !uncoalesced_access({s}, buffer, knobs) && !may_load_own_store(s.body, buffer);
    return ok ? i : stages.size();
  }
  return stages.size();
}

// Copies between a global buffer and its shared copy, one group's footprint; consecutive
// threads take consecutive addresses: along the footprint, or across the groups (columns).
GpuStage copy_stage(int from, int to, const Footprint &fp, const LoopVar &g, int next_var, bool into_local) {
  LoopVar lane{next_var, fp.count};
  const Idx global_index = idx_affine(Affine::var(g, fp.step) + Affine::var(lane, fp.stride) + fp.offset);
  const Idx local_index = idx_affine(Affine::var(lane));
  std::vector<Stmt> body;
  for (int part : {0, 1})
    body.push_back(make_store(to, into_local ? local_index : global_index, part,
                              e_load(from, into_local ? global_index : local_index, part)));
  GpuStage s{{lane}, true, false, make_block(body)};
  s.groups_fastest = fp.stride != 1 && std::abs(fp.step) == 1;
  return s;
}

int next_var_id(const Function &f) {
  struct MaxVar : LoopVisitor {
    int top = 0;
    void visit_for(const Stmt &s) override {
      top = std::max(top, s->var.id + 1);
      LoopVisitor::visit_for(s);
    }
  } m;
  m.include(f.body);
  return m.top;
}

int add_shared_copy(Function &f, int64_t size, const std::string &name) {
  Buffer b;
  b.id = int(f.buffers.size());
  b.role = BufferRole::Temp;
  b.size = size;
  b.name = name;
  f.buffers.push_back(b);
  return b.id;
}

// Global buffers through shared memory: where a stage reads or writes one uncoalesced
// (uncoalesced_access), and where a stage reads back what one wrote (an intermediate vector:
// in shared memory it costs no global round trip). A read-back buffer an earlier kernel may
// have written is copied in first; x always is.
std::vector<int> stage_through_shared(Function &f, const LoopVar &g, std::vector<GpuStage> &stages, int64_t &shared_elements,
                                      int64_t shared_limit, const GpuKnobs &knobs, bool y_written_before,
                                      const std::vector<int> &shared_temps) {
  std::vector<int> added;
  int var = next_var_id(f);
  std::vector<int> candidates = {kInputBuffer, kOutputBuffer};
  for (const Buffer &b : f.buffers)
    if (b.role == BufferRole::Temp && std::find(shared_temps.begin(), shared_temps.end(), b.id) == shared_temps.end())
      candidates.push_back(b.id);
  for (int global : candidates) {
    const bool stored = !std::all_of(stages.begin(), stages.end(), [&](const GpuStage &s) { return !written(s.body).count(global); });
    const bool read_back = stored && loads_from(stages, global);
    const std::optional<Footprint> fp = footprint(stages, global, g);
    if (!fp || !(uncoalesced_access(stages, global, knobs) || read_back) || (stored && !disjoint(*fp, g.extent)) ||
        shared_elements + shared_row_elements(fp->count, knobs) > shared_limit)
      continue;
    const int local = add_shared_copy(f, fp->count, global == kInputBuffer ? "xs" : global == kOutputBuffer ? "ys" : "ts");
    // With direct stores, the stages from `direct` on write global memory themselves.
    const std::size_t direct = read_back ? direct_store_stage(stages, global, *fp, knobs) : stages.size();
    const bool copy_out = stored && direct == stages.size();
    Restage restage(global, local, g.id, *fp);
    for (std::size_t i = 0; i < stages.size(); ++i) {
      restage.loads_only = i == direct;
      if (i <= direct) stages[i].body = restage.mutate(stages[i].body);
    }
    const bool written_before = global == kOutputBuffer ? y_written_before : f.buffers[std::size_t(global)].role == BufferRole::Temp;
    if (!stored || (read_back && written_before)) stages.insert(stages.begin(), copy_stage(global, local, *fp, g, var++, true));
    if (copy_out) stages.push_back(copy_stage(local, global, *fp, g, var++, false));
    shared_elements += shared_row_elements(fp->count, knobs);
    added.push_back(local);
  }
  return added;
}

GpuKernel fused_kernel(Function &f, const std::vector<LoopVar> &groups, std::vector<GpuStage> stages,
                       const std::vector<int> &shared_temps, const GpuKnobs &knobs, bool y_written_before) {
  const int64_t element_bytes = 2 * knobs.real_bytes, limit = knobs.shared_bytes / element_bytes;
  int64_t shared = 0;
  for (int id : shared_temps) shared += shared_row_elements(f.buffers[std::size_t(id)].size, knobs);
  std::vector<int> staged;
  if (groups.size() == 1) staged = stage_through_shared(f, groups[0], stages, shared, limit, knobs, y_written_before, shared_temps);
  for (GpuStage &s : stages)
    if (!s.cooperative) s.lanes = coalescing_order(s.lanes, s.body, f, false);
  GpuKernel k;
  k.groups = groups;
  int64_t widest = 1;
  for (const GpuStage &s : stages)
    if (!s.cooperative) widest = std::max(widest, lane_count(s));
  k.threads_per_group = int(std::min<int64_t>(widest, knobs.group_threads));
  int64_t per_block = std::max<int64_t>(1, knobs.block_threads / k.threads_per_group);
  if (shared > 0) per_block = std::min(per_block, limit / shared);
  k.groups_per_block = int(std::max<int64_t>(1, std::min(per_block, k.group_count())));
  k.shared = shared_temps;
  k.shared.insert(k.shared.end(), staged.begin(), staged.end());
  k.stages = std::move(stages);
  return k;
}

// The kernels that run `stmts` for every iteration of `groups` (the variables of the loops around).
struct Planner {
  GpuProgram &p;
  const GpuKnobs &knobs;
  std::vector<Stmt> program;  // the whole body's statements, to see where a temp is used

  void plan(const std::vector<LoopVar> &groups, std::vector<Stmt> stmts) {
    const Function &f = p.function;
    std::vector<int> local;  // temps used here only
    int64_t local_elements = 0;
    bool shareable = true;   // every temp here is local and alike for every group: shared memory
    for (const auto &[id, uses_group] : temps_in(f, stmts, groups)) {
      const bool is_local = access_count(stmts, id) == access_count(program, id);
      if (is_local) local.push_back(id), local_elements += shared_row_elements(f.buffers[std::size_t(id)].size, knobs);
      shareable &= is_local && !uses_group;
    }
    std::vector<GpuStage> stages = split_stages(stmts);
    rematerialise_scalars(stages);
    // With column blocks (GpuKnobs::columns) a transform's temporaries are a block's, which
    // would fit one thread block: its loops must become groups, not one block's stages.
    const bool one_block = groups.empty() && knobs.columns > 0 && f.buffers[kOutputBuffer].size > knobs.factor_max;
    if (shareable && !one_block && local_elements * 2 * knobs.real_bytes <= knobs.shared_bytes) {  // rows padded: fused_kernel checks
      p.kernels.push_back(fused_kernel(p.function, groups, std::move(stages), local, knobs, y_written()));
      return;
    }
    for (int id : local) privatise(id, groups, stmts, stages);
    for (GpuStage &s : stages) {
      std::vector<LoopVar> vars = groups;
      vars.insert(vars.end(), s.lanes.begin(), s.lanes.end());
      std::vector<Stmt> inner = statements_of(s.body);
      const bool nested = !s.lanes.empty() && inner.size() > 1 &&
                          std::any_of(inner.begin(), inner.end(), [](const Stmt &t) { return t->kind == StmtKind::For; });
      if (nested) plan(vars, inner);
      else p.kernels.push_back(grid_kernel(p.function, vars, s.body, knobs));
    }
  }

  bool y_written() const {
    for (const GpuKernel &k : p.kernels)
      for (const GpuStage &s : k.stages)
        if (written(s.body).count(kOutputBuffer)) return true;
    return false;
  }

  // A slice of temp `id` for each iteration of the group variables its indices do not use
  // (every such iteration used the same elements), in global memory.
  void privatise(int id, const std::vector<LoopVar> &groups, std::vector<Stmt> &stmts, std::vector<GpuStage> &stages) {
    std::vector<LoopVar> missing;
    for (const LoopVar &g : groups) {
      bool used = false;
      for (const Stmt &s : stmts)
        for (const auto &[b, index] : accesses_of(s).all) used |= b == id && uses_var(index, g.id);
      if (!used) missing.push_back(g);
    }
    if (missing.empty()) return;
    Privatise m;
    m.flat = flattened(missing);
    m.size[id] = p.function.buffers[std::size_t(id)].size;
    for (GpuStage &s : stages) s.body = m.mutate(s.body);
    for (Stmt &s : program) s = m.mutate(s);
    for (Stmt &s : stmts) s = m.mutate(s);
    p.function.buffers[std::size_t(id)].size *= iterations(missing);
  }
};

}  // namespace

GpuProgram lower_to_gpu(const Function &f, const GpuKnobs &knobs) {
  check_supported(f);
  GpuProgram p;
  p.function = f;
  p.knobs = knobs;
  Planner planner{p, knobs, statements_of(f.body)};
  std::vector<Stmt> top = statements_of(f.body);
  std::vector<LoopVar> groups;
  if (top.size() == 1 && top[0]->kind == StmtKind::For) {  // a batch: its iterations are the groups
    groups.push_back(top[0]->var);
    top = statements_of(top[0]->loop_body);
  }
  planner.plan(groups, top);
  std::set<int> shared;
  for (const GpuKernel &k : p.kernels) shared.insert(k.shared.begin(), k.shared.end());
  for (const Buffer &b : p.function.buffers)
    if (b.role == BufferRole::Temp && !shared.count(b.id)) p.scratch.push_back(b.id);
  return p;
}

}  // namespace splgen::lower
