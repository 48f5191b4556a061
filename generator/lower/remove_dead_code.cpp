#include "generator/lower/remove_dead_code.h"

#include <map>
#include <set>
#include <stdexcept>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {
namespace {

// Each assignment and store, numbered in walk order: the variable it assigns (-1 for a
// store) and the variables it reads. Variables 0 .. hoisted-1 are the hoisted scalars.
class ResolveStatements : public ScopedLoopVisitor<std::map<int, int>> {  // the outermost scope holds the hoisted
 public:
  struct Statement {
    int assigns = -1;
    std::vector<int> reads;
  };
  std::vector<Statement> statements;
  int variables = 0;

  explicit ResolveStatements(const std::vector<int> &hoisted) {
    for (int s : hoisted) scopes_.front()[s] = variables++;
  }

 protected:
  void visit_assign(const Stmt &s) override {
    Statement st{-1, resolve_reads(s->value)};
    if (s->decl == ScalarDecl::Unscoped) throw std::invalid_argument("remove_dead_code: run scope_declarations first");
    if (s->decl == ScalarDecl::Plain)
      st.assigns = lookup(s->scalar);
    else
      st.assigns = scopes_.back()[s->scalar] = variables++;
    statements.push_back(std::move(st));
  }
  void visit_store(const Stmt &s) override { statements.push_back({-1, resolve_reads(s->value)}); }

 private:
  int lookup(int scalar) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(scalar); f != it->end()) return f->second;
    throw std::logic_error("remove_dead_code: a scalar accessed outside its scope");
  }
  std::vector<int> resolve_reads(const Expr &value) const {
    std::vector<int> out;
    for (int r : scalars_read(value)) out.push_back(lookup(r));
    return out;
  }

};

// Which statements are live: stores, and every assignment to a variable a live one reads.
std::vector<bool> live_statements(const ResolveStatements &r, std::vector<bool> &live_variable) {
  std::vector<std::vector<std::size_t>> assigns_of(std::size_t(r.variables));
  for (std::size_t k = 0; k < r.statements.size(); ++k)
    if (r.statements[k].assigns >= 0) assigns_of[std::size_t(r.statements[k].assigns)].push_back(k);
  std::vector<bool> live(r.statements.size(), false);
  live_variable.assign(std::size_t(r.variables), false);
  std::vector<int> work;
  auto reach = [&](std::size_t k) {
    live[k] = true;
    for (int v : r.statements[k].reads)
      if (!live_variable[std::size_t(v)]) live_variable[std::size_t(v)] = true, work.push_back(v);
  };
  for (std::size_t k = 0; k < r.statements.size(); ++k)
    if (r.statements[k].assigns < 0) reach(k);
  while (!work.empty()) {
    int v = work.back();
    work.pop_back();
    for (std::size_t k : assigns_of[std::size_t(v)]) reach(k);
  }
  return live;
}

// Drops dead statements (numbered in the same walk order) and loops left empty.
class DropDead : public LoopMutator {
 public:
  explicit DropDead(const std::vector<bool> &live) : live_(live) {}

 protected:
  Stmt mutate_assign(const Stmt &s) override { return live_[next_++] ? s : make_block({}); }
  Stmt mutate_store(const Stmt &s) override { return live_[next_++] ? s : make_block({}); }
  Stmt mutate_for(const Stmt &s) override {
    Stmt body = mutate(s->loop_body);
    if (body->kind == StmtKind::Block && body->body.empty()) return body;
    return body == s->loop_body ? s : with_loop_body(s, std::move(body));
  }

 private:
  const std::vector<bool> &live_;
  std::size_t next_ = 0;
};

}  // namespace

Function remove_dead_code(const Function &f) {
  if (!f.body) return f;
  if (!f.scalars_scoped) throw std::invalid_argument("remove_dead_code: run scope_declarations first");
  ResolveStatements resolve(f.hoisted_scalars);
  resolve.include(f.body);
  std::vector<bool> live_variable;
  std::vector<bool> live = live_statements(resolve, live_variable);
  Function out = f;
  out.body = DropDead(live).mutate(f.body);
  out.hoisted_scalars.clear();
  for (std::size_t i = 0; i < f.hoisted_scalars.size(); ++i)
    if (live_variable[i]) out.hoisted_scalars.push_back(f.hoisted_scalars[i]);
  return out;
}

}  // namespace splgen::lower
