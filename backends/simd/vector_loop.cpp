#include "backends/simd/vector_loop.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "backends/simd/lane_step.h"
#include "backends/simd/split_helpers.h"
#include "generator/ir/loop_visitor.h"

namespace splgen::backends::simd {
namespace {

class LoadsIn : public LoopVisitor {
 public:
  std::vector<const ExprNode *> loads;

 protected:
  void visit_load(const Expr &e) override { loads.push_back(e.get()); }
};

// The loads of an expression, in order of appearance.
std::vector<const ExprNode *> loads_in(const Expr &e) {
  LoadsIn l;
  l.include(e);
  return l.loads;
}

class Printer {
 public:
  Printer(const VectorLoop &loop, const VectorKind &kind, ScalarNames &names, int depth)
      : loop_(loop), kind_(kind), names_(names), depth_(depth), var_(loop.loop->var),
        active_(is_masked(*loop.loop) ? int(var_.extent) : kind.lanes) {
    if (active_ < kind.lanes && kind.bits() != 512) throw std::invalid_argument("print_vector_loop: masks need 512-bit vectors");
    order_ = kind.lane_order();
    if (loop.natural_order) {
      check_natural_order();
      natural_ = true;
      for (int l = 0; l < kind.lanes; ++l) order_[std::size_t(l)] = l;
    }
  }

  std::string run() {
    for (const StmtNode *s : loop_.statements)
      if (s->kind == StmtKind::Assign) {
        ++assigns_[s->scalar];
        if (s->value->kind == ExprKind::Mul) mul_defs_[s->scalar] = s->value;
      }
    for (auto it = mul_defs_.begin(); it != mul_defs_.end();)
      it = assigns_[it->first] == 1 ? std::next(it) : mul_defs_.erase(it);
    find_groups();
    // Pass 1 decides which multiplications fuse into their users; pass 2 prints.
    for (const StmtNode *s : loop_.statements) count_uses(s->value), expr(s->value, true);
    for (const StmtNode *s : loop_.statements) statement(*s);
    flush_half_stores();
    flush_store_groups();
    std::string v = var_name(var_.id);
    std::string out = pad(depth_) + fmt::format("for (long {0} = 0; {0} < {1}; {0} += {2}) {{\n", v, var_.extent, kind_.lanes);
    if (masked_lanes_used_)
      out += pad(depth_ + 1) + fmt::format("alignas(64) {} {}[{}] = {{}};\n",
                                           kind_.precision == Precision::Double ? "double" : "float", kMaskedLanes, kind_.lanes);
    out += body_;
    out += pad(depth_) + "}\n";
    return out;
  }

 private:
  static std::string pad(int depth) { return std::string(std::size_t(depth) * 2, ' '); }
  void line(const std::string &s) { body_ += pad(depth_ + 1) + s + "\n"; }

  bool assigned_here(int scalar) const { return assigns_.count(scalar) > 0; }

  void count_uses(const Expr &e) {
    for (int s : scalars_read(e)) ++uses_[s];
  }

  // The multiplication an operand stands for, when it can fuse into an add/subtract.
  const ExprNode *fusable(const Expr &e) const {
    if (!kind_.fma) return nullptr;
    if (e->kind == ExprKind::Mul) return e.get();
    if (e->kind == ExprKind::Scalar) {
      auto it = mul_defs_.find(e->scalar);
      if (it != mul_defs_.end()) return it->second.get();
    }
    return nullptr;
  }

  void note_fused(const Expr &operand, bool counting) {
    if (counting && operand->kind == ExprKind::Scalar) ++fused_[operand->scalar];
  }

  // Pointers to the complex element `index` for each register lane, in register order
  // (register lane k computes iteration order_[k] of the group).
  // A masked-off lane's pointer is to kMaskedLanes, one register of scratch: what it reads is
  // never stored elsewhere, what it stores is never read (a masked contiguous load gives such a
  // lane zeros, not a copy of an active lane's data, so it must not store to real addresses).
  // A split buffer's pointers are into the array of `part`.
  std::vector<std::string> lane_pointers(int buffer, const Idx &index, int part = 0) {
    std::vector<std::string> out;
    for (int l : order_) {
      if (l >= active_) masked_lanes_used_ = true;
      Idx at = substitute(index, var_.id, Affine::var(var_) + l);
      out.push_back(l >= active_ ? kMaskedLanes : names_.split(buffer) ? names_.part_pointer(buffer, at, part) : names_.pointer(buffer, at));
    }
    return out;
  }

  // Consecutive iterations touch consecutive complex elements.
  // (base + var with a base of div/mod of outer loops: generator/lower/contiguous_runs.h)
  // (or lanes that share a quotient and count up a remainder: lane_step.h)
  bool contiguous(const Idx &index) const {
    return unit_stride(index, var_.id) || lane_step(index, var_.id, kind_.lanes) == int64_t(1);
  }

  bool narrow(int buffer) const { return kind_.bits() == 512 && loop_.narrow_loads.count(buffer) > 0; }

  // The narrowest store into each buffer, in bytes (VectorLoop, print_vector_loop).
  void stored(int buffer, int bytes) {
    auto it = store_bytes_.find(buffer);
    if (it == store_bytes_.end() || bytes < it->second) store_bytes_[buffer] = bytes;
  }
  int real_bytes() const { return kind_.precision == Precision::Double ? 8 : 4; }

  std::string load_call(const std::string &re, const std::string &im, int buffer, const Idx &index) {
    if (names_.split(buffer)) return fmt::format("{} = {}; {} = {};", re, split_load(buffer, index, 0), im, split_load(buffer, index, 1));
    if (contiguous(index) && active_ < kind_.lanes)
      return fmt::format("{}({}, {}, {}, {});", kind_.load_contiguous_masked_helper(), re, im, names_.pointer(buffer, index), active_);
    if (contiguous(index) && loop_.presplit.count(buffer)) {
      std::string p = names_.pointer(buffer, index);
      return fmt::format("{0} = {2}({3}); {1} = {2}({3} + {4});", re, im, kind_.op("loadu"), p, kind_.lanes);
    }
    if (contiguous(index))
      return fmt::format("{}({}, {}, {});", narrow(buffer) ? kind_.load_contiguous_halves_helper() : kind_.load_contiguous_helper(),
                         re, im, names_.pointer(buffer, index));
    return fmt::format("{}({}, {}, {});", kind_.load_helper(), re, im, join(lane_pointers(buffer, index)));
  }

  std::string store_call(int buffer, const Idx &index, const std::string &re, const std::string &im) {
    if (names_.split(buffer)) return split_store(buffer, index, 0, re) + next_line() + split_store(buffer, index, 1, im);
    // a whole register each when contiguous, else one complex element (two floats: 2 x 4 bytes)
    stored(buffer, contiguous(index) ? kind_.bits() / 8 : kind_.precision == Precision::Double ? 16 : 8);
    if (contiguous(index) && active_ < kind_.lanes)
      return fmt::format("{}({}, {}, {}, {});", kind_.store_contiguous_masked_helper(), names_.pointer(buffer, index), re, im, active_);
    if (contiguous(index))
      return fmt::format("{}({}, {}, {});", kind_.store_contiguous_helper(), names_.pointer(buffer, index), re, im);
    return fmt::format("{}({}, {}, {});", kind_.store_helper(), join(lane_pointers(buffer, index)), re, im);
  }

  // ---- split-format buffers (split_helpers.h): each part a register of its own ----
  std::string split_load(int buffer, const Idx &index, int part) {
    const std::string p = contiguous(index) ? names_.part_pointer(buffer, index, part) : "";
    if (contiguous(index) && active_ < kind_.lanes)
      return natural_ ? call("maskz_loadu", {lane_mask(), p}) : fmt::format("{}({}, {})", split_load_masked_helper(kind_), p, active_);
    if (contiguous(index)) return natural_ ? call("loadu", {p}) : fmt::format("{}({})", split_load_helper(kind_), p);
    std::vector<std::string> lanes;  // lane by lane, in register lane order
    for (int l : order_)
      lanes.push_back(l >= active_ ? "0" : names_.element(buffer, substitute(index, var_.id, Affine::var(var_) + l), part));
    return call("setr", lanes);
  }

  // Between the statements of one text printed by line().
  std::string next_line() const { return "\n" + pad(depth_ + 1); }

  // The statement(s) storing one part (text for line()).
  std::string split_store(int buffer, const Idx &index, int part, const std::string &value) {
    if (!contiguous(index)) return lanewise_store(buffer, index, part, value);
    stored(buffer, active_ < kind_.lanes ? real_bytes() : kind_.bits() / 8);
    std::string p = names_.part_pointer(buffer, index, part);
    if (active_ < kind_.lanes)
      return natural_ ? call("mask_storeu", {p, lane_mask(), value}) + ";"
                      : fmt::format("{}({}, {}, {});", split_store_masked_helper(kind_), p, value, active_);
    return natural_ ? call("storeu", {p, value}) + ";" : fmt::format("{}({}, {});", split_store_helper(kind_), p, value);
  }

  // The mask of the active lanes of a masked loop (in memory order: natural lane order).
  std::string lane_mask() const {
    return fmt::format("({})0x{:X}u", kind_.precision == Precision::Double ? "__mmask8" : "__mmask16", (1u << active_) - 1u);
  }

  // In natural order (lane_orders.h) no access may need the interleaved one: a lane-dependent
  // contiguous access of an interleaved buffer other than a presplit table.
  void check_natural_order() {
    auto interleaved = [&](int buffer, const Idx &index) {
      return uses_var(index, var_.id) && contiguous(index) && !names_.split(buffer) && !loop_.presplit.count(buffer);
    };
    for (const StmtNode *s : loop_.statements) {
      bool bad = s->kind == StmtKind::Store && interleaved(s->buffer, s->index);
      for (const ExprNode *l : loads_in(s->value)) bad = bad || interleaved(l->buffer, l->index);
      if (bad) throw std::logic_error("print_vector_loop: natural lane order with an interleaved contiguous access");
    }
  }

  // One part stored lane by lane through memory (the active lanes only; text for line()).
  std::string lanewise_store(int buffer, const Idx &index, int part, const std::string &value) {
    std::string real = kind_.precision == Precision::Double ? "double" : "float";
    std::string tmp = fmt::format("lanes{}", counter_++);
    std::string out = fmt::format("alignas({}) {} {}[{}];", kind_.bits() / 8, real, tmp, kind_.lanes);
    out += next_line() + fmt::format("{}({}, {});", kind_.op("store"), tmp, value);
    stored(buffer, real_bytes());
    for (int k = 0; k < kind_.lanes; ++k)
      if (order_[std::size_t(k)] < active_)
        out += next_line() + fmt::format("{} = {}[{}];",
                                         names_.element(buffer, substitute(index, var_.id, Affine::var(var_) + order_[std::size_t(k)]), part),
                                         tmp, k);
    return out;
  }

  static std::string join(const std::vector<std::string> &v) {
    std::string s;
    for (const std::string &t : v) s += (s.empty() ? "" : ", ") + t;
    return s;
  }

  std::string load(const ExprNode &e) {
    if (!uses_var(e.index, var_.id)) {  // the same element in every lane
      std::string key = fmt::format("u{}:{}:{}", e.buffer, to_string(e.index), e.part);
      auto it = loaded_.find(key);
      if (it != loaded_.end()) return it->second;
      std::string name = fmt::format("u{}", counter_++);
      line(fmt::format("const {} {} = {};", kind_.type(), name, kind_.broadcast(names_.element(e.buffer, e.index, e.part))));
      return loaded_[key] = name;
    }
    std::string key = fmt::format("{}:{}", e.buffer, to_string(e.index));
    auto it = loaded_.find(key);
    if (it == loaded_.end() && load_group_of_.count(key)) {
      load_group(groups_[load_group_of_[key]]);
      it = loaded_.find(key);
    }
    if (it == loaded_.end()) {
      int k = counter_++;
      std::string re = fmt::format("lr{}", k), im = fmt::format("li{}", k);
      line(fmt::format("{} {}, {};", kind_.type(), re, im));
      line(load_call(re, im, e.buffer, e.index));
      it = loaded_.emplace(key, re + "," + im).first;
    }
    std::size_t comma = it->second.find(',');
    return e.part == 0 ? it->second.substr(0, comma) : it->second.substr(comma + 1);
  }

  std::string call(const std::string &op, const std::vector<std::string> &args) {
    return kind_.op(op) + "(" + join(args) + ")";
  }

  // The vector expression for e; with counting, only records which multiplications fuse.
  std::string expr(const Expr &e, bool counting) {
    switch (e->kind) {  // per-kind printing (fused multiply-adds look at two levels)
      case ExprKind::Const: return counting ? "" : names_.vector_constant(e->value, kind_);
      case ExprKind::Load: return counting ? "" : load(*e);
      case ExprKind::Scalar: {
        std::string s = fmt::format("s{}", e->scalar);
        if (!assigned_here(e->scalar)) return kind_.broadcast(s);  // computed outside the loop
        auto a = alias_.find(e->scalar);
        return a != alias_.end() ? a->second : s;
      }
      case ExprKind::Neg: return kind_.negate(expr(e->a, counting));
      case ExprKind::Mul: return call("mul", {expr(e->a, counting), expr(e->b, counting)});
      case ExprKind::Add:
      case ExprKind::Sub: {
        bool add = e->kind == ExprKind::Add;
        // a + m1*m2 and m1*m2 + a: fmadd; a - m1*m2: fnmadd; m1*m2 - a: fmsub
        if (const ExprNode *m = fusable(e->b)) {
          note_fused(e->b, counting);
          return call(add ? "fmadd" : "fnmadd", {expr(m->a, counting), expr(m->b, counting), expr(e->a, counting)});
        }
        if (const ExprNode *m = fusable(e->a)) {
          note_fused(e->a, counting);
          return call(add ? "fmadd" : "fmsub", {expr(m->a, counting), expr(m->b, counting), expr(e->b, counting)});
        }
        return call(add ? "add" : "sub", {expr(e->a, counting), expr(e->b, counting)});
      }
    }
    throw std::logic_error("print_vector_loop: bad expression");
  }

  void statement(const StmtNode &s) {
    if (s.kind == StmtKind::Assign) {
      if (mul_defs_.count(s.scalar) && fused_[s.scalar] == uses_[s.scalar]) return;  // every use fused
      std::string value = expr(s.value, false);
      if (s.value->kind == ExprKind::Load && assigns_[s.scalar] == 1) {
        alias_[s.scalar] = value;  // a loaded register needs no copy
        return;
      }
      bool once = assigns_[s.scalar] == 1;
      if (!declared_.insert(s.scalar).second)
        line(fmt::format("s{} = {};", s.scalar, value));
      else
        line(fmt::format("{}{} s{} = {};", once ? "const " : "", kind_.type(), s.scalar, value));
      return;
    }
    if (s.kind != StmtKind::Store) throw std::logic_error("print_vector_loop: a vector loop body is straight-line code");
    std::string value = expr(s.value, false);
    std::string key = fmt::format("{}:{}", s.buffer, to_string(s.index));
    auto it = half_stores_.find(key);
    if (it == half_stores_.end() || it->second.part == s.part) {
      if (it != half_stores_.end()) flush(it->second);  // the same part twice: the first one goes out now
      std::string name = fmt::format("st{}", counter_++);
      line(fmt::format("const {} {} = {};", kind_.type(), name, value));
      half_stores_[key] = HalfStore{s.buffer, s.index, s.part, name};
      return;
    }
    const HalfStore &other = it->second;
    std::string re = other.part == 0 ? other.value : value, im = other.part == 0 ? value : other.value;
    half_stores_.erase(it);
    auto g = store_group_of_.find(key);
    if (g == store_group_of_.end()) {
      line(store_call(s.buffer, s.index, re, im));
      return;
    }
    Group &group = groups_[g->second];
    group.values[key] = {re, im};
    if (group.values.size() == group.members.size()) store_group(group), group.values.clear();
  }

  // ---- grouped accesses (VectorKind::group): G consecutive complex elements per lane ----
  struct Group {
    int buffer;
    std::vector<Idx> members;  // consecutive elements, lowest first
    std::map<std::string, std::pair<std::string, std::string>> values;  // stores ready: key -> re, im
  };

  std::string access_key(int buffer, const Idx &index) const { return fmt::format("{}:{}", buffer, to_string(index)); }

  // The elements per lane of a group: a whole register of interleaved complex elements, or of
  // the reals of each part of a split buffer.
  int group_size(int buffer) const { return names_.split(buffer) ? kind_.lanes : kind_.group(); }

  // Partitions the non-contiguous, lane-dependent accesses of one kind into runs of G
  // consecutive elements with the same lane stride (at least G, so lanes do not overlap).
  void partition(const std::map<std::string, std::pair<int, Idx>> &accesses, std::map<std::string, int> &group_of) {
    std::map<std::string, std::map<int64_t, Idx>> runs;  // buffer + linear part -> offset -> index
    std::map<std::string, int> buffer_of;
    for (const auto &[key, access] : accesses) {
      const Affine *a = as_affine(access.second);
      const int g = group_size(access.first);
      if (!a || g < 2) continue;
      int64_t stride = 0;
      for (auto &[v, c] : a->terms)
        if (v.id == var_.id) stride = c;
      if (stride > -g && stride < g) continue;
      Affine linear = *a;
      linear.c0 = 0;
      std::string run = fmt::format("{}:{}", access.first, to_string(linear));
      runs[run][a->c0] = access.second;
      buffer_of[run] = access.first;
    }
    for (auto &[run, by_offset] : runs) {
      const int g = group_size(buffer_of[run]);
      std::vector<std::pair<int64_t, Idx>> sorted(by_offset.begin(), by_offset.end());
      for (std::size_t i = 0; i + std::size_t(g) <= sorted.size();) {
        bool consecutive = sorted[i + std::size_t(g) - 1].first - sorted[i].first == g - 1;
        if (!consecutive) { ++i; continue; }
        Group group{buffer_of[run], {}, {}};
        for (int k = 0; k < g; ++k) {
          group.members.push_back(sorted[i + std::size_t(k)].second);
          group_of[access_key(group.buffer, group.members.back())] = int(groups_.size());
        }
        groups_.push_back(std::move(group));
        i += std::size_t(g);
      }
    }
  }

  void collect_loads(const Expr &e, std::map<std::string, std::pair<int, Idx>> &out) const {
    for (const ExprNode *l : loads_in(e))
      if (uses_var(l->index, var_.id) && !contiguous(l->index))
        out.emplace(access_key(l->buffer, l->index), std::make_pair(l->buffer, l->index));
  }

  void find_groups() {
    std::map<std::string, std::pair<int, Idx>> loads, stores;
    std::map<std::string, int> parts;  // key -> bit 1 re, bit 2 im; 4: a part twice
    for (const StmtNode *s : loop_.statements) {
      collect_loads(s->value, loads);
      if (s->kind != StmtKind::Store || !uses_var(s->index, var_.id) || contiguous(s->index)) continue;
      std::string key = access_key(s->buffer, s->index);
      int bit = s->part == 0 ? 1 : 2;
      parts[key] |= (parts[key] & bit) ? 4 : bit;
      stores.emplace(key, std::make_pair(s->buffer, s->index));
    }
    for (auto it = stores.begin(); it != stores.end();)
      it = parts[it->first] == 3 ? std::next(it) : stores.erase(it);  // whole complex elements, once
    partition(loads, load_group_of_);
    // AVX-512 double: where a lane's stores are a single group (I(m) (x) DFT(4)), its 8x8
    // transpose (24 shuffles, one port on Intel) cost more than per-element stores: DFT(60)
    // 1.19-1.46x and DFT(100) 1.23-1.34x faster without, 36 0.91-0.93x, 9 other sizes +-2%
    // (Xeon, interleaved A/B, medians; docs/bench/README.md).
    bool single_group = stores.size() <= std::size_t(kind_.group());
    if (!(kind_.bits() == 512 && kind_.precision == Precision::Double && single_group)) partition(stores, store_group_of_);
  }

  void load_group(const Group &group) {
    if (names_.split(group.buffer)) return load_split_group(group);
    std::string regs;
    for (const Idx &m : group.members) {
      int k = counter_++;
      std::string re = fmt::format("lr{}", k), im = fmt::format("li{}", k);
      line(fmt::format("{} {}, {};", kind_.type(), re, im));
      regs += fmt::format("{}, {}, ", re, im);
      loaded_.emplace(access_key(group.buffer, m), re + "," + im);
    }
    line(fmt::format("{}({}{});", narrow(group.buffer) ? kind_.load_group_halves_helper() : kind_.load_group_helper(), regs,
                     join(lane_pointers(group.buffer, group.members.front()))));
  }

  void load_split_group(const Group &group) {
    std::string regs[2];
    for (const Idx &m : group.members) {
      int k = counter_++;
      std::string re = fmt::format("lr{}", k), im = fmt::format("li{}", k);
      line(fmt::format("{} {}, {};", kind_.type(), re, im));
      regs[0] += re + ", ", regs[1] += im + ", ";
      loaded_.emplace(access_key(group.buffer, m), re + "," + im);
    }
    for (int part : {0, 1})
      line(fmt::format("{}({}{});", split_load_group_helper(kind_), regs[part], join(lane_pointers(group.buffer, group.members.front(), part))));
  }

  void store_group(const Group &group) {
    stored(group.buffer, kind_.bits() / 8);
    if (names_.split(group.buffer)) {
      for (int part : {0, 1}) {
        std::string regs;
        for (const Idx &m : group.members) {
          const auto &[re, im] = group.values.at(access_key(group.buffer, m));
          regs += ", " + (part == 0 ? re : im);
        }
        line(fmt::format("{}({}{});", split_store_group_helper(kind_), join(lane_pointers(group.buffer, group.members.front(), part)), regs));
      }
      return;
    }
    std::string regs;
    for (const Idx &m : group.members) {
      const auto &[re, im] = group.values.at(access_key(group.buffer, m));
      regs += fmt::format(", {}, {}", re, im);
    }
    line(fmt::format("{}({}{});", kind_.store_group_helper(), join(lane_pointers(group.buffer, group.members.front())), regs));
  }

  // Groups whose members were not all stored (cannot happen when every part is stored once).
  void flush_store_groups() {
    for (Group &group : groups_)
      for (auto &[key, v] : group.values)
        for (const Idx &m : group.members)
          if (access_key(group.buffer, m) == key) line(store_call(group.buffer, m, v.first, v.second));
  }

  struct HalfStore {
    int buffer;
    Idx index;
    int part;
    std::string value;
  };

  // A real or imaginary part stored without its partner: lane by lane through memory.
  // (A split buffer's part alone is still a whole register where contiguous.)
  void flush(const HalfStore &h) {
    line(names_.split(h.buffer) ? split_store(h.buffer, h.index, h.part, h.value) : lanewise_store(h.buffer, h.index, h.part, h.value));
  }

  void flush_half_stores() {
    for (auto &[key, h] : half_stores_) flush(h);
    half_stores_.clear();
  }

  const VectorLoop &loop_;
  const VectorKind &kind_;
  ScalarNames &names_;
  int depth_;
  LoopVar var_;
  int active_;  // lanes that run: all but in a masked loop
  std::vector<int> order_;  // register lane k computes iteration order_[k] of the group
  bool natural_ = false;    // order_ is 0, 1, 2, ...
  bool masked_lanes_used_ = false;
  static constexpr const char *kMaskedLanes = "masked_lanes";
  std::string body_;
  int counter_ = 0;
  std::map<int, int> assigns_, uses_, fused_;
  std::map<int, Expr> mul_defs_;
  std::map<int, std::string> alias_;
  std::map<std::string, std::string> loaded_;
  std::map<std::string, HalfStore> half_stores_;
  std::vector<Group> groups_;
  std::map<std::string, int> load_group_of_, store_group_of_;
  std::set<int> declared_;

 public:
  std::map<int, int> store_bytes_;
};

}  // namespace

std::string print_vector_loop(const VectorLoop &loop, const VectorKind &kind, ScalarNames &names, int depth,
                              std::map<int, int> *store_bytes) {
  if (!loop.loop || loop.loop->kind != StmtKind::For || loop.loop->vector_width != kind.lanes)
    throw std::invalid_argument("print_vector_loop: not a vector loop of this width");
  Printer printer(loop, kind, names, depth);
  std::string text = printer.run();
  if (store_bytes)
    for (auto [buffer, bytes] : printer.store_bytes_) {
      auto it = store_bytes->find(buffer);
      if (it == store_bytes->end() || bytes < it->second) (*store_bytes)[buffer] = bytes;
    }
  return text;
}

}  // namespace splgen::backends::simd
