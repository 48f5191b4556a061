#include "generator/ir/gpu_program.h"

#include <fmt/format.h>

#include <limits>

#include "generator/ir/loop_visitor.h"

namespace splgen {

namespace {

// Loops over vars around body, the first outermost; backwards: each variable v runs as
// extent-1-v' (the same iterations in the opposite order).
Stmt nest(const std::vector<LoopVar> &vars, Stmt body, bool reversed) {
  for (auto it = vars.rbegin(); it != vars.rend(); ++it) {
    if (reversed) body = substitute(body, it->id, Affine::constant(it->extent - 1) + Affine::var(*it, -1));
    body = make_for(*it, body);
  }
  return body;
}

}  // namespace

int64_t iterations(const std::vector<LoopVar> &vars) {
  int64_t n = 1;
  for (const LoopVar &v : vars) n *= v.extent;
  return n;
}

int64_t GpuKernel::group_count() const { return iterations(groups); }

bool GpuKernel::grid_stride() const {
  return stages.size() == 1 && threads_per_group == 1 && shared.empty() && stages[0].lanes.empty();
}

int64_t lane_count(const GpuStage &s) { return iterations(s.lanes); }

int64_t shared_row_elements(int64_t size, const GpuKnobs &knobs) {
  if (!knobs.padding) return size;
  const int64_t row = knobs.real_bytes == 4 ? 16 : 8;
  return (size + row - 1) / row * row + 1;
}

Stmt sequential_body(const GpuKernel &k, bool reversed) {
  std::vector<Stmt> stages;
  for (const GpuStage &s : k.stages) stages.push_back(nest(s.lanes, s.body, reversed));
  return nest(k.groups, make_block(stages), reversed);
}

std::vector<cplx> interpret(const GpuProgram &p, const std::vector<cplx> &x, bool reversed) {
  Function f = p.function;
  std::vector<Stmt> kernels;
  // y and the temporaries start as NaN, as GPU memory holds whatever was there: a read before
  // a write shows in the result.
  for (const Buffer &b : f.buffers)
    if (b.role == BufferRole::Temp || b.role == BufferRole::Output) {
      LoopVar i{1 << 28, b.size};
      const Expr nan = e_const(std::numeric_limits<double>::quiet_NaN());
      kernels.push_back(make_for(i, make_block({make_store(b.id, idx_affine(Affine::var(i)), 0, nan),
                                                make_store(b.id, idx_affine(Affine::var(i)), 1, nan)})));
    }
  for (const GpuKernel &k : p.kernels) kernels.push_back(sequential_body(k, reversed));
  f.body = make_block(kernels);
  return interpret(f, x);
}

std::string to_string(const GpuProgram &p) {
  auto vars = [](const std::vector<LoopVar> &vs) {
    std::string s;
    for (const LoopVar &v : vs) s += fmt::format("{}{}<{}", s.empty() ? "" : ", ", var_name(v.id), v.extent);
    return s.empty() ? std::string("1") : s;
  };
  std::string out = fmt::format("gpu program {}: {} kernels\n", p.function.name, p.kernels.size());
  for (int id : p.scratch) out += fmt::format("  scratch {} : complex[{}] in global memory\n", p.function.buffers[std::size_t(id)].name,
                                              p.function.buffers[std::size_t(id)].size);
  for (std::size_t i = 0; i < p.kernels.size(); ++i) {
    const GpuKernel &k = p.kernels[i];
    out += fmt::format("kernel {}: groups ({}), {} per block, {} threads each\n", i, vars(k.groups), k.groups_per_block,
                       k.threads_per_group);
    for (int id : k.shared)
      out += fmt::format("  shared {} : complex[{}] per group\n", p.function.buffers[std::size_t(id)].name,
                         p.function.buffers[std::size_t(id)].size);
    for (const GpuStage &s : k.stages) {
      Function f = p.function;
      f.body = s.body;
      std::string body = to_string(f);
      body = body.substr(body.find("\n", body.rfind("  buffer ")) + 1);  // the statements only
      out += fmt::format("  stage: lanes ({}){}, then barrier\n{}", vars(s.lanes),
                         s.cooperative ? (s.groups_fastest ? " cooperative, groups fastest" : " cooperative") : "", body);
    }
  }
  return out;
}

}  // namespace splgen
