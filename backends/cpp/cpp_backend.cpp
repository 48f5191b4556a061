// The portable C++ backend (see cpp_backend.h).
//
// The function comes scoped and without dead code (generator/lower/prepare_for_printing.h):
// each assignment says how its scalar is declared, hoisted scalars are listed. Printing: the
// body first (collecting the constants, lookup tables, tables and temporaries it uses, named
// in order of first use), then the file around it.
#include "backends/cpp/cpp_backend.h"

#include "backends/cpp/computed_diag.h"
#include "backends/cpp/computed_lut.h"
#include "backends/cpp/computed_twiddles.h"
#include "backends/cpp/parallel_region.h"
#include "backends/kernel_name.h"
#include "backends/simd/lane_orders.h"
#include "backends/simd/presplit_tables.h"
#include "backends/simd/split_helpers.h"
#include "backends/simd/vector_loop.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace splgen::backends {

namespace {

constexpr int64_t kMaxStackTemp = 2048;  // complex elements; larger temporaries go on the heap

// Heap temporary k starts 2 KiB, 3 KiB, 1 KiB, 2 KiB ... (in reals) past its storage, which
// glibc's mmap'd blocks place 16 bytes past a page boundary, as callers' large buffers often
// are (not always: bench's many allocations raise glibc's mmap threshold): a stage
// reading one buffer and writing another at equal offsets then meets neither the same L1 sets
// nor 4 KiB-aliased stores. DFT(8192) --in-place, AVX2 double (Zen 3, hand harness, medians
// of 41 rounds, three runs): 0.68-0.78x of the out-of-place kernel, 0.97-1.06x skewed by 512
// bytes or 2 KiB.
int64_t temp_skew(int k, Precision p) { return 1024 * (1 + (k + 1) % 3) / (p == Precision::Float ? 4 : 8); }
bool is_computed_table(const Buffer &b) { return is_computed_twiddles(b) || is_computed_diag(b); }

// The C type of an index table's entries.
const char *lut_type(const std::vector<int64_t> &t) {
  for (int64_t v : t)
    if (v < -(int64_t(1) << 30) || v >= (int64_t(1) << 30)) return "long";
  return "int";
}

// ---- names -------------------------------------------------------------------------------

// One header line as // comments (a line per line of text, trailing blanks dropped).
std::string comment_lines(const std::string &h) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    std::size_t end = h.find_first_of("\r\n", start);
    std::string line = h.substr(start, end == std::string::npos ? std::string::npos : end - start);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (!line.empty() && line.back() == '\\') line += " |";  // no line continuation in a // comment
    out += line.empty() ? "//\n" : "// " + line + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
    if (h[end] == '\r' && start < h.size() && h[start] == '\n') ++start;
  }
  return out;
}

// Words an identifier of the printed code must not be: the keywords, and names the file
// itself or its includes give a meaning.
bool is_reserved_word(const std::string &s) {
  return c_cpp_keywords().count(s) || s == "main" || s == "std" || s == "NULL";
}

bool all_digits(const std::string &s, std::size_t from) {
  if (from >= s.size()) return false;
  for (std::size_t i = from; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// Names the emitter makes up itself: x, y, i<n> (loop variables), s<n> (scalars),
// KP*/KN* (constants), lut<n> (index tables). A buffer may not take one of them.
bool usable_buffer_name(const std::string &s) {
  if (!is_c_identifier(s) || is_reserved_word(s)) return false;
  if (s[0] == '_' || s.find("__") != std::string::npos) return false;  // reserved identifiers
  if (s == "x" || s == "y" || s == "xy" || s == "dma" || s.rfind("ext_", 0) == 0) return false;
  for (const char *io : {"xr", "xi", "yr", "yi", "xyr", "xyi"})
    if (s == io) return false;
  if ((s[0] == 'i' || s[0] == 's') && all_digits(s, 1)) return false;
  if (s.rfind("KP", 0) == 0 || s.rfind("KN", 0) == 0) return false;
  if (s.rfind("lut", 0) == 0 && all_digits(s, 3)) return false;
  return true;
}

// ---- literals ------------------------------------------------------------------------------

// A literal that rounds to the intended value: 17 significant digits for double, 9 (and an
// `f` suffix) for float.
std::string real_literal(double v, Precision p) {
  if (!std::isfinite(v)) throw std::invalid_argument(fmt::format("emit_cpp: non-finite constant {}", v));
  std::string s;
  if (p == Precision::Float) {
    float fv = static_cast<float>(v);
    if (!std::isfinite(fv)) throw std::invalid_argument(fmt::format("emit_cpp: constant {} overflows float", v));
    s = fmt::format("{:.9g}", fv);
  } else {
    s = fmt::format("{:.17g}", v);
  }
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  if (p == Precision::Float) s += 'f';
  return s;
}

// genfft-style name from the value's digits: KP707106781, KP1_414213562, KN500000000.
std::string constant_base_name(double v) {
  double a = std::fabs(v);
  std::string body;
  if (a >= 1e-9 && a < 1e9) {
    std::string s = fmt::format("{:.12f}", a);  // truncated to 9 decimals below, as genfft does
    std::size_t dot = s.find('.');
    std::string ip = s.substr(0, dot), fp = s.substr(dot + 1, 9);
    body = ip == "0" ? fp : ip + "_" + fp;
  } else {
    body = fmt::format("{:.8e}", a);
    for (char &c : body) c = c == '.' ? '_' : c == '-' ? 'm' : c == '+' ? 'p' : c;
  }
  return (v < 0 ? "KN" : "KP") + body;
}

// ---- printer -----------------------------------------------------------------------------

// Precedence levels of printed expressions.
enum Prec { kAdd = 1, kMul = 2, kUnary = 3, kPrimary = 4 };

struct Text {
  std::string s;
  int prec;
};

struct Emitter : simd::ScalarNames {
  const Function &f;
  Precision prec;
  std::string real;  // "double" / "float"
  Isa isa = Isa::Scalar;

  // vector loops: register kinds used (their helpers are printed), broadcast constants
  std::map<std::string, simd::VectorKind> vector_kinds;  // by suffix
  std::map<std::pair<std::string, std::string>, std::string> vconst_by_key;  // (suffix, scalar text) -> name
  std::vector<std::string> vconst_defs;

  std::vector<std::string> buffer_names;
  std::vector<bool> buffer_used;

  // constants: literal text -> name, in order of first use
  std::map<std::string, std::string> const_by_literal;
  std::set<std::string> const_names;
  std::vector<std::pair<std::string, std::string>> const_defs;  // name, literal

  // integer lookup tables, deduplicated by content, in order of first use
  std::map<std::vector<int64_t>, std::size_t> lut_by_content;
  std::unordered_map<const std::vector<int64_t> *, std::size_t> lut_by_ptr;
  std::vector<const std::vector<int64_t> *> luts;

  // loop variables in scope, innermost last; `zero` for extent-1 loops printed as blocks
  std::vector<std::pair<int, bool>> loop_vars;

  std::string body;

  DmaEngine dma = DmaEngine::Thread;

  Emitter(const Function &fn, Precision p, Isa i)
      : f(fn), prec(p), real(p == Precision::Float ? "float" : "double"), isa(i) {}

  // -- simd::ScalarNames
  std::string pointer(int buffer, const Idx &index) override {
    if (split(buffer)) throw std::invalid_argument("emit_cpp: a pointer to a split-format buffer's complex elements");
    const std::string &name = buffer_ref(buffer);
    Text offset = idx_text(index, 2, 0);
    return offset.s == "0" ? name : name + " + " + wrap(offset, kMul);
  }
  std::string element(int buffer, const Idx &index, int part) override {
    const std::string &name = buffer_ref(buffer);
    if (f.buffers[std::size_t(buffer)].real) return name + "[" + idx_text(index, 1, 0).s + "]";  // one real each
    if (f.buffers[std::size_t(buffer)].split) return name + (part ? "i[" : "r[") + idx_text(index, 1, 0).s + "]";
    return name + "[" + idx_text(index, 2, part).s + "]";
  }
  bool split(int buffer) override { return f.buffers[std::size_t(buffer)].split; }
  std::string part_pointer(int buffer, const Idx &index, int part) override {
    if (!split(buffer)) throw std::invalid_argument("emit_cpp: a part pointer into an interleaved buffer");
    const std::string name = buffer_ref(buffer) + (part ? "i" : "r");
    Text offset = idx_text(index, 1, 0);
    return offset.s == "0" ? name : name + " + " + wrap(offset, kMul);
  }
  std::string vector_constant(double v, const simd::VectorKind &kind) override {
    std::string scalar = constant(v);
    auto key = std::make_pair(kind.suffix(), scalar);
    auto it = vconst_by_key.find(key);
    if (it != vconst_by_key.end()) return it->second;
    std::string name = is_c_identifier(scalar) ? scalar + "_" + kind.suffix() : fmt::format("vk{}_{}", vconst_defs.size(), kind.suffix());
    vconst_defs.push_back(fmt::format("const {} {} = {};", kind.type(), name, kind.broadcast(scalar)));
    return vconst_by_key[key] = name;
  }

  // -- buffers
  void name_buffers() {
    if (f.buffers.size() < 2) throw std::invalid_argument("emit_cpp: a function needs buffers x and y");
    std::set<std::string> taken = {"x", "y", "xy", "xr", "xi", "yr", "yi", "xyr", "xyi", f.name};
    buffer_names.resize(f.buffers.size());
    buffer_used.assign(f.buffers.size(), false);
    buffer_names[kInputBuffer] = "x";
    buffer_names[kOutputBuffer] = f.in_place ? "xy" : "y";  // in place, the body uses y only
    for (std::size_t i = 2; i < f.buffers.size(); ++i) {
      const Buffer &b = f.buffers[i];
      if (b.role == BufferRole::Input || b.role == BufferRole::Output)
        throw std::invalid_argument(fmt::format("emit_cpp: buffer {} ({}) has role input/output; only buffers 0 and 1 may", i, b.name));
      std::string name = b.name;
      if (!usable_buffer_name(name) || taken.count(name)) {
        std::string base = fmt::format("{}{}", b.role == BufferRole::Table ? "tab" : "tmp", i);
        name = base;
        for (int k = 2; taken.count(name); ++k) name = fmt::format("{}_{}", base, k);
      }
      taken.insert(name);
      buffer_names[i] = name;
    }
  }

  const std::string &buffer_ref(int id) {
    if (id < 0 || std::size_t(id) >= f.buffers.size())
      throw std::invalid_argument(fmt::format("emit_cpp: no buffer {}", id));
    buffer_used[std::size_t(id)] = true;
    if (!in_dma && (id == kInputBuffer || id == kOutputBuffer)) direct_xy = true;
    return buffer_names[std::size_t(id)];
  }

  // -- constants
  std::string constant(double v) {
    if (v == 0 || v == 1 || v == 2 || v == 0.5) return real_literal(v, prec);
    std::string lit = real_literal(v, prec);
    auto it = const_by_literal.find(lit);
    if (it != const_by_literal.end()) return it->second;
    std::string base = constant_base_name(v), name = base;
    for (int k = 2; const_names.count(name); ++k) name = fmt::format("{}_v{}", base, k);
    const_names.insert(name);
    const_by_literal[lit] = name;
    const_defs.emplace_back(name, lit);
    return name;
  }

  // -- lookup tables
  std::string lut_name(const std::shared_ptr<const std::vector<int64_t>> &table) {
    if (!table || table->empty()) throw std::invalid_argument("emit_cpp: empty lookup table");
    auto it = lut_by_ptr.find(table.get());
    std::size_t k;
    if (it != lut_by_ptr.end()) {
      k = it->second;
    } else {
      auto [c, fresh] = lut_by_content.emplace(*table, luts.size());
      if (fresh) luts.push_back(table.get());
      k = c->second;
      lut_by_ptr[table.get()] = k;
    }
    return fmt::format("lut{}", k);
  }

  // -- indices
  bool zeroed(int var_id) const {
    for (auto it = loop_vars.rbegin(); it != loop_vars.rend(); ++it)
      if (it->first == var_id) return it->second;
    throw std::invalid_argument(fmt::format("emit_cpp: loop variable {} used outside its loop", var_name(var_id)));
  }

  // k*a + c
  Text affine_text(const Affine &a, int64_t k, int64_t c) {
    std::string s;
    int nterms = 0;
    int64_t lead = 0;
    for (auto &[v, coeff] : a.terms) {
      if (zeroed(v.id)) continue;
      int64_t m = coeff * k;
      if (m == 0) continue;
      if (nterms == 0) lead = m;
      if (!s.empty())
        s += m < 0 ? " - " : " + ";
      else if (m < 0)
        s += "-";
      int64_t am = m < 0 ? -m : m;
      s += am == 1 ? var_name(v.id) : fmt::format("{}*{}", am, var_name(v.id));
      ++nterms;
    }
    int64_t c0 = a.c0 * k + c;
    if (nterms == 0) return {fmt::format("{}", c0), c0 < 0 ? kUnary : kPrimary};
    if (c0 > 0) s += fmt::format(" + {}", c0);
    if (c0 < 0) s += fmt::format(" - {}", -c0);
    int p = c0 != 0 || nterms > 1 ? kAdd : lead == 1 ? kPrimary : lead == -1 ? kUnary : kMul;
    return {std::move(s), p};
  }

  static std::string wrap(const Text &t, int min_prec) { return t.prec < min_prec ? "(" + t.s + ")" : t.s; }

  bool wide_lookups = false;  // table lookups printed as long (DMA byte offsets)

  // k*idx + c as a C expression
  Text idx_text(const Idx &x, int64_t k, int64_t c) {
    Text t;
    switch (x->kind) {  // per-kind printing (precedence, constant factors)
      case IdxKind::Affine: return affine_text(x->affine, k, c);
      case IdxKind::Add: {
        Text a = idx_text(x->a, k, 0), b = idx_text(x->b, k, c);
        if (!b.s.empty() && b.s[0] == '-')  // integers: a + -u + v == a - u + v
          return {a.s + " - " + b.s.substr(1), kAdd};
        return {a.s + " + " + b.s, kAdd};
      }
      case IdxKind::Mul: {
        // a constant factor absorbs k: 8*(i0 % 4) rather than 2*(4 * (i0 % 4))
        for (auto [c_side, other] : {std::pair{x->a, x->b}, std::pair{x->b, x->a}})
          if (auto *ca = as_affine(c_side); ca && ca->is_constant() && !as_affine(other)) {
            Text o = idx_text(other, 1, 0);
            t = {fmt::format("{}*{}", ca->c0 * k, wrap(o, kUnary)), kMul};
            if (c != 0) t = {t.s + (c > 0 ? " + " : " - ") + fmt::format("{}", c > 0 ? c : -c), kAdd};
            return t;
          }
        Text a = idx_text(x->a, 1, 0), b = idx_text(x->b, 1, 0);
        t = {wrap(a, x->a->kind == IdxKind::Mul ? kMul : kUnary) + " * " + wrap(b, kUnary), kMul};
        break;
      }
      case IdxKind::Div:
      case IdxKind::Mod: {
        if (x->divisor <= 0) throw std::invalid_argument("emit_cpp: non-positive divisor");
        Text a = idx_text(x->a, 1, 0);
        t = {fmt::format("{} {} {}", wrap(a, kMul), x->kind == IdxKind::Div ? '/' : '%', x->divisor), kMul};
        break;
      }
      case IdxKind::Lookup: {
        std::string name = lut_name(x->table);
        t = {name + "[" + idx_text(x->a, 1, 0).s + "]", kPrimary};
        if (wide_lookups) t.s = "long(" + t.s + ")";  // an int table in a byte offset beyond 2^31
        break;
      }
    }
    if (k != 1) t = {fmt::format("{}*{}", k, wrap(t, kUnary)), kMul};
    if (c != 0) t = {t.s + (c > 0 ? " + " : " - ") + fmt::format("{}", c > 0 ? c : -c), kAdd};
    return t;
  }

  // -- expressions
  static int expr_prec(const Expr &e) {
    switch (e->kind) {  // per-kind precedence
      case ExprKind::Add:
      case ExprKind::Sub: return kAdd;
      case ExprKind::Mul: return kMul;
      case ExprKind::Neg: return kUnary;
      default: return kPrimary;
    }
  }

  void put_expr(std::string &out, const Expr &e, int min_prec) {
    bool paren = expr_prec(e) < min_prec;
    if (paren) out += '(';
    switch (e->kind) {  // per-kind printing
      case ExprKind::Const: out += constant(e->value); break;
      case ExprKind::Load: out += element(e->buffer, e->index, e->part); break;
      case ExprKind::Scalar: out += fmt::format("s{}", e->scalar); break;
      case ExprKind::Add:
      case ExprKind::Sub:
        put_expr(out, e->a, kAdd);
        out += e->kind == ExprKind::Add ? " + " : " - ";
        put_expr(out, e->b, kMul);  // never reassociate: a - (b - c), a + (b + c) keep parentheses
        break;
      case ExprKind::Mul:
        put_expr(out, e->a, kMul);
        out += " * ";
        put_expr(out, e->b, kUnary);
        break;
      case ExprKind::Neg:
        out += '-';
        put_expr(out, e->a, kPrimary);  // -(a * b), -(-a): never `--a`
        break;
    }
    if (paren) out += ')';
  }

  // -- statements
  void indent(int depth) { body.append(std::size_t(depth) * 2, ' '); }

  // Per buffer, the width in bytes of the narrowest store of the statement that last wrote it,
  // in the order printed: a 512-bit loop reads what 256-bit stores just wrote through 256-bit
  // halves (simd::VectorLoop::narrow_loads). DFT(32) avx512 double, 4 x 8: the 8-column stage
  // reading the 4-column stage's ymm stores took 34.7 ns with zmm loads, 23.5 ns with halves
  // (AMD EPYC Zen 4, interleaved A/B, medians of 41 rounds).
  // Only small buffers: of a larger one, the stores a loop reads first have retired by then,
  // and the halves cost an insert each (DFT(192) 0.96x with them; DFT(128) float 1.04-1.08x).
  std::map<int, int> last_store_bytes;
  std::map<int, int> presplit;  // table -> lanes (simd/presplit_tables.h)
  simd::LaneOrders lane_orders;  // simd/lane_orders.h
  static constexpr int64_t kStoreQueueBytes = 1024;
  int64_t buffer_bytes(int buffer) const {
    if (buffer < 0 || std::size_t(buffer) >= f.buffers.size()) return INT64_MAX;
    return f.buffers[std::size_t(buffer)].size * 2 * (prec == Precision::Double ? 8 : 4);
  }

  // Per-kind printing, so a switch rather than a LoopVisitor.
  void emit_stmt(const Stmt &stmt, int depth) {
    const StmtNode &s = *stmt;
    switch (s.kind) {
      case StmtKind::Block:
        for (const Stmt &t : s.body) emit_stmt(t, depth);
        break;
      case StmtKind::For: {
        if (s.vector_width > 1) {
          emit_vector_loop(s, depth);
          break;
        }
        if (s.parallel) {
          if (!in_region) throw std::invalid_argument("emit_cpp: a parallel loop outside the parallel region");
          emit_parallel_loop(s, depth);
          break;
        }
        if (s.var.extent == 1) {
          loop_vars.emplace_back(s.var.id, true);
          indent(depth);
          body += fmt::format("{{  // {} = 0\n", var_name(s.var.id));
        } else {
          loop_vars.emplace_back(s.var.id, false);
          std::string v = var_name(s.var.id);
          indent(depth);
          body += fmt::format("for (long {0} = 0; {0} < {1}; ++{0}) {{\n", v, s.var.extent);
        }
        emit_stmt(s.loop_body, depth + 1);
        loop_vars.pop_back();
        indent(depth);
        body += "}\n";
        break;
      }
      case StmtKind::Assign: {
        indent(depth);
        body += declaration_prefix(s.decl);
        body += fmt::format("s{} = ", s.scalar);
        put_expr(body, s.value, kAdd);
        body += ";\n";
        break;
      }
      case StmtKind::Store: {
        if (s.buffer == kInputBuffer) throw std::invalid_argument("emit_cpp: store into the input buffer");
        if (s.buffer >= 0 && std::size_t(s.buffer) < f.buffers.size() &&
            f.buffers[std::size_t(s.buffer)].role == BufferRole::Table)
          throw std::invalid_argument("emit_cpp: store into a constant table");
        std::string lhs = element(s.buffer, s.index, s.part);
        last_store_bytes[s.buffer] = prec == Precision::Double ? 8 : 4;
        indent(depth);
        body += lhs + " = ";
        put_expr(body, s.value, kAdd);
        body += ";\n";
        break;
      }
      case StmtKind::Dma: emit_dma(s, depth); break;
      case StmtKind::DmaWait:
        indent(depth);
        body += fmt::format("dma->wait({});\n", idx_text(s.dma.tag, 1, 0).s);
        break;
    }
  }

  // -- streamed loops (runtime/dma.h): one external_store per external buffer; x and y are
  // NAME_stores' parameters (memory or files), temporaries memory_stores
  std::set<int> dma_externals;
  bool in_dma = false, direct_xy = false;  // x or y read or written other than by a transfer

  void emit_dma(const StmtNode &s, int depth) {
    if (s.buffer < 0 || std::size_t(s.buffer) >= f.buffers.size() || s.dma.local < 0 ||
        std::size_t(s.dma.local) >= f.buffers.size() || f.buffers[std::size_t(s.dma.local)].role != BufferRole::Local)
      throw std::invalid_argument("emit_cpp: a DMA transfer needs an external and a local buffer");
    if (!s.dma.get && s.buffer == kInputBuffer) throw std::invalid_argument("emit_cpp: DMA put into the input buffer");
    dma_externals.insert(s.buffer);
    in_dma = true;
    std::string ext = "ext_" + buffer_ref(s.buffer);
    in_dma = false;
    const int64_t bytes = prec == Precision::Float ? 8 : 16;  // one complex
    // byte offsets pass 2^31 from 2^27 complex doubles on (the in-place 2^28 kernel): long arithmetic
    wide_lookups = true;
    const std::string offset = idx_text(s.index, bytes, 0).s;
    wide_lookups = false;
    std::string list = fmt::format("splgen::runtime::make_block_list({}, {}, {}, {})", offset, bytes * s.dma.stride,
                                   s.dma.count, bytes * s.dma.block);
    std::string local = pointer(s.dma.local, s.dma.local_index), tag = idx_text(s.dma.tag, 1, 0).s;
    indent(depth);
    if (s.dma.get) body += fmt::format("dma->get({}, {}, {}, {});\n", tag, local, ext, list);
    else body += fmt::format("dma->put({}, {}, {}, {});\n", tag, ext, list, local);
  }

  std::string dma_preamble() {
    std::string out;
    const char *bytes = prec == Precision::Float ? "8L" : "16L";
    for (int b : dma_externals)
      if (b != kInputBuffer && b != kOutputBuffer)
        out += fmt::format("  splgen::runtime::memory_store ext_{0}(static_cast<{1}void *>({0}), {2} * {3});\n",
                         buffer_names[std::size_t(b)], b == kInputBuffer ? "const " : "", bytes,
                         f.buffers[std::size_t(b)].size);
    return out;
  }

  // -- parallel regions (Function::workers > 1)
  bool in_region = false;
  std::string barrier;

  // Worker `worker` runs its contiguous block of the iterations.
  void emit_parallel_loop(const StmtNode &s, int depth) {
    loop_vars.emplace_back(s.var.id, false);
    std::string v = var_name(s.var.id);
    indent(depth);
    body += fmt::format("for (long {0} = {1}; {0} < {2}; ++{0}) {{\n", v, block_begin(s.var.extent), block_end(s.var.extent));
    emit_stmt(s.loop_body, depth + 1);
    loop_vars.pop_back();
    indent(depth);
    body += "}\n";
  }

  static void top_level(const Stmt &s, std::vector<Stmt> &out) {
    if (s->kind != StmtKind::Block) return out.push_back(s);
    for (const Stmt &t : s->body) top_level(t, out);
  }

  // The body inside the region: parallel loops shared out; runs of other statements done by
  // worker 0; a barrier between stages (none after the last: the region ends with one).
  void emit_region_body(const Stmt &whole, int depth) {
    std::vector<Stmt> stmts;
    top_level(whole, stmts);
    in_region = true;
    for (std::size_t i = 0; i < stmts.size();) {
      if (i > 0 && barrier.empty())
        throw std::invalid_argument("emit_cpp: an SPMD kernel (one rank's step) runs one parallel loop and nothing else");
      if (i > 0) {
        indent(depth);
        body += barrier + "\n";
      }
      if (stmts[i]->kind == StmtKind::For && stmts[i]->parallel) {
        emit_parallel_loop(*stmts[i++], depth);
        continue;
      }
      indent(depth);
      body += "if (worker == 0) {\n";
      for (; i < stmts.size() && !(stmts[i]->kind == StmtKind::For && stmts[i]->parallel); ++i)
        emit_stmt(stmts[i], depth + 1);
      indent(depth);
      body += "}\n";
    }
    in_region = false;
  }

  std::string declaration_prefix(ScalarDecl decl) const {
    switch (decl) {  // per-kind printing
      case ScalarDecl::Plain: return "";
      case ScalarDecl::Local: return real + " ";
      case ScalarDecl::ConstLocal: return "const " + real + " ";
      case ScalarDecl::Unscoped: break;
    }
    throw std::invalid_argument("emit_cpp: an assignment without a declaration decision");
  }

  // The straight-line statements of a vector loop's body, nested blocks flattened.
  static void straight_line(const Stmt &s, std::vector<const StmtNode *> &out) {
    if (s->kind == StmtKind::For) throw std::invalid_argument("emit_cpp: a vector loop body must be straight-line code");
    if (s->kind != StmtKind::Block) return out.push_back(s.get());
    for (const Stmt &t : s->body) straight_line(t, out);
  }

  void emit_vector_loop(const StmtNode &s, int depth) {
    if (isa == Isa::Scalar) throw std::invalid_argument("emit_cpp: a vector loop needs an ISA other than scalar");
    simd::VectorKind kind{prec, s.vector_width, has_fma(isa)};
    simd::VectorLoop loop{&s, {}};
    straight_line(s.loop_body, loop.statements);
    for (auto [buffer, bytes] : last_store_bytes)
      if (kind.bits() == 512 && bytes * 2 == kind.bits() / 8 && buffer_bytes(buffer) <= kStoreQueueBytes)
        loop.narrow_loads.insert(buffer);
    vector_kinds.emplace(kind.suffix(), kind);
    loop_vars.emplace_back(s.var.id, false);
    for (auto [table, lanes] : presplit)
      if (lanes == kind.lanes) loop.presplit.insert(table);
    loop.natural_order = lane_orders.natural_loops.count(&s) > 0;
    std::map<int, int> stored;
    body += simd::print_vector_loop(loop, kind, *this, depth, &stored);
    for (auto [buffer, bytes] : stored) last_store_bytes[buffer] = bytes;
    loop_vars.pop_back();
  }

  std::string run(const CppEmitOptions &options) {
    if (!is_c_identifier(f.name) || is_reserved_word(f.name))
      throw std::invalid_argument(fmt::format("emit_cpp: function name '{}' is not a C identifier", f.name));
    if (!f.body) throw std::invalid_argument("emit_cpp: function without a body");
    name_buffers();

    if (!f.scalars_scoped)
      throw std::invalid_argument("emit_cpp: declarations not scoped (run generator/lower/prepare_for_printing.h first)");
    const bool parallel = f.workers > 1;
    RegionText region = region_text(options.threading, f.workers, "  ", simd::target_attribute(isa));
    barrier = region.barrier;
    std::vector<bool> printed;
    // The tables whose layout splgen chooses: the printed ones, and in split kernels the computed
    // twiddles, which then need no permute in natural order (DFT(65536) --format split, AVX2
    // double: 0.72x -> 1.00x of the interleaved kernel). Interleaved kernels keep them
    // interleaved: presplit, DFT(65536) ran 0.95-0.98x as fast (Zen 3, hand harness, 5 runs).
    const bool split_kernel = f.buffers[kInputBuffer].split || f.buffers[kOutputBuffer].split;
    for (const Buffer &b : f.buffers)
      printed.push_back(b.role == BufferRole::Table && (!is_computed_table(b) || (split_kernel && computed_presplit(b))));
    presplit = simd::presplit_tables(f, printed);
    lane_orders = simd::plan_lane_orders(f, presplit);
    if (parallel) emit_region_body(f.body, 2);
    else emit_stmt(f.body, 1);

    std::string out;
    auto emit = std::back_inserter(out);
    for (const std::string &h : options.header_lines) out += comment_lines(h);
    bool heap = false, computed = false, diag_dft = false, diag_chirp = false;
    std::vector<std::optional<PowerLut>> lut_recipes;  // Rader's large permutations: computed
    std::vector<const char *> lut_types;                // each table's C type, one scan each
    for (const std::vector<int64_t> *t : luts) lut_recipes.push_back(computed_lut(*t)), lut_types.push_back(lut_type(*t));
    const bool computed_luts = std::any_of(lut_recipes.begin(), lut_recipes.end(), [](const auto &l) { return l.has_value(); });
    const bool streamed = f.dma_tags > 0;
    if (streamed && parallel) throw std::invalid_argument("emit_cpp: streamed loops in a parallel kernel are not built yet");
    for (std::size_t i = 2; i < f.buffers.size(); ++i) {
      if (buffer_used[i] && f.buffers[i].role == BufferRole::Local) heap = true;
      if (buffer_used[i] && f.buffers[i].role == BufferRole::Temp && f.buffers[i].size > kMaxStackTemp) heap = true;
      if (buffer_used[i] && is_computed_table(f.buffers[i])) computed = true;
      if (buffer_used[i] && is_computed_diag(f.buffers[i])) (needs_long_dft(f.buffers[i]) ? diag_dft : diag_chirp) = true;
    }
    if (!out.empty()) out += "\n";
    if (computed) out += "#include <cmath>\n";
    if (diag_dft) out += "#include <complex>\n#include <limits>\n#include <map>\n";
    if (diag_dft || diag_chirp) out += "#include <utility>\n";
    if (parallel) out += region.include;
    if (heap || computed || computed_luts) out += "#include <vector>\n";
    if (streamed) out += "\n#include <splgen/runtime/dma.h>\n";
    if (!vector_kinds.empty()) out += "#include <immintrin.h>\n";
    if (isa == Isa::Avx512 && !vector_kinds.empty())
      out += "\n// GCC 12 warns about _mm512_undefined_* inside its own avx512fintrin.h (GCC bug 105593).\n"
             "#if defined(__GNUC__) && !defined(__clang__)\n"
             "#pragma GCC diagnostic ignored \"-Wuninitialized\"\n"
             "#pragma GCC diagnostic ignored \"-Wmaybe-uninitialized\"\n"
             "#endif\n";
    if (heap || computed || computed_luts || parallel || streamed || !vector_kinds.empty()) out += "\n";
    for (auto &[suffix, kind] : vector_kinds) out += kind.helpers(simd::target_attribute(isa)) + "\n";
    if (split_kernel)
      for (auto &[suffix, kind] : vector_kinds) out += simd::split_helpers(kind, simd::target_attribute(isa)) + "\n";

    // file scope
    std::string file_scope;
    auto fs = std::back_inserter(file_scope);
    if (!const_defs.empty()) {
      for (auto &[name, lit] : const_defs) fmt::format_to(fs, "static constexpr {} {} = {};\n", real, name, lit);
    }
    for (std::size_t k = 0; k < luts.size(); ++k) {
      const std::vector<int64_t> &t = *luts[k];
      if (!file_scope.empty()) file_scope += "\n";
      if (lut_recipes[k]) {
        file_scope += computed_lut_table(fmt::format("lut{}", k), *lut_recipes[k], lut_types[k]);
        continue;
      }
      fmt::format_to(fs, "static const {} lut{}[{}] = {{", lut_types[k], k, t.size());
      for (std::size_t j = 0; j < t.size(); ++j) {
        file_scope += j % 16 == 0 ? "\n    " : " ";
        fmt::format_to(fs, "{}{}", t[j], j + 1 < t.size() ? "," : "");
      }
      file_scope += "\n};\n";
    }
    if (diag_dft || diag_chirp) {
      if (!file_scope.empty()) file_scope += "\n";
      file_scope += computed_diag_helpers(diag_dft, diag_chirp);
    }
    for (std::size_t i = 2; i < f.buffers.size(); ++i) {
      const Buffer &b = f.buffers[i];
      if (!buffer_used[i] || b.role != BufferRole::Table) continue;
      if (b.values.empty() && !is_computed_diag(b))
        throw std::invalid_argument(fmt::format("emit_cpp: table {} has no values", b.name));
      if (!file_scope.empty()) file_scope += "\n";
      if (is_computed_diag(b)) {
        file_scope += computed_diag_table(buffer_names[i], b, real);
        continue;
      }
      // a presplit table's lane order: the register kind's, or natural (simd/lane_orders.h)
      auto presplit_it = presplit.find(int(i));
      std::vector<int> order;
      if (presplit_it != presplit.end()) {
        order = simd::VectorKind{prec, presplit_it->second, false}.lane_order();
        if (lane_orders.natural_tables.count(int(i)))
          for (std::size_t l = 0; l < order.size(); ++l) order[l] = int(l);
      }
      if (is_computed_table(b)) {
        std::vector<int> place(order.size());  // entry l of a block at place[l]
        for (std::size_t k = 0; k < order.size(); ++k) place[std::size_t(order[k])] = int(k);
        file_scope += b.recipe.workers_per_rank > 1 ? computed_rank_slices(buffer_names[i], b, real)
                      : b.recipe.worker_stride > 0   ? computed_slice(buffer_names[i], b, real)
                                                     : computed_table(buffer_names[i], b, real, int(order.size()), place);
        continue;
      }
      if (auto it = presplit_it; it != presplit.end()) {
        const std::vector<double> t = simd::presplit_values(b.values, it->second, order);
        fmt::format_to(fs, "// blocks of {} entries: real parts, then imaginary parts, in register lane order\n", it->second);
        fmt::format_to(fs, "static const {} {}[{}] = {{", real, buffer_names[i], t.size());
        for (std::size_t j = 0; j < t.size(); ++j)
          fmt::format_to(fs, "{}{}{}", j % 4 == 0 ? "\n    " : " ", real_literal(t[j], prec), j + 1 < t.size() ? "," : "");
        file_scope += "\n};\n";
        continue;
      }
      fmt::format_to(fs, "static const {} {}[{}] = {{", real, buffer_names[i], 2 * b.values.size());
      for (std::size_t j = 0; j < b.values.size(); ++j) {
        file_scope += j % 2 == 0 ? "\n    " : " ";
        fmt::format_to(fs, "{}, {}{}", real_literal(b.values[j].real(), prec), real_literal(b.values[j].imag(), prec),
                       j + 1 < b.values.size() ? "," : "");
      }
      file_scope += "\n};\n";
    }
    // Constants and tables live in a namespace named after the kernel, with the kernel: several
    // generated files can be compiled as one translation unit (unity builds, search batches).
    const std::string detail = f.name + "_detail";

    const bool spmd = options.threading == Threading::Spmd;
    std::string plain = "extern \"C\" " + kernel_declaration(f.name, prec, isa, f.in_place, f.buffers[kOutputBuffer].split,
                                                             f.buffers[kInputBuffer].split);
    if (spmd) plain.insert(plain.size() - 1, ", const long worker");  // one rank's step: its rank
    if ((f.in_place && spmd) || (split_kernel && (streamed || spmd)))
      throw std::invalid_argument("emit_cpp: a distributed kernel in place, or a streamed or distributed one in split format");
    if (streamed && direct_xy)
      throw std::invalid_argument("emit_cpp: a streamed kernel reads or writes x or y other than by DMA transfers");
    const std::string with_engine = "extern \"C\" " + dma_kernel_declaration(f.name, prec, isa, f.in_place);
    const std::string signature = streamed ? "extern \"C\" " + stores_kernel_declaration(f.name, isa, f.in_place) : plain;
    if (streamed) out += plain + ";\n" + with_engine + ";\n";
    out += signature + ";\n\n";
    out += fmt::format("namespace {} {{\n\n", detail);
    if (!file_scope.empty()) out += file_scope + "\n";
    out += signature + " {\n";
    int heap_temps = 0;
    for (std::size_t i = 2; i < f.buffers.size(); ++i) {
      const Buffer &b = f.buffers[i];
      if (!buffer_used[i] || b.role != BufferRole::Temp) continue;
      if (b.size <= 0) throw std::invalid_argument(fmt::format("emit_cpp: temporary {} has size {}", b.name, b.size));
      // Per calling thread, kept between calls: no allocation, page faults or zeroing per call.
      // Workers of a parallel region share the caller's (one slice each where per worker).
      const int64_t copies = parallel && b.per_worker && !spmd ? f.workers : 1;
      const int64_t skew = b.size > kMaxStackTemp ? temp_skew(heap_temps++, prec) : 0;
      if (b.size > kMaxStackTemp)
        fmt::format_to(emit, "  static thread_local std::vector<{0}> {1}_storage({2});\n", real, buffer_names[i],
                       2 * b.size * copies + skew);
      // The pointer is taken here: inside the region the name of a thread_local would be
      // each worker thread's own (empty) vector.
      if (b.size > kMaxStackTemp)
        fmt::format_to(emit, "  {0} *const {1}{2} = {1}_storage.data(){3};\n", real, buffer_names[i],
                       copies == 1 ? "" : "_workers", skew ? fmt::format(" + {}", skew) : "");
      if (b.size <= kMaxStackTemp && !(parallel && b.per_worker && !spmd))
        fmt::format_to(emit, "  {} {}[{}];\n", real, buffer_names[i], 2 * b.size);
    }
    for (std::size_t i = 2; i < f.buffers.size(); ++i)  // local memory of streamed loops: allocated once per thread
      if (buffer_used[i] && f.buffers[i].role == BufferRole::Local)
        fmt::format_to(emit, "  static thread_local std::vector<{0}> {1}_storage({2});\n  {0} *const {1} = {1}_storage.data();\n",
                       real, buffer_names[i], 2 * f.buffers[i].size);
    if (streamed && f.in_place) {  // one store, x and y
      const int64_t bytes = (prec == Precision::Float ? 8 : 16) * f.buffers[kOutputBuffer].size;
      fmt::format_to(emit, "  if (ext_xy.size() < {0}UL)\n    throw std::length_error(\"{1}_stores: xy must hold {0} bytes, "
                     "not \" + std::to_string(ext_xy.size()));\n", bytes, f.name);
    } else if (streamed) {  // stores too small: one line, before any transfer (a file kernel's short input)
      const int64_t bytes = (prec == Precision::Float ? 8 : 16) * std::max(f.buffers[kInputBuffer].size, f.buffers[kOutputBuffer].size);
      fmt::format_to(emit, "  if (ext_x.size() < {0}UL || ext_y.size() < {0}UL)\n    throw std::length_error(\"{1}_stores: x and y "
                     "must hold {0} bytes, not \" + std::to_string(ext_x.size()) + \" and \" + std::to_string(ext_y.size()));\n",
                     bytes, f.name);
    }
    out += dma_preamble();
    for (std::size_t i = 2; i < f.buffers.size(); ++i)
      if (buffer_used[i] && is_computed_table(f.buffers[i]))
        fmt::format_to(emit, "  const {} *const {} = {}_values({});\n", real, buffer_names[i], buffer_names[i],
                       f.buffers[i].recipe.worker_stride > 0 ? "worker" : "");
    for (std::size_t k = 0; k < luts.size(); ++k)
      if (lut_recipes[k]) fmt::format_to(emit, "  const {0} *const lut{1} = lut{1}_values();\n", lut_types[k], k);
    for (const std::string &def : vconst_defs) out += "  " + def + "\n";
    const bool split = f.buffers[kOutputBuffer].split, split_x = f.buffers[kInputBuffer].split;
    const std::string &xname = buffer_names[kInputBuffer], &yname = buffer_names[kOutputBuffer];
    if (split_x && !f.in_place)  // an all-real or all-imaginary input leaves one array unread
      out += fmt::format("  (void){0}r;\n  (void){0}i;\n", xname);
    if (split) out += fmt::format("  (void){0}r;\n  (void){0}i;\n", yname);
    if (!split_x && !f.in_place && !buffer_used[kInputBuffer]) out += streamed ? "  (void)ext_x;\n" : "  (void)x;\n";
    // A real transform in place reads its x as a view of its own of the one buffer (reals where
    // y is complex, or the reverse; docs/transforms.md, "Layouts").
    if (f.in_place && !streamed && buffer_used[kInputBuffer]) out += fmt::format("  const {} *const x = xy;\n", real);
    if (!split && !buffer_used[kOutputBuffer]) out += streamed ? "  (void)ext_" + yname + ";\n" : "  (void)" + yname + ";\n";
    if (spmd && !parallel) out += "  (void)worker;\n";
    const std::string in = parallel ? "    " : "  ";
    if (parallel) {
      out += region.open;
      for (std::size_t i = 2; i < f.buffers.size(); ++i) {  // each worker's own temporaries
        const Buffer &b = f.buffers[i];
        if (!buffer_used[i] || b.role != BufferRole::Temp || !b.per_worker || spmd) continue;
        if (b.size > kMaxStackTemp)
          fmt::format_to(emit, "{0}{1} *const {2} = {2}_workers + {3}L * worker;\n", in, real, buffer_names[i], 2 * b.size);
        else
          fmt::format_to(emit, "{}{} {}[{}];\n", in, real, buffer_names[i], 2 * b.size);
      }
    }
    for (int scalar : f.hoisted_scalars) fmt::format_to(emit, "{}{} s{} = {};\n", in, real, scalar, real_literal(0, prec));
    out += body;
    if (parallel) out += region.close;
    out += "}\n";
    if (streamed && f.in_place) {
      const char *bytes = prec == Precision::Float ? "8L" : "16L";
      out += fmt::format("\n{} {{\n  splgen::runtime::memory_store ext_xy(static_cast<void *>(xy), {} * {});\n"
                         "  {}_stores(ext_xy, dma);\n}}\n", with_engine, bytes, f.buffers[kOutputBuffer].size, f.name);
      out += fmt::format("\n{} {{\n  {}_dma(xy, &splgen::runtime::thread_default_engine<splgen::runtime::{}>());\n}}\n",
                         plain, f.name, dma == DmaEngine::Sync ? "sync_engine" : "copy_thread_engine");
    } else if (streamed) {
      const char *bytes = prec == Precision::Float ? "8L" : "16L";
      out += fmt::format("\n{} {{\n  splgen::runtime::memory_store ext_x(static_cast<const void *>(x), {} * {});\n"
                         "  splgen::runtime::memory_store ext_y(static_cast<void *>(y), {} * {});\n"
                         "  {}_stores(ext_y, ext_x, dma);\n}}\n",
                         with_engine, bytes, f.buffers[kInputBuffer].size, bytes, f.buffers[kOutputBuffer].size, f.name);
      out += fmt::format("\n{} {{\n  {}_dma(y, x, &splgen::runtime::thread_default_engine<splgen::runtime::{}>());\n}}\n",
                         plain, f.name, dma == DmaEngine::Sync ? "sync_engine" : "copy_thread_engine");
    }
    out += fmt::format("\n}}  // namespace {}\n", detail);
    return out;
  }
};

}  // namespace

std::string kernel_declaration(const std::string &name, Precision precision, Isa isa, bool in_place, bool split) {
  return kernel_declaration(name, precision, isa, in_place, split, split);
}

std::string kernel_declaration(const std::string &name, Precision precision, Isa isa, bool in_place, bool split_y,
                               bool split_x) {
  const char *real = precision == Precision::Float ? "float" : "double";
  std::string attribute = simd::target_attribute(isa);
  const std::string y = split_y ? fmt::format("{0} *__restrict yr, {0} *__restrict yi", real) : fmt::format("{} *__restrict y", real);
  const std::string x = split_x ? fmt::format("const {0} *__restrict xr, const {0} *__restrict xi", real)
                                : fmt::format("const {} *__restrict x", real);
  std::string params = in_place ? split_y ? fmt::format("{0} *__restrict xyr, {0} *__restrict xyi", real)
                                          : fmt::format("{} *__restrict xy", real)
                                : y + ", " + x;
  return fmt::format("{}void {}({})", attribute.empty() ? "" : attribute + " ", name, params);
}

// NAME_dma(y, x, engine): a streamed kernel with the DMA engine it is to use.
std::string dma_kernel_declaration(const std::string &name, Precision precision, Isa isa, bool in_place) {
  std::string d = kernel_declaration(name + "_dma", precision, isa, in_place);
  return d.substr(0, d.size() - 1) + ", splgen::runtime::dma_engine *dma)";
}

// NAME_stores(y, x, engine): the streamed kernel on any external stores (memory, files);
// in place NAME_stores(xy, engine), one store.
std::string stores_kernel_declaration(const std::string &name, Isa isa, bool in_place) {
  const std::string attribute = simd::target_attribute(isa);
  return fmt::format("{}void {}_stores({}splgen::runtime::dma_engine *dma)", attribute.empty() ? "" : attribute + " ", name,
                     in_place ? "splgen::runtime::external_store &ext_xy, "
                              : "splgen::runtime::external_store &ext_y, splgen::runtime::external_store &ext_x, ");
}

std::string emit_header(const std::string &name, const CppEmitOptions &options, bool streamed) {
  if (!is_c_identifier(name) || is_reserved_word(name))
    throw std::invalid_argument(fmt::format("emit_header: function name '{}' is not a C identifier", name));
  std::string out;
  for (const std::string &h : options.header_lines) out += comment_lines(h);
  std::string guard = name + "_H";
  for (char &c : guard) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (guard.rfind("SPLGEN_", 0) != 0) guard = "SPLGEN_" + guard;
  out += fmt::format(
      "\n#ifndef {0}\n#define {0}\n\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n{1};\n\n"
      "#ifdef __cplusplus\n}}  // extern \"C\"\n#endif\n{2}\n#endif  // {0}\n",
      guard, kernel_declaration(name, options.precision, options.isa, options.in_place, options.split,
                                options.split_x.value_or(options.split)),
      streamed ? "\n#ifdef __cplusplus  // the streamed kernel with a DMA engine of <splgen/runtime/dma.h>\n"
                 "namespace splgen { namespace runtime { class dma_engine; class external_store; } }\nextern \"C\" " +
                     dma_kernel_declaration(name, options.precision, options.isa, options.in_place) + ";\nextern \"C\" " +
                     stores_kernel_declaration(name, options.isa, options.in_place) + ";\n#endif\n"
               : "");
  return out;
}

std::string cpp_comment_lines(const std::string &text) { return comment_lines(text); }
std::string cpp_real_literal(double v, Precision precision) { return real_literal(v, precision); }

std::string emit_cpp(const Function &f, const CppEmitOptions &options) {
  Emitter e(f, options.precision, options.isa);
  e.dma = options.dma;
  return e.run(options);
}

}  // namespace splgen::backends
