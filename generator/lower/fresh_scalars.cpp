#include "generator/lower/fresh_scalars.h"

#include <map>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {
namespace {

class AssignedScalars : public LoopVisitor {
 public:
  explicit AssignedScalars(std::map<int, int> &renamed, int &next) : renamed_(renamed), next_(next) {}

 protected:
  void visit_assign(const Stmt &s) override {
    if (!renamed_.count(s->scalar)) renamed_[s->scalar] = next_++;
    LoopVisitor::visit_assign(s);
  }

 private:
  std::map<int, int> &renamed_;
  int &next_;
};

class RenameScalars : public LoopMutator {
 public:
  explicit RenameScalars(const std::map<int, int> &renamed) : renamed_(renamed) {}

 protected:
  Expr mutate_scalar(const Expr &e) override {
    auto it = renamed_.find(e->scalar);
    return it == renamed_.end() ? e : e_scalar(it->second);
  }
  Stmt mutate_assign(const Stmt &s) override {
    return make_assign(renamed_.at(s->scalar), mutate(s->value), s->declare, s->decl);
  }

 private:
  const std::map<int, int> &renamed_;
};

}  // namespace

Stmt fresh_scalars(const Stmt &s, int &next) {
  std::map<int, int> renamed;
  AssignedScalars(renamed, next).include(s);
  return RenameScalars(renamed).mutate(s);
}

}  // namespace splgen::lower
