#include "generator/lower/scope_declarations.h"

#include <map>
#include <set>
#include <stdexcept>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {
namespace {

// The scalars that cannot be block-scoped: read where no declaration is visible, or assigned
// without declaring where none is.
class FindHoisted : public ScopedLoopVisitor<std::set<int>> {
 public:
  std::set<int> hoisted;

 protected:
  void visit_assign(const Stmt &s) override {
    note_reads(s->value);
    if (visible(s->scalar)) return;
    if (s->declare)
      scopes_.back().insert(s->scalar);
    else
      hoisted.insert(s->scalar);
  }
  void visit_store(const Stmt &s) override { note_reads(s->value); }

 private:
  bool visible(int scalar) const {
    for (const std::set<int> &scope : scopes_)
      if (scope.count(scalar)) return true;
    return false;
  }
  void note_reads(const Expr &value) {
    for (int r : scalars_read(value))
      if (!visible(r)) hoisted.insert(r);
  }

};

// Resolves every access to a variable: a hoisted scalar is one variable; a declaring
// assignment of a scalar not in scope starts a new one. Assignments are numbered in walk order.
class ResolveVariables : public ScopedLoopVisitor<std::map<int, int>> {  // scopes: scalar -> variable
 public:
  explicit ResolveVariables(const std::set<int> &hoisted) : hoisted_(hoisted) {}

  std::vector<int> hoisted_in_order;  // by first access
  std::vector<int> variable_of_assign;
  std::vector<bool> assign_declares;
  std::vector<int> assigns_of_variable;

 protected:
  void visit_assign(const Stmt &s) override {
    resolve_reads(s->value);
    int v = lookup(s->scalar);
    bool declares = v == kNotInScope;
    if (declares) {
      v = int(assigns_of_variable.size());
      assigns_of_variable.push_back(0);
      scopes_.back()[s->scalar] = v;
    }
    if (v >= 0) ++assigns_of_variable[std::size_t(v)];
    variable_of_assign.push_back(v);
    assign_declares.push_back(declares);
  }
  void visit_store(const Stmt &s) override { resolve_reads(s->value); }

 private:
  static constexpr int kHoisted = -1, kNotInScope = -2;

  int lookup(int scalar) {
    if (hoisted_.count(scalar)) {
      if (seen_hoisted_.insert(scalar).second) hoisted_in_order.push_back(scalar);
      return kHoisted;
    }
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(scalar); f != it->end()) return f->second;
    return kNotInScope;
  }
  void resolve_reads(const Expr &value) {
    for (int r : scalars_read(value))
      if (lookup(r) == kNotInScope) throw std::logic_error("scope_declarations: a scalar read outside any scope");
  }

  const std::set<int> &hoisted_;
  std::set<int> seen_hoisted_;
};

// Writes the decisions into the assignments, numbered in the same walk order.
class MarkDeclarations : public LoopMutator {
 public:
  explicit MarkDeclarations(const ResolveVariables &r) : r_(r) {}

 protected:
  Stmt mutate_assign(const Stmt &s) override {
    std::size_t k = next_++;
    ScalarDecl decl = ScalarDecl::Plain;
    if (r_.assign_declares[k])
      decl = r_.assigns_of_variable[std::size_t(r_.variable_of_assign[k])] == 1 ? ScalarDecl::ConstLocal : ScalarDecl::Local;
    return make_assign(s->scalar, s->value, s->declare, decl);
  }
  Stmt mutate_store(const Stmt &s) override { return s; }

 private:
  const ResolveVariables &r_;
  std::size_t next_ = 0;
};

}  // namespace

Function scope_declarations(const Function &f) {
  if (!f.body) return f;
  FindHoisted find;
  find.include(f.body);
  ResolveVariables resolve(find.hoisted);
  resolve.include(f.body);
  Function out = f;
  out.body = MarkDeclarations(resolve).mutate(f.body);
  out.hoisted_scalars = resolve.hoisted_in_order;
  out.scalars_scoped = true;
  return out;
}

}  // namespace splgen::lower
