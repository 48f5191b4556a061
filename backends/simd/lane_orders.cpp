#include "backends/simd/lane_orders.h"

#include <vector>

#include "backends/simd/lane_step.h"
#include "generator/ir/loop_visitor.h"

namespace splgen::backends::simd {
namespace {

// Per vector loop: whether a lane-dependent contiguous access needs the interleaved order
// (an interleaved buffer that is not a presplit table of the loop's width), and the presplit
// tables it reads.
struct LoopAccesses {
  bool needs_interleaved = false;
  bool split = false;  // a contiguous access of a split buffer: what the natural order is for
  std::set<int> tables;
};

class CollectAccesses : public LoopVisitor {
 public:
  CollectAccesses(const Function &f, const std::map<int, int> &presplit) : f_(f), presplit_(presplit) {}
  std::map<const StmtNode *, LoopAccesses> loops;

 protected:
  void visit_for(const Stmt &s) override {
    const StmtNode *outer = loop_;
    if (s->vector_width > 1) loop_ = s.get(), loops[loop_];
    LoopVisitor::visit_for(s);
    loop_ = outer;
  }
  void visit_load(const Expr &e) override {
    access(e->buffer, e->index);
    LoopVisitor::visit_load(e);
  }
  void visit_store(const Stmt &s) override {
    access(s->buffer, s->index);
    LoopVisitor::visit_store(s);
  }

 private:
  void access(int buffer, const Idx &index) {
    if (!loop_ || buffer < 0 || std::size_t(buffer) >= f_.buffers.size()) return;
    if (!uses_var(index, loop_->var.id) || !contiguous(index)) return;  // broadcast or per lane
    LoopAccesses &a = loops[loop_];
    if (f_.buffers[std::size_t(buffer)].split) return void(a.split = true);
    auto t = presplit_.find(buffer);
    if (t != presplit_.end() && t->second == loop_->vector_width)
      a.tables.insert(buffer);
    else
      a.needs_interleaved = true;
  }

  // As the loop printer sees it (vector_loop.cpp): unit stride, or lanes one element apart.
  bool contiguous(const Idx &index) const {
    return unit_stride(index, loop_->var.id) || lane_step(index, loop_->var.id, loop_->vector_width) == int64_t(1);
  }

  const Function &f_;
  const std::map<int, int> &presplit_;
  const StmtNode *loop_ = nullptr;
};

}  // namespace

LaneOrders plan_lane_orders(const Function &f, const std::map<int, int> &presplit) {
  LaneOrders out;
  if (!f.body) return out;
  CollectAccesses c(f, presplit);
  c.include(f.body);
  for (auto &[loop, a] : c.loops)
    if (a.split && !a.needs_interleaved) out.natural_loops.insert(loop);
  for (auto &[loop, a] : c.loops)
    if (out.natural_loops.count(loop)) out.natural_tables.insert(a.tables.begin(), a.tables.end());
  // A table read by a loop in interleaved order stays so, and so does every loop reading it.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[loop, a] : c.loops)
      for (int t : a.tables) {
        if (!out.natural_loops.count(loop)) changed |= out.natural_tables.erase(t) > 0;
        else if (!out.natural_tables.count(t)) changed |= out.natural_loops.erase(loop) > 0;
      }
  }
  return out;
}

}  // namespace splgen::backends::simd
