#include "generator/lower/count_operations.h"

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {

namespace {

// Each node counted `times` times: the product of the extents of the loops around it.
class Counter : public LoopVisitor {
 public:
  OperationCount count;

 protected:
  void visit_load(const Expr &e) override {
    count.loads += times_;
    LoopVisitor::visit_load(e);
  }
  void visit_add(const Expr &e) override {
    count.adds += times_;
    LoopVisitor::visit_add(e);
  }
  void visit_sub(const Expr &e) override {
    count.adds += times_;
    LoopVisitor::visit_sub(e);
  }
  void visit_mul(const Expr &e) override {
    count.muls += times_;
    LoopVisitor::visit_mul(e);
  }
  void visit_store(const Stmt &s) override {
    count.stores += times_;
    LoopVisitor::visit_store(s);
  }
  void visit_for(const Stmt &s) override {
    const int64_t outer = times_;
    times_ *= s->var.extent;
    LoopVisitor::visit_for(s);
    times_ = outer;
  }

 private:
  int64_t times_ = 1;
};

}  // namespace

OperationCount count_operations(const Function &f) {
  Counter counter;
  counter.include(f.body);
  OperationCount c = counter.count;
  c.passes = f.rows > 0 ? double(c.stores) / double(2 * f.rows) : 0;
  return c;
}

}  // namespace splgen::lower
