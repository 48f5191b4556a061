#include "backends/simd/presplit_tables.h"

#include "generator/ir/loop_visitor.h"

namespace splgen::backends::simd {
namespace {

class TableReads : public LoopVisitor {
 public:
  explicit TableReads(const Function &f) : f_(f) {}
  std::map<int, int> lanes;  // table -> lanes of its vector loads; 0: read otherwise
 protected:
  void visit_for(const Stmt &s) override {
    const StmtNode *outer = vector_loop_;
    if (s->vector_width > 1) vector_loop_ = s.get();
    LoopVisitor::visit_for(s);
    vector_loop_ = outer;
  }
  void visit_load(const Expr &e) override {
    if (e->buffer < 0 || std::size_t(e->buffer) >= f_.buffers.size()) return;
    if (f_.buffers[std::size_t(e->buffer)].role != BufferRole::Table) return;
    int w = whole_register_load(*e);
    auto [it, fresh] = lanes.emplace(e->buffer, w);
    if (!fresh && it->second != w) it->second = 0;
  }

 private:
  // The lanes of the vector loop when e is one of its unmasked contiguous loads, each group
  // starting at a multiple of the lanes; else 0.
  int whole_register_load(const ExprNode &e) const {
    if (!vector_loop_ || is_masked(*vector_loop_)) return 0;
    const Affine *a = as_affine(e.index);
    const int w = vector_loop_->vector_width;
    if (!a || a->c0 % w != 0) return 0;
    bool contiguous = false;
    for (auto &[v, c] : a->terms) {
      if (v.id == vector_loop_->var.id) contiguous = c == 1;
      else if (c % w != 0) return 0;
    }
    return contiguous ? w : 0;
  }

  const Function &f_;
  const StmtNode *vector_loop_ = nullptr;
};

}  // namespace

std::map<int, int> presplit_tables(const Function &f, const std::vector<bool> &printed) {
  std::map<int, int> out;
  if (!f.body) return out;
  TableReads reads(f);
  reads.include(f.body);
  for (auto [table, lanes] : reads.lanes)
    if (lanes > 1 && std::size_t(table) < printed.size() && printed[std::size_t(table)]) out[table] = lanes;
  return out;
}

std::vector<double> presplit_values(const std::vector<cplx> &values, int lanes, const std::vector<int> &lane_order) {
  std::vector<double> out;
  out.reserve(2 * values.size());
  const std::size_t w = std::size_t(lanes), whole = values.size() - values.size() % w;
  for (std::size_t b = 0; b < whole; b += w) {
    for (int l : lane_order) out.push_back(values[b + std::size_t(l)].real());
    for (int l : lane_order) out.push_back(values[b + std::size_t(l)].imag());
  }
  for (std::size_t j = whole; j < values.size(); ++j) out.push_back(values[j].real()), out.push_back(values[j].imag());
  return out;
}

}  // namespace splgen::backends::simd
