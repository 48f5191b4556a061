#include "generator/lower/schedule_registers.h"

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {
namespace {

struct Access {
  int buffer;
  Idx index;
  bool store;
};

// What one statement reads, defines and touches.
struct Info {
  std::set<int> reads;  // scalars
  int defines = -1;     // Assign: its scalar
  std::vector<Access> accesses;
};

class CollectInfo : public LoopVisitor {
 public:
  explicit CollectInfo(Info &info) : info_(info) {}

 protected:
  void visit_scalar(const Expr &e) override { info_.reads.insert(e->scalar); }
  void visit_load(const Expr &e) override { info_.accesses.push_back({e->buffer, e->index, false}); }

 private:
  Info &info_;
};

void collect(const Expr &e, Info &info) { CollectInfo(info).include(e); }

// Whether two accesses of one buffer may touch the same element when statements run in
// lockstep over `width` lanes of loop variable `var` (width 1: one iteration at a time).
bool may_overlap(const Idx &p, const Idx &q, int var, int width) {
  const Affine *a = as_affine(p), *b = as_affine(q);
  if (!a || !b || a->terms != b->terms) return true;
  int64_t d = b->c0 - a->c0, coeff = 0;
  if (d == 0) return true;
  for (auto &[v, c] : a->terms)
    if (v.id == var) coeff = c;
  if (width <= 1 || coeff == 0 || d % coeff != 0) return false;
  int64_t lanes_apart = d / coeff;
  return lanes_apart > -width && lanes_apart < width;
}

// Dependences are found between every two statements of a run, so a longer run (a
// product of thousands of unrolled stages) is scheduled in pieces of this many; unrolled
// codelets (n <= 32) are far shorter.
constexpr std::size_t kMaxScheduledRun = 2048;

class RunScheduler {
 public:
  RunScheduler(const std::vector<Stmt> &run, int var, int width, bool views)
      : run_(run), var_(var), width_(width), views_(views) {}

  std::vector<Stmt> schedule() {
    const std::size_t n = run_.size();
    info_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      collect(run_[i]->value, info_[i]);
      if (run_[i]->kind == StmtKind::Assign) info_[i].defines = run_[i]->scalar;
      if (run_[i]->kind == StmtKind::Store) info_[i].accesses.push_back({run_[i]->buffer, run_[i]->index, true});
    }
    build_units();
    build_dependences();
    std::vector<Stmt> out = greedy();
    return out.size() == n ? out : run_;  // a cycle among units: keep the original order
  }

 private:
  // Both parts of a complex element loaded into scalars, or stored, form one unit.
  void build_units() {
    std::map<std::string, std::vector<std::size_t>> loads, stores;
    std::map<int, int> defs;
    for (const Info &i : info_)
      if (i.defines >= 0) ++defs[i.defines];
    for (std::size_t i = 0; i < run_.size(); ++i) {
      const StmtNode &s = *run_[i];
      if (s.kind == StmtKind::Assign && s.value->kind == ExprKind::Load && defs[s.scalar] == 1)
        loads[std::to_string(s.value->buffer) + ":" + to_string(s.value->index)].push_back(i);
      if (s.kind == StmtKind::Store) stores[std::to_string(s.buffer) + ":" + to_string(s.index)].push_back(i);
    }
    unit_of_.assign(run_.size(), -1);
    auto pair_up = [&](const std::vector<std::size_t> &members, auto part) {
      if (members.size() != 2 || part(members[0]) == part(members[1])) return;
      for (std::size_t m : members) unit_of_[m] = int(units_.size());
      units_.push_back(members);
    };
    for (auto &[key, members] : loads) pair_up(members, [&](std::size_t i) { return run_[i]->value->part; });
    for (auto &[key, members] : stores) pair_up(members, [&](std::size_t i) { return run_[i]->part; });
    for (std::size_t i = 0; i < run_.size(); ++i)
      if (unit_of_[i] < 0) unit_of_[i] = int(units_.size()), units_.push_back({i});
  }

  void depend(std::size_t before, std::size_t after) {
    int u = unit_of_[before], v = unit_of_[after];
    if (u != v && preds_[std::size_t(v)].insert(u).second) succs_[std::size_t(u)].push_back(v);
  }

  void build_dependences() {
    preds_.assign(units_.size(), {});
    succs_.assign(units_.size(), {});
    std::map<int, std::size_t> last_def;
    std::map<int, std::vector<std::size_t>> readers_since_def;
    std::map<int, std::vector<std::pair<std::size_t, const Access *>>> seen;  // buffer -> earlier accesses
    for (std::size_t j = 0; j < run_.size(); ++j) {
      const Info &info = info_[j];
      for (int s : info.reads) {
        if (auto it = last_def.find(s); it != last_def.end()) depend(it->second, j);
        readers_since_def[s].push_back(j);
      }
      if (info.defines >= 0) {
        int s = info.defines;
        if (auto it = last_def.find(s); it != last_def.end()) depend(it->second, j);
        for (std::size_t r : readers_since_def[s])
          if (r != j) depend(r, j);
        readers_since_def[s].clear();
        last_def[s] = j;
      }
      for (const Access &a : info.accesses) {
        for (auto &[i, b] : seen[a.buffer])
          if ((a.store || b->store) && may_overlap(b->index, a.index, var_, width_)) depend(i, j);
        if (views_ && (a.buffer == kInputBuffer || a.buffer == kOutputBuffer))  // x and y: one buffer, other units
          for (auto &[i, b] : seen[a.buffer == kInputBuffer ? kOutputBuffer : kInputBuffer])
            if (a.store || b->store) depend(i, j);
        seen[a.buffer].emplace_back(j, &a);
      }
    }
  }

  std::vector<Stmt> greedy() {
    std::map<int, int> remaining_readers;
    std::set<int> defined_here;
    for (const Info &i : info_) {
      for (int s : i.reads) ++remaining_readers[s];
      if (i.defines >= 0) defined_here.insert(i.defines);
    }
    std::vector<std::size_t> waiting(units_.size());
    std::set<int> ready;
    for (std::size_t u = 0; u < units_.size(); ++u)
      if ((waiting[u] = preds_[u].size()) == 0) ready.insert(int(u));
    std::vector<Stmt> out;
    while (!ready.empty()) {
      int best = -1, best_score = 0;
      std::size_t best_first = 0;
      for (int u : ready) {
        int score = 0;
        std::map<int, int> reads;  // scalar -> readers in this unit
        for (std::size_t m : units_[std::size_t(u)]) {
          for (int s : info_[m].reads) ++reads[s];
          if (info_[m].defines >= 0) --score;
        }
        for (auto &[s, k] : reads)
          if (defined_here.count(s) && remaining_readers[s] == k) ++score;  // its last reader: frees it
        std::size_t first = units_[std::size_t(u)].front();
        if (best < 0 || score > best_score || (score == best_score && first < best_first))
          best = u, best_score = score, best_first = first;
      }
      ready.erase(best);
      for (std::size_t m : units_[std::size_t(best)]) {
        out.push_back(run_[m]);
        for (int s : info_[m].reads) --remaining_readers[s];
      }
      for (int v : succs_[std::size_t(best)])
        if (--waiting[std::size_t(v)] == 0) ready.insert(v);
    }
    return out;
  }

  const std::vector<Stmt> &run_;
  int var_, width_;
  bool views_;  // an in-place real transform: x and y are two views of one buffer (docs/transforms.md)
  std::vector<Info> info_;
  std::vector<std::vector<std::size_t>> units_;  // statement indices, in original order
  std::vector<int> unit_of_;
  std::vector<std::set<int>> preds_;
  std::vector<std::vector<int>> succs_;
};

// Each maximal run of assignments and stores is scheduled for the innermost enclosing loop
// (var -1 outside every loop); loops stay where they are.
class Scheduler : public LoopMutator {
 public:
  explicit Scheduler(bool views) : views_(views) {}

 protected:
  Stmt mutate_block(const Stmt &s) override { return schedule_block(s->body); }
  Stmt mutate_for(const Stmt &s) override {
    std::pair<int, int> outer{var_, width_};
    var_ = s->var.id, width_ = s->vector_width;
    Stmt body = mutate(s->loop_body);
    std::tie(var_, width_) = outer;
    return with_loop_body(s, std::move(body));
  }
  Stmt mutate_assign(const Stmt &s) override { return schedule_block({s}); }
  Stmt mutate_store(const Stmt &s) override { return schedule_block({s}); }

 private:
  Stmt schedule_block(const std::vector<Stmt> &body) {
    std::vector<Stmt> out, run;
    auto flush = [&] {
      if (run.empty()) return;
      for (Stmt &t : RunScheduler(run, var_, width_, views_).schedule()) out.push_back(std::move(t));
      run.clear();
    };
    for (const Stmt &t : body) {
      if (t->kind == StmtKind::Assign || t->kind == StmtKind::Store) {
        run.push_back(t);
        if (run.size() >= kMaxScheduledRun) flush();
        continue;
      }
      flush();
      out.push_back(mutate(t));
    }
    flush();
    return make_block(std::move(out));
  }

  int var_ = -1, width_ = 1;
  bool views_;
};

}  // namespace

Function schedule_for_registers(const Function &f) {
  Function out = f;
  out.body = Scheduler(f.in_place).mutate(f.body);
  return out;
}

}  // namespace splgen::lower
