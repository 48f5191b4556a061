#include "generator/lower/vectorize_loops.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "generator/ir/loop_visitor.h"

namespace splgen::lower {
namespace {

// ---- reading the loop IR ---------------------------------------------------------------

class CountScalarReads : public LoopVisitor {
 public:
  explicit CountScalarReads(std::map<int, int> &reads) : reads_(reads) {}

 protected:
  void visit_scalar(const Expr &e) override { ++reads_[e->scalar]; }
  void visit_load(const Expr &) override {}  // indices read no scalars

 private:
  std::map<int, int> &reads_;
};

void count_scalar_reads(const Stmt &s, std::map<int, int> &reads) { CountScalarReads(reads).include(s); }

class CollectLoads : public LoopVisitor {
 public:
  explicit CollectLoads(std::vector<const ExprNode *> &out) : out_(out) {}

 protected:
  void visit_load(const Expr &e) override { out_.push_back(e.get()); }

 private:
  std::vector<const ExprNode *> &out_;
};

void collect_loads(const Expr &e, std::vector<const ExprNode *> &out) { CollectLoads(out).include(e); }

// ---- legality -------------------------------------------------------------------------------

// The part of an affine index that does not depend on var, and var's coefficient.
std::pair<Affine, int64_t> split_var(const Affine &a, int var) {
  Affine rest = Affine::constant(a.c0);
  int64_t coeff = 0;
  for (auto &[v, c] : a.terms) {
    if (v.id == var)
      coeff = c;
    else
      rest = rest + Affine::var(v, c);
  }
  return {rest, coeff};
}

// An index as affine + terms that do not use var (a streamed loop's slot, (k % B) chunk, in
// the steady state), the latter as text: two indices with equal text differ by their affine
// parts. Nothing when a non-affine term uses var.
std::optional<std::pair<Affine, std::string>> split_invariant(const Idx &x, int var) {
  if (const Affine *a = as_affine(x)) return std::pair{*a, std::string()};
  if (x->kind == IdxKind::Add) {
    auto l = split_invariant(x->a, var), r = split_invariant(x->b, var);
    if (!l || !r) return std::nullopt;
    return std::pair{l->first + r->first, l->second + "+" + r->second};
  }
  if (uses_var(x, var)) return std::nullopt;
  return std::pair{Affine::constant(0), to_string(x)};
}

// Whether a*j + c never equals b*i for iterations i < j < min(i + width, extent): no lane reads
// (a) what an earlier lane of its group writes (b), by enumeration (the extents are at most
// the half spectrum).
bool distinct_across_lanes(int64_t a, int64_t b, int64_t c, int64_t extent, int width) {
  for (int64_t i = 0; i < extent; ++i)
    for (int64_t j = i + 1; j < std::min(extent, i + width); ++j)
      if (a * j + c == b * i) return false;
  return true;
}

// Stores of one buffer with different coefficients along var: a later statement's store in an
// earlier lane must not hit what an earlier statement stores in a later lane (in lockstep the
// later statement wins, one after another the later iteration does).
bool stores_keep_order(const std::map<int, std::vector<const StmtNode *>> &stores, int var, int64_t extent,
                       int width) {
  for (auto &[buffer, list] : stores)
    for (std::size_t s1 = 0; s1 < list.size(); ++s1)
      for (std::size_t s2 = s1 + 1; s2 < list.size(); ++s2) {
        const Affine *a1 = as_affine(list[s1]->index), *a2 = as_affine(list[s2]->index);
        if (!a1 || !a2) continue;  // as before: only differing coefficients are checked here
        auto [r1, c1] = split_var(*a1, var);
        auto [r2, c2] = split_var(*a2, var);
        if (c1 == c2) continue;  // as before: the coefficients' own check
        Affine diff = r1 + r2 * -1;
        // statement 1 in lane j, statement 2 in lane i < j: c1*j + r1 != c2*i + r2
        if (!diff.is_constant() || !distinct_across_lanes(c1, c2, diff.c0, extent, width)) return false;
      }
  return true;
}

// Whether running the straight-line body `width` iterations at a time in lockstep gives the
// same result as running the iterations one after another. Conservative: every load of a
// buffer the body stores into must precede those stores and must never read what an earlier
// lane of the same group writes.
bool lockstep_safe(const std::vector<Stmt> &body, int var, int64_t extent, int width,
                   const std::map<int, int> &reads_outside, const std::set<int> &real_buffers) {
  std::map<int, std::vector<const StmtNode *>> stores;  // buffer -> stores so far
  std::vector<std::pair<const ExprNode *, std::size_t>> loads;
  for (const Stmt &s : body) {
    if (s->kind != StmtKind::Assign && s->kind != StmtKind::Store) return false;  // loops, blocks, transfers
    if (s->kind == StmtKind::Assign && (!s->declare || reads_outside.count(s->scalar))) return false;
    std::vector<const ExprNode *> ls;
    collect_loads(s->value, ls);
    if (s->kind == StmtKind::Store && real_buffers.count(s->buffer)) return false;  // vectors are of complex elements
    for (const ExprNode *l : ls)
      if (stores.count(l->buffer) || real_buffers.count(l->buffer)) return false;  // a load after a store to the same buffer
    for (const ExprNode *l : ls) loads.emplace_back(l, 0);
    if (s->kind == StmtKind::Store) stores[s->buffer].push_back(s.get());
  }
  for (auto &[load, statement] : loads) {
    auto it = stores.find(load->buffer);
    if (it == stores.end()) continue;
    const auto la = split_invariant(load->index, var);
    if (!la) return false;
    auto [lrest, lc] = split_var(la->first, var);
    for (const StmtNode *st : it->second) {
      const auto sa = split_invariant(st->index, var);
      if (!sa || sa->second != la->second) return false;
      auto [srest, sc] = split_var(sa->first, var);
      Affine diff = srest + lrest * -1;
      if (!diff.is_constant()) return false;
      if (sc != lc) {  // the pair loop of a real DFT's post-pass: k read and written, m-k too
        if (!distinct_across_lanes(lc, sc, -diff.c0, extent, width)) return false;
        continue;
      }
      // lane i writes sc*(b+i) + srest, lane j > i reads lc*(b+j) + lrest
      for (int d = 1; d < width; ++d)
        if (sc * -d + diff.c0 == 0) return false;
    }
  }
  return stores_keep_order(stores, var, extent, width);
}

// ---- the pass ---------------------------------------------------------------------------------

class Vectorizer : public LoopMutator {
 public:
  Vectorizer(const std::vector<int> &widths, int masked_width, const VectorGroupCosts &costs, int next_var,
             std::map<int, int> total_reads, std::set<int> real_buffers)
      : widths_(widths), masked_width_(masked_width), next_var_(next_var), costs_(costs),
        total_reads_(std::move(total_reads)), real_buffers_(std::move(real_buffers)) {}

 protected:
  Stmt mutate_for(const Stmt &s) override {
    if (s->vector_width == 1 && !s->parallel && innermost(s->loop_body)) {
      if (auto v = vectorize(s->var, s->loop_body)) return *v;
      return s;
    }
    return LoopMutator::mutate_for(s);
  }
  Stmt mutate_assign(const Stmt &s) override { return s; }
  Stmt mutate_store(const Stmt &s) override { return s; }

 private:
  static bool innermost(const Stmt &body) {
    for (const Stmt &t : statements_of(body))
      if (t->kind == StmtKind::For) return false;
    return true;
  }

  // One masked group of masked_width_ lanes for `extent` iterations: two or more that narrower
  // vectors would not cover without a scalar tail. Where they do (AVX-512 double 6 = 4 + 2), they
  // are faster: DFT(24) took 0.88-0.92x the time masked (Xeon, interleaved A/B, medians).
  bool runs_masked(int64_t extent) const {
    return masked_width_ > 1 && extent >= 2 && extent < masked_width_ && extent % widths_.back() != 0;
  }

  std::optional<Stmt> vectorize(const LoopVar &var, const Stmt &body) {
    std::map<int, int> inside;
    count_scalar_reads(body, inside);
    std::map<int, int> outside;
    for (auto &[scalar, n] : total_reads_)
      if (n > inside[scalar]) outside[scalar] = n - inside[scalar];
    if (runs_masked(var.extent)) {
      if (!lockstep_safe(statements_of(body), var.id, var.extent, int(var.extent), outside, real_buffers_)) return std::nullopt;
      return make_vector_for(var, body, masked_width_);
    }
    if (masked_width_ > 0) return vectorize_greedy(var, body, outside);
    Plan plan = plan_groups(var.extent, body);
    if (plan.full.empty() && plan.overlap == 0) return std::nullopt;
    int widest = plan.full.empty() ? plan.overlap : plan.full.front().first;
    if (plan.overlap > widest) widest = plan.overlap;
    if (!lockstep_safe(statements_of(body), var.id, var.extent, widest, outside, real_buffers_)) return std::nullopt;

    std::vector<Stmt> parts;
    int64_t start = 0;
    for (auto &[width, count] : plan.full) {
      int64_t n = int64_t(width) * count;
      if (start == 0 && n == var.extent) return make_vector_for(var, body, width);
      LoopVar part{next_var_++, n};
      parts.push_back(make_vector_for(part, substitute(body, var.id, Affine::var(part) + start), width));
      start += n;
    }
    if (plan.overlap > 0) {  // the last overlap lanes, recomputing some of the iterations before them
      LoopVar part{next_var_++, plan.overlap};
      parts.push_back(
          make_vector_for(part, substitute(body, var.id, Affine::var(part) + (var.extent - plan.overlap)), plan.overlap));
    } else if (start < var.extent) {
      LoopVar part{next_var_++, var.extent - start};
      parts.push_back(make_for(part, substitute(body, var.id, Affine::var(part) + start)));
    }
    return make_block(std::move(parts));
  }

  // The widest width that fits, the rest of the iterations again (with --masked-remainders).
  std::optional<Stmt> vectorize_greedy(const LoopVar &var, const Stmt &body, const std::map<int, int> &outside) {
    auto it = std::find_if(widths_.begin(), widths_.end(), [&](int w) { return w > 1 && w <= var.extent; });
    if (it == widths_.end()) return std::nullopt;
    int width = *it;
    if (!lockstep_safe(statements_of(body), var.id, var.extent, width, outside, real_buffers_)) return std::nullopt;
    int64_t main = var.extent - var.extent % width;
    if (main == var.extent) return make_vector_for(var, body, width);
    // The last iterations: var = main + r, 0 <= r < extent - main.
    LoopVar rest{next_var_++, var.extent - main};
    Stmt rest_body = substitute(body, var.id, Affine::var(rest) + main);
    Stmt rest_loop = make_for(rest, rest_body);
    if (auto v = vectorize(rest, rest_body)) rest_loop = *v;
    LoopVar head{var.id, main};
    return make_block({make_vector_for(head, body, width), rest_loop});
  }

  // How the iterations of a loop split into vector groups: full groups (width, count), widest
  // first, then either a scalar tail or one group of `overlap` lanes ending at the extent.
  struct Plan {
    std::vector<std::pair<int, int64_t>> full;
    int overlap = 0;
  };

  // The cost of one group of `width` real lanes, in scalar iterations of the body (scalar: 1).
  double group_cost(int width) const {
    if (width <= 1) return costs_.scalar;
    int units = width / widths_.back();  // 128-bit registers per vector
    return units <= 1 ? costs_.v128 : units == 2 ? costs_.v256 : costs_.v512;
  }

  // The cheapest decomposition by group_cost; ties keep the wider groups (the former greedy rule).
  Plan plan_groups(int64_t extent, const Stmt &body) const {
    std::vector<int> ws;
    for (int w : widths_)
      if (w > 1) ws.push_back(w);
    std::vector<double> best(std::size_t(extent) + 1, 0.0);
    std::vector<int> first(std::size_t(extent) + 1, 1);
    for (int64_t e = 1; e <= extent; ++e) {
      best[e] = -1;
      for (int w : ws)  // widest first: a tie keeps the wider
        if (w <= e && (best[e] < 0 || best[e - w] + group_cost(w) < best[e] - 1e-9)) {
          best[e] = best[e - w] + group_cost(w);
          first[e] = w;
        }
      if (best[e] < 0 || best[e - 1] + group_cost(1) < best[e] - 1e-9) {
        best[e] = best[e - 1] + group_cost(1);
        first[e] = 1;
      }
    }
    // With an overlapped last group: full groups up to e, then one group of w over [extent - w, extent).
    double cost = best[extent];
    int64_t split = extent;
    int overlap = 0;
    if (overlap_allowed(body))
      for (int w : ws)
        if (w / widths_.back() * 128 <= costs_.overlap_max_bits)
        for (int64_t e = std::max<int64_t>(0, extent - w + 1); e < extent && w <= extent; ++e)
          if (best[e] + group_cost(w) < cost - 1e-9) {
            cost = best[e] + group_cost(w);
            split = e;
            overlap = w;
          }
    Plan plan;
    plan.overlap = overlap;
    std::map<int, int64_t, std::greater<int>> counts;
    for (int64_t e = split; e > 0 && first[e] > 1;) {
      ++counts[first[e]];
      e -= first[e];
    }
    for (auto &[w, c] : counts) plan.full.emplace_back(w, c);
    return plan;
  }

  // Recomputing iterations is harmless where the body reads no buffer it stores into.
  bool overlap_allowed(const Stmt &body) const {
    if (costs_.overlap_max_bits <= 0) return false;
    std::set<int> stored;
    std::vector<const ExprNode *> loads;
    for (const Stmt &t : statements_of(body)) {
      if (t->kind == StmtKind::Store) stored.insert(t->buffer);
      if (t->kind == StmtKind::Assign || t->kind == StmtKind::Store) collect_loads(t->value, loads);
    }
    for (const ExprNode *l : loads)
      if (stored.count(l->buffer)) return false;
    return true;
  }

  const std::vector<int> &widths_;
  int masked_width_;
  int next_var_;
  VectorGroupCosts costs_;
  std::map<int, int> total_reads_;
  std::set<int> real_buffers_;
};

}  // namespace

Function vectorize_loops(const Function &f, const std::vector<int> &widths, int masked_width,
                         const VectorGroupCosts &costs) {
  if (widths.empty() || !f.body) return f;
  std::map<int, int> reads;
  count_scalar_reads(f.body, reads);
  std::set<int> real_buffers;  // no imaginary parts (split buffers have both, in two arrays)
  for (const Buffer &b : f.buffers)
    if (b.real) real_buffers.insert(b.id);
  Vectorizer v(widths, masked_width, costs, max_var_id(f.body) + 1, std::move(reads), std::move(real_buffers));
  Function out = f;
  out.body = v.mutate(f.body);
  return out;
}

}  // namespace splgen::lower
