#include "backends/cuda/cuda_backend.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

#include "backends/cpp/cpp_backend.h"
#include "generator/ir/loop_visitor.h"

namespace splgen::backends {

namespace {

// A twiddle table above GpuKnobs::max_table entries with a recipe is computed where it is read
// (sincospi in double: one FP64 sincos per twiddle is cheaper than the table's memory traffic
// for the multi-megabyte tables of 2^20 points).
bool computed(const Buffer &b, const GpuKnobs &knobs) {
  return b.role == BufferRole::Table && b.recipe.N > 0 && b.size > knobs.max_table;
}

// The loop variables a statement's indices use.
std::set<int> vars_used(const Stmt &s) {
  struct Uses : LoopVisitor {
    std::set<int> ids;
    void visit_affine(const Idx &x) override {
      for (const auto &t : x->affine.terms) ids.insert(t.first.id);
    }
  } u;
  u.include(s);
  return u.ids;
}

// The buffers a statement reads or writes.
std::set<int> buffers_used(const Stmt &s) {
  struct Uses : LoopVisitor {
    std::set<int> ids;
    void visit_load(const Expr &e) override {
      ids.insert(e->buffer);
      LoopVisitor::visit_load(e);
    }
    void visit_store(const Stmt &s) override {
      ids.insert(s->buffer);
      LoopVisitor::visit_store(s);
    }
  } u;
  u.include(s);
  return u.ids;
}

struct Printer {
  const GpuProgram &p;
  const Function &f;
  Precision precision;
  std::string real, complex, index;
  std::map<const std::vector<int64_t> *, std::size_t> lut_of;
  std::set<int> shared_now;  // the shared buffers of the kernel being printed
  int real_bytes() const { return precision == Precision::Float ? 4 : 8; }
  int64_t row(int id) const { return shared_row_elements(f.buffers[std::size_t(id)].size, p.knobs); }
  // Dynamic shared memory of a kernel: its buffers' rows, one per group of the block.
  int64_t shared_bytes(const GpuKernel &k) const {
    int64_t elements = 0;
    for (int id : k.shared) elements += row(id);
    return elements * k.groups_per_block * 2 * real_bytes();
  }
  std::vector<const std::vector<int64_t> *> luts;

  Printer(const GpuProgram &program, Precision prec)
      : p(program), f(program.function), precision(prec), real(prec == Precision::Float ? "float" : "double"),
        complex(prec == Precision::Float ? "float2" : "double2") {
    int64_t largest = 0;
    for (const Buffer &b : f.buffers) largest = std::max(largest, b.size);
    index = largest < (int64_t(1) << 30) ? "int" : "long long";  // 32-bit index arithmetic where it fits
  }

  std::string buffer_name(int id) const {
    if (id == kInputBuffer) return "x";
    if (id == kOutputBuffer) return "y";
    return fmt::format("{}{}", f.buffers[std::size_t(id)].role == BufferRole::Table ? "w" : "t", id);
  }

  std::string lut(const std::shared_ptr<const std::vector<int64_t>> &t) {
    auto [it, fresh] = lut_of.emplace(t.get(), luts.size());
    if (fresh) luts.push_back(t.get());
    return fmt::format("lut{}", it->second);
  }

  std::string idx(const Idx &x) {
    switch (x->kind) {  // per-kind printing, parenthesised
      case IdxKind::Affine: {
        std::string s;
        for (const auto &[v, c] : x->affine.terms)
          s += fmt::format("{}{}{}", s.empty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + "),
                           std::abs(c) == 1 ? "" : fmt::format("{}*", std::abs(c)), var_name(v.id));
        if (s.empty()) return fmt::format("{}", x->affine.c0);
        if (x->affine.c0) s += fmt::format(" {} {}", x->affine.c0 < 0 ? "-" : "+", std::abs(x->affine.c0));
        return x->affine.terms.size() == 1 && !x->affine.c0 && std::abs(x->affine.terms[0].second) == 1 ? s : "(" + s + ")";
      }
      case IdxKind::Add: return fmt::format("({} + {})", idx(x->a), idx(x->b));
      case IdxKind::Mul: return fmt::format("({} * {})", idx(x->a), idx(x->b));
      case IdxKind::Div: return fmt::format("({} / {})", idx(x->a), x->divisor);
      case IdxKind::Mod: return fmt::format("({} % {})", idx(x->a), x->divisor);
      case IdxKind::Lookup: return fmt::format("{}[{}]", lut(x->table), idx(x->a));
    }
    throw std::logic_error("emit_cuda: bad index");
  }

  std::string element(int buffer, const Idx &i, int part) {
    const Buffer &b = f.buffers[std::size_t(buffer)];
    const char *field = part ? ".y" : ".x";
    if (shared_now.count(buffer))
      return p.knobs.padding ? fmt::format("{}[splgen_swizzle({})]{}", buffer_name(buffer), idx(i), field)
                             : fmt::format("{}[{}]{}", buffer_name(buffer), idx(i), field);
    if (computed(b, p.knobs)) return fmt::format("splgen_twiddle({}, {}, {}, {}){}", idx(i), b.recipe.N, b.recipe.n,
                                        ((b.recipe.k % b.recipe.N) + b.recipe.N) % b.recipe.N, field);
    return fmt::format("{}[{}]{}", buffer_name(buffer), idx(i), field);
  }

  std::string expr(const Expr &e) {
    switch (e->kind) {  // per-kind printing, parenthesised
      case ExprKind::Const: {
        std::string lit = cpp_real_literal(e->value, precision);
        return e->value < 0 ? "(" + lit + ")" : lit;
      }
      case ExprKind::Load: return element(e->buffer, e->index, e->part);
      case ExprKind::Scalar: return fmt::format("s{}", e->scalar);
      case ExprKind::Add: return fmt::format("({} + {})", expr(e->a), expr(e->b));
      case ExprKind::Sub: return fmt::format("({} - {})", expr(e->a), expr(e->b));
      case ExprKind::Mul: return fmt::format("({} * {})", expr(e->a), expr(e->b));
      case ExprKind::Neg: return fmt::format("(-{})", expr(e->a));
    }
    throw std::logic_error("emit_cuda: bad expression");
  }

  void stmt(const Stmt &s, int depth, std::string &out) {
    const std::string pad(std::size_t(depth) * 2, ' ');
    switch (s->kind) {  // per-kind printing
      case StmtKind::Block:
        for (const Stmt &t : s->body) stmt(t, depth, out);
        break;
      case StmtKind::For:
        out += fmt::format("{}for ({} {v} = 0; {v} < {}; ++{v}) {{\n", pad, index, s->var.extent, fmt::arg("v", var_name(s->var.id)));
        stmt(s->loop_body, depth + 1, out);
        out += pad + "}\n";
        break;
      case StmtKind::Assign: {
        const std::string v = expr(s->value);
        if (s->decl == ScalarDecl::Plain) out += fmt::format("{}s{} = {};\n", pad, s->scalar, v);
        else out += fmt::format("{}{}{} s{} = {};\n", pad, s->decl == ScalarDecl::ConstLocal ? "const " : "", real, s->scalar, v);
        break;
      }
      case StmtKind::Store:
        out += fmt::format("{}{} = {};\n", pad, element(s->buffer, s->index, s->part), expr(s->value));
        break;
      default: throw std::invalid_argument("emit_cuda: a DMA statement");
    }
  }

  // `const int iV = (flat / inner) % extent;` for each of vars the body uses (the last fastest).
  std::string unflatten(const std::vector<LoopVar> &vars, const std::string &flat, const std::set<int> &used, int depth) {
    std::string out;
    int64_t inner = 1;
    for (auto it = vars.rbegin(); it != vars.rend(); ++it) {
      if (used.count(it->id)) {
        std::string value = inner == 1 ? flat : fmt::format("{} / {}", flat, inner);
        if (it != vars.rend() - 1) value = fmt::format("({}) % {}", value, it->extent);
        out += fmt::format("{}const {} {} = {};\n", std::string(std::size_t(depth) * 2, ' '), index, var_name(it->id), value);
      }
      inner *= it->extent;
    }
    return out;
  }

  std::string hoisted(int depth) const {
    std::string out;
    for (int s : f.hoisted_scalars) out += fmt::format("{}{} s{} = 0;\n", std::string(std::size_t(depth) * 2, ' '), real, s);
    return out;
  }

  // The kernel's parameters: y, x, then the global scratch buffers it touches.
  std::vector<int> scratch_of(const GpuKernel &k) const {
    std::set<int> used;
    for (const GpuStage &s : k.stages)
      for (int b : buffers_used(s.body)) used.insert(b);
    std::vector<int> out;
    for (int id : p.scratch)
      if (used.count(id)) out.push_back(id);
    return out;
  }

  std::string parameters(const GpuKernel &k) const {
    std::string out = fmt::format("{c} *__restrict__ y, const {c} *__restrict__ x", fmt::arg("c", complex));
    for (int id : scratch_of(k)) out += fmt::format(", {} *__restrict__ {}", complex, buffer_name(id));
    return out;
  }

  // __launch_bounds__'s arguments: the block's threads, and GpuKnobs::min_blocks if asked.
  std::string bounds(int threads) const {
    return p.knobs.min_blocks > 0 ? fmt::format("{}, {}", threads, p.knobs.min_blocks) : std::to_string(threads);
  }

  // Groups are single lanes: a grid-stride loop over all of them.
  std::string grid_kernel(const GpuKernel &k, std::size_t number) {
    shared_now.clear();
    std::string out = fmt::format("__global__ void __launch_bounds__({}) {}_k{}({}) {{\n", bounds(k.groups_per_block), f.name,
                                  number, parameters(k));
    out += fmt::format("  for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < {}LL; "
                       "u += (long long)gridDim.x * blockDim.x) {{\n", k.group_count());
    const Stmt &body = k.stages.at(0).body;
    out += unflatten(k.groups, "u", vars_used(body), 2) + hoisted(2);
    stmt(body, 2, out);
    return out + "  }\n}\n";
  }

  std::string fused_kernel(const GpuKernel &k, std::size_t number) {
    const int gpb = k.groups_per_block;
    std::string out = fmt::format("__global__ void __launch_bounds__({}) {}_k{}({}) {{\n", bounds(gpb * k.threads_per_group), f.name,
                                  number, parameters(k));
    std::set<int> in_lanes;  // shared buffers the lane stages use through this group's pointer
    for (const GpuStage &s : k.stages)
      if (!s.cooperative)
        for (int b : buffers_used(s.body)) in_lanes.insert(b);
    shared_now = std::set<int>(k.shared.begin(), k.shared.end());
    if (!k.shared.empty()) out += fmt::format("  extern __shared__ {} splgen_shared[];\n", complex);
    int64_t offset = 0;
    for (int id : k.shared) {
      out += fmt::format("  {} *const {}_all = splgen_shared + {};\n", complex, buffer_name(id), offset);
      if (in_lanes.count(id))
        out += fmt::format("  {c} *const {n} = {n}_all + threadIdx.y * {r};\n", fmt::arg("n", buffer_name(id)),
                           fmt::arg("c", complex), fmt::arg("r", row(id)));
      offset += row(id) * gpb;
    }
    const std::string group = k.groups.empty() ? "" : "group";
    const int64_t groups = k.group_count();
    if (!group.empty()) {
      out += fmt::format("  const {} group = blockIdx.x * {} + threadIdx.y;\n  (void)group;\n", index, gpb);
      std::set<int> used;
      for (const GpuStage &s : k.stages)
        if (!s.cooperative)
          for (int v : vars_used(s.body)) used.insert(v);
      out += unflatten(k.groups, "group", used, 1);
    }
    out += hoisted(1);
    for (std::size_t i = 0; i < k.stages.size(); ++i) {
      const GpuStage &s = k.stages[i];
      if (s.cooperative) out += cooperative_stage(k, s, groups);
      else out += lane_stage(k, s, group, groups);
      if (i + 1 < k.stages.size()) out += "  __syncthreads();\n";
    }
    return out + "}\n";
  }

  std::string lane_stage(const GpuKernel &k, const GpuStage &s, const std::string &group, int64_t groups) {
    std::string out = group.empty() || groups % k.groups_per_block == 0 ? "  {\n" : fmt::format("  if ({} < {}) {{\n", group, groups);
    out += fmt::format("    for ({i} lane = threadIdx.x; lane < {}; lane += {}) {{\n", lane_count(s), k.threads_per_group,
                       fmt::arg("i", index));
    out += unflatten(s.lanes, "lane", vars_used(s.body), 3);
    stmt(s.body, 3, out);
    return out + "    }\n  }\n";
  }

  // Every thread of the block takes consecutive elements of the block's groups' slices.
  std::string cooperative_stage(const GpuKernel &k, const GpuStage &s, int64_t groups) {
    const int64_t lanes = lane_count(s);
    std::string out = fmt::format("  for ({i} e = threadIdx.y * blockDim.x + threadIdx.x; e < {}; e += blockDim.x * blockDim.y) {{\n",
                                  lanes * k.groups_per_block, fmt::arg("i", index));
    if (s.groups_fastest)  // the groups' columns side by side: consecutive threads, consecutive groups
      out += fmt::format("    const {i} row = e % {g}, {lane} = e / {g};\n", fmt::arg("i", index), fmt::arg("g", k.groups_per_block),
                         fmt::arg("lane", var_name(s.lanes.at(0).id)));
    else
      out += fmt::format("    const {i} row = e / {l}, {lane} = e % {l};\n", fmt::arg("i", index), fmt::arg("l", lanes),
                         fmt::arg("lane", var_name(s.lanes.at(0).id)));
    out += fmt::format("    const {} {} = blockIdx.x * {} + row;\n", index, var_name(k.groups.at(0).id), k.groups_per_block);
    out += fmt::format("    if ({} < {}) {{\n", var_name(k.groups.at(0).id), groups);
    for (int id : k.shared)
      if (buffers_used(s.body).count(id))
        out += fmt::format("      {c} *const {n} = {n}_all + row * {r};\n", fmt::arg("c", complex), fmt::arg("n", buffer_name(id)),
                           fmt::arg("r", row(id)));
    stmt(s.body, 3, out);
    return out + "    }\n  }\n";
  }

  std::string tables() {
    std::string out;
    for (const Buffer &b : f.buffers) {
      if (b.role != BufferRole::Table || computed(b, p.knobs)) continue;
      out += fmt::format("__device__ const {} {}[{}] = {{", complex, buffer_name(b.id), b.size);
      const std::vector<cplx> values = table_values(b);  // a large Rader or Bluestein table: printed here
      for (std::size_t i = 0; i < values.size(); ++i)
        out += fmt::format("{}{{{}, {}}}", i % 4 == 0 ? "\n  " : " ", cpp_real_literal(values[i].real(), precision),
                           cpp_real_literal(values[i].imag(), precision)) + (i + 1 < values.size() ? "," : "");
      out += "};\n";
    }
    return out;
  }

  std::string lookup_tables() const {
    std::string out;
    for (std::size_t i = 0; i < luts.size(); ++i) {
      out += fmt::format("__device__ const int lut{}[{}] = {{", i, luts[i]->size());
      for (std::size_t j = 0; j < luts[i]->size(); ++j) out += fmt::format("{}{}", j ? ", " : "", (*luts[i])[j]);
      out += "};\n";
    }
    return out;
  }

  // A bijection on each bank row (8 double2, 16 float2) that spreads power-of-two strides up to
  // 8 rows over distinct banks: element i of a row goes to slot (i + i/B + i/B^2) mod B.
  std::string swizzle_function() const {
    const int b = precision == Precision::Float ? 16 : 8, shift = precision == Precision::Float ? 4 : 3;
    return fmt::format(
        "// The slot of element i in shared memory: whole rows of {b} elements span the banks once, and\n"
        "// i's slot in its row is rotated by i / {b} + i / {bb}, so strides 1 .. {bb} hit distinct banks.\n"
        "__device__ __forceinline__ int splgen_swizzle(int i) {{ return (i & ~{m}) | ((i + (i >> {s}) + (i >> {s2})) & {m}); }}\n",
        fmt::arg("b", b), fmt::arg("bb", b * b), fmt::arg("m", b - 1), fmt::arg("s", shift), fmt::arg("s2", 2 * shift));
  }

  std::string twiddle_function() const {
    return fmt::format(
        "// w_N^((q / n) (q % n) k): a twiddle of a table too large to print, in double (exact\n"
        "// argument: 2e/N), rounded to the kernel's precision.\n"
        "__device__ __forceinline__ {c} splgen_twiddle(long long q, long long N, long long n, long long k) {{\n"
        "  const long long e = (q / n) * (q % n) % N * k % N;\n"
        "  double s, c;\n"
        "  sincospi(2.0 * (double)e / (double)N, &s, &c);\n"
        "  return {{({r})c, ({r})-s}};\n"
        "}}\n",
        fmt::arg("c", complex), fmt::arg("r", real));
  }

  std::string launch(const GpuKernel &k, std::size_t number) const {
    std::string args = "y, x";
    for (int id : scratch_of(k)) args += ", " + buffer_name(id);
    const bool grid = k.grid_stride();
    const int64_t blocks = (k.group_count() + k.groups_per_block - 1) / k.groups_per_block;
    // a grid-stride kernel: enough blocks to fill any GPU several times over, no more
    const int64_t grid_blocks = grid ? std::min<int64_t>(blocks, 65536) : blocks;
    const int64_t bytes = shared_bytes(k);
    std::string out;
    if (bytes > 48 * 1024)  // beyond the default a block must ask for it
      out += fmt::format("  if ((err = cudaFuncSetAttribute({}_k{}, cudaFuncAttributeMaxDynamicSharedMemorySize, {})) != cudaSuccess) goto done;\n",
                         f.name, number, bytes);
    // a grid-stride kernel's groups are threadIdx.x; a fused kernel's are threadIdx.y, its lanes x
    const int64_t dim_x = grid ? k.groups_per_block : k.threads_per_group, dim_y = grid ? 1 : k.groups_per_block;
    return out + fmt::format("  {}_k{}<<<{}, dim3({}, {}), {}, stream>>>({});\n  if ((err = cudaGetLastError()) != cudaSuccess) goto done;\n",
                             f.name, number, grid_blocks, dim_x, dim_y, bytes, args);
  }

  std::string host() const {
    std::string out = fmt::format("extern \"C\" int {}({c} *y, const {c} *x, cudaStream_t stream) {{\n  cudaError_t err = cudaSuccess;\n",
                                  f.name, fmt::arg("c", complex));
    int64_t scratch = 0;
    for (int id : p.scratch) scratch += f.buffers[std::size_t(id)].size;
    if (scratch > 0) {
      // Stream-ordered scratch from the device's default pool, which then keeps what it holds
      // instead of returning it at every synchronisation (one cudaMalloc per call otherwise).
      out += "  static const bool pool_kept = [] {\n"
             "    int device = 0;\n    cudaMemPool_t pool;\n"
             "    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) return false;\n"
             "    unsigned long long keep = ~0ULL;  // cuuint64_t\n"
             "    return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess;\n  }();\n"
             "  (void)pool_kept;\n";
      out += fmt::format("  {} *scratch = nullptr;\n", complex);
      out += fmt::format("  if ((err = cudaMallocAsync((void **)&scratch, {}ULL * sizeof({}), stream)) != cudaSuccess) return (int)err;\n",
                         scratch, complex);
    }
    int64_t offset = 0;
    for (int id : p.scratch) {
      out += fmt::format("  {} *const {} = scratch + {}LL;\n", complex, buffer_name(id), offset);
      offset += f.buffers[std::size_t(id)].size;
    }
    out += "  {\n";
    for (std::size_t i = 0; i < p.kernels.size(); ++i) out += launch(p.kernels[i], i);
    out += "  }\ndone:\n";
    if (scratch > 0) out += "  {\n    const cudaError_t freed = cudaFreeAsync(scratch, stream);\n    if (err == cudaSuccess) err = freed;\n  }\n";
    return out + "  return (int)err;\n}\n";
  }
};

}  // namespace

std::string emit_cuda(const GpuProgram &p, Precision precision, const std::string &header_comment) {
  Printer pr(p, precision);
  std::string kernels;
  for (std::size_t i = 0; i < p.kernels.size(); ++i)
    kernels += (p.kernels[i].grid_stride() ? pr.grid_kernel(p.kernels[i], i) : pr.fused_kernel(p.kernels[i], i)) + "\n";
  bool twiddles = false, shared = false;
  for (const Buffer &b : p.function.buffers) twiddles |= computed(b, p.knobs);
  for (const GpuKernel &k : p.kernels) shared |= !k.shared.empty() && p.knobs.padding;
  std::string out = header_comment + "#include <cuda_runtime.h>\n\nnamespace {\n\n";
  out += pr.lookup_tables() + pr.tables() + (twiddles ? pr.twiddle_function() : "") + (shared ? pr.swizzle_function() : "") + "\n" + kernels;
  out += "}  // namespace\n\n" + pr.host();
  return out;
}

std::string emit_cuda_header(const std::string &name, Precision precision, const std::string &header_comment) {
  std::string upper;
  for (char c : name) upper += char(std::toupper(static_cast<unsigned char>(c)));
  const char *complex = precision == Precision::Float ? "float2" : "double2";
  return fmt::format("{}#ifndef SPLGEN_{u}_H\n#define SPLGEN_{u}_H\n#include <cuda_runtime.h>\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n"
                     "int {n}({c} *y, const {c} *x, cudaStream_t stream);\n#ifdef __cplusplus\n}}\n#endif\n#endif\n",
                     header_comment, fmt::arg("u", upper), fmt::arg("n", name), fmt::arg("c", complex));
}

}  // namespace splgen::backends
