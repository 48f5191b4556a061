#include "generator/ir/loops.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace splgen {

// ---- Idx ------------------------------------------------------------------------------

namespace {
Idx make_idx(IdxNode n) { return std::make_shared<const IdxNode>(std::move(n)); }
}  // namespace

const Affine *as_affine(const Idx &x) { return x->kind == IdxKind::Affine ? &x->affine : nullptr; }

Idx idx_affine(Affine a) { return make_idx(IdxNode{IdxKind::Affine, std::move(a)}); }

Idx idx_add(Idx x, Idx y) {
  if (auto *a = as_affine(x))
    if (auto *b = as_affine(y)) return idx_affine(*a + *b);
  if (auto *b = as_affine(y); b && *b == Affine::constant(0)) return x;
  if (auto *a = as_affine(x); a && *a == Affine::constant(0)) return y;
  IdxNode n{IdxKind::Add};
  n.a = std::move(x), n.b = std::move(y);
  return make_idx(std::move(n));
}

Idx idx_scale(Idx x, int64_t c) {
  if (auto *a = as_affine(x)) return idx_affine(*a * c);
  if (c == 1) return x;
  return idx_mul(idx_const(c), std::move(x));
}

Idx idx_mul(Idx x, Idx y) {
  if (auto *a = as_affine(x); a && a->is_constant() && (as_affine(y) || a->c0 == 0 || a->c0 == 1))
    return a->c0 == 1 ? y : idx_scale(y, a->c0);
  if (auto *b = as_affine(y); b && b->is_constant() && (as_affine(x) || b->c0 == 0 || b->c0 == 1))
    return b->c0 == 1 ? x : idx_scale(x, b->c0);
  IdxNode n{IdxKind::Mul};
  n.a = std::move(x), n.b = std::move(y);
  return make_idx(std::move(n));
}

Idx idx_div(Idx x, int64_t d) {
  if (d == 1) return x;
  if (auto *a = as_affine(x))
    if (auto qr = divmod(*a, d)) return idx_affine(qr->first);
  IdxNode n{IdxKind::Div};
  n.a = std::move(x), n.divisor = d;
  return make_idx(std::move(n));
}

Idx idx_mod(Idx x, int64_t d) {
  if (d == 1) return idx_const(0);
  if (auto *a = as_affine(x))
    if (auto qr = divmod(*a, d)) return idx_affine(qr->second);
  IdxNode n{IdxKind::Mod};
  n.a = std::move(x), n.divisor = d;
  return make_idx(std::move(n));
}

Idx idx_lookup(std::shared_ptr<const std::vector<int64_t>> table, Idx i) {
  if (auto *a = as_affine(i); a && a->is_constant()) return idx_const(table->at(std::size_t(a->c0)));
  if (auto *a = as_affine(i))
    if (std::optional<Affine> direct = affine_through_table(*table, *a)) return idx_affine(*direct);
  IdxNode n{IdxKind::Lookup};
  n.a = std::move(i), n.table = std::move(table);
  return make_idx(std::move(n));
}

// substitute and uses_var are walks: loop_visitor.cpp has them.

int64_t eval(const Idx &x, const Env &env) {
  switch (x->kind) {  // per-kind arithmetic (evaluation), not a walk
    case IdxKind::Affine: return x->affine.eval(env);
    case IdxKind::Add: return eval(x->a, env) + eval(x->b, env);
    case IdxKind::Mul: return eval(x->a, env) * eval(x->b, env);
    case IdxKind::Div: return eval(x->a, env) / x->divisor;
    case IdxKind::Mod: return eval(x->a, env) % x->divisor;
    case IdxKind::Lookup: return x->table->at(std::size_t(eval(x->a, env)));
  }
  throw std::logic_error("bad index expression");
}

std::string to_string(const Idx &x) {
  switch (x->kind) {  // per-kind printing
    case IdxKind::Affine: return to_string(x->affine);
    case IdxKind::Add: return fmt::format("({} + {})", to_string(x->a), to_string(x->b));
    case IdxKind::Mul: return fmt::format("({} * {})", to_string(x->a), to_string(x->b));
    case IdxKind::Div: return fmt::format("({}) / {}", to_string(x->a), x->divisor);
    case IdxKind::Mod: return fmt::format("({}) % {}", to_string(x->a), x->divisor);
    case IdxKind::Lookup: return fmt::format("table{}[{}]", x->table->size(), to_string(x->a));
  }
  return "?";
}

// ---- Expr ------------------------------------------------------------------------------

namespace {

void mix(std::size_t &h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

Expr finish(ExprNode n) {
  std::size_t h = std::size_t(n.kind) * 7919u;
  mix(h, std::hash<double>{}(n.value));
  mix(h, std::size_t(n.buffer + 7) * 31 + std::size_t(n.part));
  mix(h, std::size_t(n.scalar + 11));
  if (n.index) mix(h, std::hash<std::string>{}(to_string(n.index)));
  if (n.a) mix(h, n.a->hash);
  if (n.b) mix(h, n.b->hash);
  n.hash = h;
  return std::make_shared<const ExprNode>(std::move(n));
}

Expr binary(ExprKind kind, Expr x, Expr y) {
  ExprNode n{kind};
  n.a = std::move(x), n.b = std::move(y);
  return finish(std::move(n));
}

bool same_idx(const Idx &x, const Idx &y) { return x == y || to_string(x) == to_string(y); }

// Commutative operands in a canonical order, so a+b and b+a are shared.
void order(Expr &x, Expr &y) {
  if (y->hash < x->hash) std::swap(x, y);
}

}  // namespace

bool same(const Expr &x, const Expr &y) {
  if (x == y) return true;
  if (x->hash != y->hash || x->kind != y->kind) return false;
  switch (x->kind) {  // compares two nodes side by side: not a one-tree walk
    case ExprKind::Const: return x->value == y->value;
    case ExprKind::Load: return x->buffer == y->buffer && x->part == y->part && same_idx(x->index, y->index);
    case ExprKind::Scalar: return x->scalar == y->scalar;
    case ExprKind::Neg: return same(x->a, y->a);
    default: return same(x->a, y->a) && same(x->b, y->b);
  }
}

bool is_const(const Expr &e, double v) { return e->kind == ExprKind::Const && e->value == v; }

Expr e_const(double v) {
  ExprNode n{ExprKind::Const};
  n.value = v == 0.0 ? 0.0 : v;  // no negative zero
  return finish(std::move(n));
}

Expr e_load(int buffer, Idx index, int part) {
  ExprNode n{ExprKind::Load};
  n.buffer = buffer, n.index = std::move(index), n.part = part;
  return finish(std::move(n));
}

Expr e_scalar(int scalar) {
  ExprNode n{ExprKind::Scalar};
  n.scalar = scalar;
  return finish(std::move(n));
}

Expr e_neg(Expr x) {
  if (x->kind == ExprKind::Const) return e_const(-x->value);
  if (x->kind == ExprKind::Neg) return x->a;
  if (x->kind == ExprKind::Sub) return e_sub(x->b, x->a);
  ExprNode n{ExprKind::Neg};
  n.a = std::move(x);
  return finish(std::move(n));
}

Expr e_add(Expr x, Expr y) {
  if (x->kind == ExprKind::Const && y->kind == ExprKind::Const) return e_const(x->value + y->value);
  if (is_const(x, 0)) return y;
  if (is_const(y, 0)) return x;
  if (x->kind == ExprKind::Neg && y->kind == ExprKind::Neg) return e_neg(e_add(x->a, y->a));
  if (y->kind == ExprKind::Neg) return e_sub(x, y->a);
  if (x->kind == ExprKind::Neg) return e_sub(y, x->a);
  order(x, y);
  return binary(ExprKind::Add, std::move(x), std::move(y));
}

Expr e_sub(Expr x, Expr y) {
  if (x->kind == ExprKind::Const && y->kind == ExprKind::Const) return e_const(x->value - y->value);
  if (is_const(y, 0)) return x;
  if (is_const(x, 0)) return e_neg(y);
  if (same(x, y)) return e_const(0);
  if (y->kind == ExprKind::Neg) return e_add(x, y->a);
  if (x->kind == ExprKind::Neg) return e_neg(e_add(x->a, y));
  return binary(ExprKind::Sub, std::move(x), std::move(y));
}

Expr e_mul(Expr x, Expr y) {
  if (y->kind == ExprKind::Const) std::swap(x, y);
  if (x->kind == ExprKind::Const) {
    if (y->kind == ExprKind::Const) return e_const(x->value * y->value);
    if (x->value == 0) return e_const(0);
    if (x->value == 1) return y;
    if (x->value == -1) return e_neg(y);
    if (x->value < 0) return e_neg(e_mul(e_const(-x->value), y));  // constants kept positive
    if (y->kind == ExprKind::Neg) return e_neg(e_mul(x, y->a));
    return binary(ExprKind::Mul, std::move(x), std::move(y));
  }
  if (x->kind == ExprKind::Neg) return e_neg(e_mul(x->a, y));
  if (y->kind == ExprKind::Neg) return e_neg(e_mul(x, y->a));
  order(x, y);
  return binary(ExprKind::Mul, std::move(x), std::move(y));
}

// ---- Stmt ------------------------------------------------------------------------------

namespace {
Stmt make_stmt(StmtNode n) { return std::make_shared<const StmtNode>(std::move(n)); }
}  // namespace

Stmt make_block(std::vector<Stmt> body) {
  StmtNode n{StmtKind::Block};
  for (Stmt &s : body) {
    if (!s) continue;
    if (s->kind == StmtKind::Block)
      n.body.insert(n.body.end(), s->body.begin(), s->body.end());
    else
      n.body.push_back(std::move(s));
  }
  return make_stmt(std::move(n));
}

Stmt make_for(LoopVar var, Stmt body) {
  if (var.extent < 1) return make_block({});
  StmtNode n{StmtKind::For};
  n.var = var, n.loop_body = std::move(body);
  return make_stmt(std::move(n));
}

Stmt make_parallel_for(LoopVar var, Stmt body) {
  if (var.extent < 1) return make_block({});
  StmtNode n{StmtKind::For};
  n.var = var, n.loop_body = std::move(body), n.parallel = true;
  return make_stmt(std::move(n));
}

Stmt make_vector_for(LoopVar var, Stmt body, int vector_width) {
  if (vector_width < 1 || (var.extent % vector_width != 0 && var.extent > vector_width))
    throw std::invalid_argument(
        fmt::format("make_vector_for: extent {} is neither a multiple of {} lanes nor below it", var.extent, vector_width));
  if (var.extent < 1) return make_block({});
  StmtNode n{StmtKind::For};
  n.var = var, n.loop_body = std::move(body), n.vector_width = vector_width;
  return make_stmt(std::move(n));
}

Stmt make_assign(int scalar, Expr value, bool declare, ScalarDecl decl) {
  StmtNode n{StmtKind::Assign};
  n.scalar = scalar, n.value = std::move(value), n.declare = declare, n.decl = decl;
  return make_stmt(std::move(n));
}

Stmt make_store(int buffer, Idx index, int part, Expr value) {
  StmtNode n{StmtKind::Store};
  n.buffer = buffer, n.index = std::move(index), n.part = part, n.value = std::move(value);
  return make_stmt(std::move(n));
}

Stmt make_dma(int external, Idx index, DmaTransfer t) {
  if (t.count < 1 || t.block < 1 || (t.count > 1 && t.stride < t.block) || !index || !t.local_index || !t.tag)
    throw std::invalid_argument(fmt::format("make_dma: bad transfer ({} blocks of {} at stride {})", t.count, t.block, t.stride));
  StmtNode n{StmtKind::Dma};
  n.buffer = external, n.index = std::move(index), n.dma = std::move(t);
  return make_stmt(std::move(n));
}

Stmt make_dma_wait(Idx tag) {
  StmtNode n{StmtKind::DmaWait};
  n.dma.tag = std::move(tag);
  return make_stmt(std::move(n));
}

int64_t local_memory_bytes(const Function &f, int64_t real_bytes) {
  int64_t total = 0;
  for (const Buffer &b : f.buffers)
    if (b.role == BufferRole::Local) total += 2 * real_bytes * b.size;
  return total;
}

// ---- interpreter -----------------------------------------------------------------------

namespace {

struct Machine {
  const Function &f;
  std::vector<std::vector<cplx>> buffers;
  std::vector<double> scalars;
  Env env;
  int64_t rank = -1;  // >= 0: a parallel loop runs only this iteration (interpret(f, x, rank))

  cplx &element(int buffer, const Idx &index) {
    int64_t i = eval(index, env);
    auto &b = buffers.at(std::size_t(buffer));
    if (i < 0 || i >= int64_t(b.size()))
      throw std::logic_error(fmt::format("index {} out of range for buffer {} of size {}", i,
                                         f.buffers[std::size_t(buffer)].name, b.size()));
    return b[std::size_t(i)];
  }

  double value(const Expr &e) {
    switch (e->kind) {  // per-kind evaluation
      case ExprKind::Const: return e->value;
      case ExprKind::Load: {
        if (e->part && f.buffers[std::size_t(e->buffer)].real)
          throw std::logic_error("a load of the imaginary part of real buffer " + f.buffers[std::size_t(e->buffer)].name);
        cplx &c = element(e->buffer, e->index);
        return e->part ? c.imag() : c.real();
      }
      case ExprKind::Scalar: return scalars.at(std::size_t(e->scalar));
      case ExprKind::Add: return value(e->a) + value(e->b);
      case ExprKind::Sub: return value(e->a) - value(e->b);
      case ExprKind::Mul: return value(e->a) * value(e->b);
      case ExprKind::Neg: return -value(e->a);
    }
    throw std::logic_error("bad expression");
  }

  // SIMD semantics: each statement of the (straight-line) body runs for every lane before the
  // next one starts, each lane with its own scalars; so a vectorisation that broke a
  // dependence between iterations shows up in to_dense(Function).
  void run_lockstep(const StmtNode &loop) {
    std::vector<Stmt> body = loop.loop_body->kind == StmtKind::Block ? loop.loop_body->body : std::vector<Stmt>{loop.loop_body};
    const auto width = std::size_t(loop.vector_width);
    for (int64_t base = 0; base < loop.var.extent; base += loop.vector_width) {
      const auto active = std::min(width, std::size_t(loop.var.extent - base));  // masked lanes do nothing
      std::vector<std::vector<double>> lanes(active, scalars);
      for (const Stmt &t : body) {
        if (t->kind == StmtKind::For || t->kind == StmtKind::Block)
          throw std::logic_error("interpret: a vector loop body must be straight-line code");
        for (std::size_t l = 0; l < active; ++l) {
          env[loop.var.id] = base + int64_t(l);
          std::swap(scalars, lanes[l]);
          run(t);
          std::swap(scalars, lanes[l]);
        }
      }
      scalars = lanes.back();
    }
  }

  void run(const Stmt &s) {
    switch (s->kind) {  // per-kind execution (loops run, lockstep lanes)
      case StmtKind::Block:
        for (const Stmt &t : s->body) run(t);
        break;
      case StmtKind::For:
        if (s->vector_width > 1) {
          run_lockstep(*s);
        } else if (s->parallel && rank >= 0) {
          if (rank >= s->var.extent) throw std::logic_error("interpret: rank beyond the parallel loop");
          env[s->var.id] = rank;
          run(s->loop_body);
        } else {
          for (int64_t i = 0; i < s->var.extent; ++i) {
            env[s->var.id] = i;
            run(s->loop_body);
          }
        }
        env.erase(s->var.id);
        break;
      case StmtKind::Assign: scalars.at(std::size_t(s->scalar)) = value(s->value); break;
      case StmtKind::Store: {
        double v = value(s->value);
        if (s->buffer == kInputBuffer) throw std::logic_error("store into the input buffer");
        if (s->part && f.buffers[std::size_t(s->buffer)].real)
          throw std::logic_error("a store of the imaginary part of real buffer " + f.buffers[std::size_t(s->buffer)].name);
        cplx &c = element(s->buffer, s->index);
        c = s->part ? cplx(c.real(), v) : cplx(v, c.imag());
        break;
      }
      case StmtKind::Dma: transfer(*s); break;
      case StmtKind::DmaWait: break;  // transfers are done when issued here
    }
  }

  void transfer(const StmtNode &s) {
    const DmaTransfer &t = s.dma;
    if (!t.get && s.buffer == kInputBuffer) throw std::logic_error("dma put into the input buffer");
    const int64_t ext = eval(s.index, env), loc = eval(t.local_index, env);
    for (int64_t b = 0; b < t.count; ++b)
      for (int64_t e = 0; e < t.block; ++e) {
        cplx &outside = element(s.buffer, idx_const(ext + b * t.stride + e));
        cplx &local = element(t.local, idx_const(loc + b * t.block + e));
        if (t.get) local = outside;
        else outside = local;
      }
  }
};

// In place, y starts as the memory x describes: the same elements where both are complex;
// a real transform's x and y are two views of one buffer (docs/transforms.md, "Layouts"), the
// real one a real per element, a complex or packed one two.
std::vector<cplx> in_place_start(const Function &f, const std::vector<cplx> &x) {
  const Buffer &xb = f.buffers[kInputBuffer], &yb = f.buffers[kOutputBuffer];
  if (xb.real == yb.real && !xb.packed && !yb.packed) return x;
  std::vector<double> reals;
  for (const cplx &v : x) {
    reals.push_back(v.real());
    if (!xb.real && !xb.packed) reals.push_back(v.imag());
  }
  std::vector<cplx> y(std::size_t(yb.size));
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = yb.real ? cplx(reals.at(i), 0.0) : cplx(reals.at(2 * i), reals.at(2 * i + 1));
  return y;
}

}  // namespace

std::vector<cplx> table_values(const Buffer &b) {
  if (!b.diag_source) return b.values;
  const std::vector<cplx> &d = diag_values(*b.diag_source);
  std::vector<cplx> v;
  for (int64_t q = 0; q < b.size; ++q) v.push_back(d.at(std::size_t(b.diag_first + b.diag_step * q)));
  return v;
}

std::vector<cplx> interpret(const Function &f, const std::vector<cplx> &x) { return interpret(f, x, -1); }

std::vector<cplx> interpret(const Function &f, const std::vector<cplx> &x, int64_t rank) {
  const Buffer &xb = f.buffers[kInputBuffer];
  if (int64_t(x.size()) != (xb.packed ? 2 * xb.size : xb.size)) throw std::invalid_argument("interpret: input size mismatch");
  Machine m{f, {}, std::vector<double>(std::size_t(f.scalars)), {}, rank};
  for (const Buffer &b : f.buffers) {
    if (b.role == BufferRole::Table && b.recipe.worker_stride > 0) {  // one rank's slice
      if (rank < 0) throw std::logic_error("interpret: a table sliced per rank needs the rank (interpret(f, x, rank))");
      const auto first = b.values.begin() + rank * b.recipe.worker_stride;
      m.buffers.emplace_back(first, first + b.size);
    } else if (b.role == BufferRole::Table)
      m.buffers.push_back(table_values(b));
    else
      m.buffers.emplace_back(std::size_t(b.size), cplx(std::nan(""), std::nan("")));
  }
  if (f.buffers[kInputBuffer].packed)  // element j = (Re x_2j, Re x_2j+1)
    for (std::size_t j = 0; j < m.buffers[kInputBuffer].size(); ++j)
      m.buffers[kInputBuffer][j] = cplx(x.at(2 * j).real(), x.at(2 * j + 1).real());
  else
    m.buffers[kInputBuffer] = x;
  const bool packed_out = f.buffers[kOutputBuffer].packed;
  if (f.in_place)
    m.buffers[kOutputBuffer] = in_place_start(f, x);
  else
    m.buffers[kOutputBuffer].assign(std::size_t(f.buffers[kOutputBuffer].size), cplx(0.0));
  m.run(f.body);
  if (!packed_out) return m.buffers[kOutputBuffer];
  std::vector<cplx> y;  // y_2j = Re z_j, y_2j+1 = Im z_j
  for (const cplx &z : m.buffers[kOutputBuffer]) y.push_back(z.real()), y.push_back(z.imag());
  return y;
}

Matrix to_dense(const Function &f) {
  return probe_matrix(f.rows, f.cols, [&](const std::vector<cplx> &x) { return interpret(f, x); });
}

// ---- dump ----------------------------------------------------------------------------------

namespace {

std::string expr_string(const Function &f, const Expr &e) {
  switch (e->kind) {  // per-kind printing
    case ExprKind::Const: return fmt::format("{}", e->value);
    case ExprKind::Load:
      return fmt::format("{}[{}].{}", f.buffers[std::size_t(e->buffer)].name, to_string(e->index), e->part ? "im" : "re");
    case ExprKind::Scalar: return fmt::format("s{}", e->scalar);
    case ExprKind::Add: return fmt::format("({} + {})", expr_string(f, e->a), expr_string(f, e->b));
    case ExprKind::Sub: return fmt::format("({} - {})", expr_string(f, e->a), expr_string(f, e->b));
    case ExprKind::Mul: return fmt::format("{} * {}", expr_string(f, e->a), expr_string(f, e->b));
    case ExprKind::Neg: return fmt::format("-{}", expr_string(f, e->a));
  }
  return "?";
}

void dump(const Function &f, const Stmt &s, int depth, std::string &out) {
  std::string pad(std::size_t(depth) * 2, ' ');
  switch (s->kind) {  // per-kind printing
    case StmtKind::Block:
      for (const Stmt &t : s->body) dump(f, t, depth, out);
      break;
    case StmtKind::For:
      out += fmt::format("{}{}for {} in 0..{}{}:\n", pad, s->parallel ? "parallel " : "", var_name(s->var.id), s->var.extent,
                         s->vector_width > 1 ? fmt::format(" vectorized({})", s->vector_width) : "");
      dump(f, s->loop_body, depth + 1, out);
      break;
    case StmtKind::Assign:
      out += fmt::format("{}s{} {} {}\n", pad, s->scalar, s->declare ? ":=" : "=", expr_string(f, s->value));
      break;
    case StmtKind::Store:
      out += fmt::format("{}{}[{}].{} = {}\n", pad, f.buffers[std::size_t(s->buffer)].name, to_string(s->index),
                         s->part ? "im" : "re", expr_string(f, s->value));
      break;
    case StmtKind::Dma: {
      const DmaTransfer &t = s->dma;
      std::string outside = fmt::format("{}[{}{}]", f.buffers[std::size_t(s->buffer)].name, to_string(s->index),
                                        t.count > 1 ? fmt::format(" + {}b", t.stride) : "");
      std::string local = fmt::format("{}[{}]", f.buffers[std::size_t(t.local)].name, to_string(t.local_index));
      out += fmt::format("{}dma_{} {} {} {}{}, tag {}\n", pad, t.get ? "get" : "put", t.get ? local : outside,
                         t.get ? "<-" : "->", t.get ? outside : local,
                         t.count > 1 ? fmt::format(": {} blocks (b) of {}", t.count, t.block) : fmt::format(": {}", t.block),
                         to_string(t.tag));
      break;
    }
    case StmtKind::DmaWait: out += fmt::format("{}dma_wait tag {}\n", pad, to_string(s->dma.tag)); break;
  }
}

}  // namespace

std::string to_string(const Function &f) {
  std::string out = fmt::format("function {} ({}x{}){}\n", f.name, f.rows, f.cols,
                                f.workers > 1 ? fmt::format(", {} workers", f.workers) : "");
  for (const Buffer &b : f.buffers) {
    const char *role = b.role == BufferRole::Input    ? "input"
                       : b.role == BufferRole::Output ? "output"
                       : b.role == BufferRole::Temp   ? "temp"
                       : b.role == BufferRole::Local  ? "local"
                                                      : "table";
    out += fmt::format("  buffer {} : {}{} complex[{}]\n", b.name, role, b.per_worker ? " per worker" : "", b.size);
  }
  dump(f, f.body, 1, out);
  return out;
}

}  // namespace splgen
