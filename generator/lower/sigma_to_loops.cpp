#include "generator/lower/sigma_to_loops.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>

#include "generator/lower/codelet.h"
#include "generator/lower/dma_transfers.h"
#include "generator/lower/fresh_scalars.h"
#include "generator/lower/grows_in_place.h"
#include "generator/lower/packed_io.h"
#include "generator/lower/real_codelet.h"
#include "generator/ir/loop_visitor.h"

namespace splgen::lower {

namespace {

// Below this many points an intermediate stays in a temporary even where the last stage
// could grow in place in the output: a small local array lives in registers (RDFT(16): 0.77x
// in y, 0.95x through a temporary; RDFT(64): 1.20x in y, 0.89x; one run each, Zen 3 AVX2).
constexpr int64_t kGrowInPlaceMin = 16;
// Tuning knobs: tables of powers w_N^e up to this many entries are stored whole; beyond, w^e
// is the product of two tables of about sqrt(N) entries each.
constexpr int64_t kDirectTwiddleMax = 4096;
// Twiddle diagonals T(N, n, k) up to this size are one table in diagonal order (vector loads,
// no index arithmetic; backends compute large ones at run time): 2^22 entries are 64 MiB.
constexpr int64_t kDiagonalTwiddleMax = int64_t(1) << 22;

struct Access {
  int buffer;
  IndexFn fn;  // local element index -> buffer element index
  Idx offset;  // added to fn's value (a slot of a streamed loop's local buffer); null: 0
};

Access through(const Access &a, const IndexFn &f) { return {a.buffer, compose(a.fn, f), a.offset}; }

Idx address(const Access &a, const Idx &i) {
  Idx at = apply_index(a.fn, i);
  return a.offset ? idx_add(at, a.offset) : at;
}

bool is_unrolled_kernel(const Spl &leaf) {
  if (leaf->kind == SplKind::RealTransform) return leaf->rows * leaf->cols <= kRealCodeletEntries;
  if (leaf->kind == SplKind::WideDense) return true;  // small blocks of the real rules, by construction
  return leaf->kind == SplKind::DFT && is_codelet_size(leaf->a);
}

// ---- footprints: which positions a node reads or writes, for given loop variable values ----
// A node that is not a gather (scatter) reads (writes) its whole input (output).

void collect_vars(const IndexFn &f, std::map<int, int64_t> &vars) {
  if (!f) return;
  for (const auto &[v, c] : f->base.terms) vars[v.id] = v.extent;
  collect_vars(f->f, vars);
  collect_vars(f->g, vars);
}

// Loop variables the index functions of s use that s does not bind, with their extents.
void free_vars(const Sigma &s, std::map<int, int64_t> &vars, std::set<int> &bound) {
  if (s->kind == SigmaKind::Sum) bound.insert(s->var.id);
  if (s->kind == SigmaKind::Gather || s->kind == SigmaKind::Scatter) {
    std::map<int, int64_t> used;
    collect_vars(s->fn, used);
    for (const auto &[id, extent] : used)
      if (!bound.count(id)) vars[id] = extent;
  }
  for (const Sigma &c : s->children) free_vars(c, vars, bound);
  if (s->kind == SigmaKind::Sum) bound.erase(s->var.id);
}

// Appends the positions s writes (writes) or reads (!writes) to out; false past `budget`.
bool footprint(const Sigma &s, bool writes, Env &env, std::vector<int64_t> &out, int64_t &budget) {
  SigmaKind access = writes ? SigmaKind::Scatter : SigmaKind::Gather;
  switch (s->kind) {
    case SigmaKind::Sum: {
      for (int64_t v = 0; v < s->var.extent; ++v) {
        env[s->var.id] = v;
        if (!footprint(s->children.front(), writes, env, out, budget)) return false;
      }
      env.erase(s->var.id);
      return true;
    }
    case SigmaKind::SumList:
      for (const Sigma &t : s->children)
        if (!footprint(t, writes, env, out, budget)) return false;
      return true;
    case SigmaKind::Compose:
      return footprint(writes ? s->children.front() : s->children.back(), writes, env, out, budget);
    default:
      if (s->kind == access) {
        if ((budget -= s->fn->domain) < 0) return false;
        std::vector<int64_t> points(std::size_t(s->fn->domain));
        std::iota(points.begin(), points.end(), int64_t(0));
        eval_each(s->fn, points, env);
        out.insert(out.end(), points.begin(), points.end());
      } else {
        int64_t n = writes ? s->rows : s->cols;
        if ((budget -= n) < 0) return false;
        for (int64_t i = 0; i < n; ++i) out.push_back(i);
      }
      return true;
  }
}

// Whether two lists hold the same positions, each as often. Counted in a table over their
// range, reused from one comparison to the next (sorting both was a fifth of the generation
// time of DFT(2^20)); sorted where the range is too large or a position repeats 255 times.
class PositionMatcher {
 public:
  bool same(std::vector<int64_t> &a, std::vector<int64_t> &b) {
    if (a.size() != b.size()) return false;
    if (a.empty()) return true;
    auto [lo, hi] = std::minmax_element(a.begin(), a.end());
    const int64_t first = *lo, range = *hi - *lo + 1;
    if (range > kMaxRange) return sorted_equal(a, b);
    if (count_.size() < std::size_t(range)) count_.resize(std::size_t(range), 0);
    bool saturated = false;
    for (int64_t p : a) saturated |= ++count_[std::size_t(p - first)] == 255;
    bool equal = !saturated;
    for (std::size_t i = 0; equal && i < b.size(); ++i) {  // equal sizes: no count below zero means equal
      const int64_t p = b[i] - first;
      equal = p >= 0 && p < range && count_[std::size_t(p)]-- > 0;
      if (!equal && p >= 0 && p < range) ++count_[std::size_t(p)];
    }
    for (int64_t p : a) count_[std::size_t(p - first)] = 0;  // clean for the next comparison
    return saturated ? sorted_equal(a, b) : equal;
  }

 private:
  static constexpr int64_t kMaxRange = int64_t(1) << 26;
  static bool sorted_equal(std::vector<int64_t> &a, std::vector<int64_t> &b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
  }
  std::vector<uint8_t> count_;
};

// True when, for every value of the loop variables around it, `producer` (applied last)
// writes exactly the positions `consumer` (applied first) reads: stages between them may
// then run in place through a local temporary. Checked by enumeration (a few times N work
// for the formulas the generator makes); beyond kFootprintBudget positions, false.
bool same_footprint(const Sigma &whole, const Sigma &producer, const Sigma &consumer) {
  constexpr int64_t kFootprintBudget = int64_t(1) << 25;
  std::map<int, int64_t> vars;
  std::set<int> bound;
  free_vars(whole, vars, bound);
  std::vector<std::pair<int, int64_t>> free(vars.begin(), vars.end());
  int64_t budget = kFootprintBudget;
  PositionMatcher matcher;
  Env env;
  for (const auto &[id, extent] : free) env[id] = 0;
  while (true) {
    std::vector<int64_t> w, r;
    if (!footprint(producer, true, env, w, budget) || !footprint(consumer, false, env, r, budget)) return false;
    if (!matcher.same(w, r)) return false;
    std::size_t k = 0;  // next assignment of the free variables
    for (; k < free.size(); ++k) {
      if (++env[free[k].first] < free[k].second) break;
      env[free[k].first] = 0;
    }
    if (k == free.size()) return true;
  }
}

// in_place_safe's answers by node. The lowering of a chain asks about its stages, and then
// that of each stage about the stages inside it again, each time enumerating their positions:
// gen "DFT(1048127)" (Bluestein's two DFT(2^20) inside Rader) took 0.79 s of CPU without the
// memo, 0.55 s with it (Zen 3, loaded). The nodes are kept, so no other takes their addresses.
using InPlaceMemo = std::map<Sigma, bool>;
bool check_in_place(const Sigma &s, InPlaceMemo &memo);

// True when running s with input and output in the same place is correct: every location
// is read before it is written.
bool in_place_safe(const Sigma &s, InPlaceMemo &memo) {
  if (auto it = memo.find(s); it != memo.end()) return it->second;
  const bool safe = check_in_place(s, memo);
  memo.emplace(s, safe);
  return safe;
}

bool check_in_place(const Sigma &s, InPlaceMemo &memo) {
  switch (s->kind) {
    case SigmaKind::Kernel: return is_unrolled_kernel(s->source) && s->rows == s->cols;
    case SigmaKind::Diag: return true;
    case SigmaKind::Sum: return in_place_safe(s->children.front(), memo);
    case SigmaKind::SumList:
      for (const Sigma &c : s->children)
        if (!in_place_safe(c, memo)) return false;
      return true;
    case SigmaKind::Compose: {
      const Sigma &first = s->children.front(), &last = s->children.back();
      // S(f) ... G(f) reads what it writes; otherwise (e.g. Sum(j, S(..)) * ... * Sum(k, G(..)),
      // loops that carry their own index functions) compare the positions.
      // A streamed chunk put where it was got as a set (the in-place transposes of
      // lower/inplace_passes.h) matches too.
      bool matched = first->kind == SigmaKind::Scatter && last->kind == SigmaKind::Gather
                         ? same(first->fn, last->fn) ||
                               (first->dma && last->dma && (first->put_back || same_footprint(s, first, last)))
                         : same_footprint(s, first, last);
      if (!matched) return false;
      // A streamed chunk (S_dma ... G_dma of one function) is computed in local memory: all of
      // it is got before any of it is put back, and chunks are disjoint.
      if (first->kind == SigmaKind::Scatter && first->dma && last->kind == SigmaKind::Gather && last->dma) return true;
      std::size_t inner = s->children.size() - (first->kind == SigmaKind::Scatter) - (last->kind == SigmaKind::Gather);
      if (inner >= 2) return true;  // stages go through a local temporary when aliased
      for (const Sigma &c : s->children)
        if (c->kind != SigmaKind::Scatter && c->kind != SigmaKind::Gather) return in_place_safe(c, memo);
      return true;
    }
    default: return false;
  }
}

// Every factor a Sum_stream (a streamed pass).
bool every_stage_streamed(const std::vector<Sigma> &factors) {
  return std::all_of(factors.begin(), factors.end(),
                     [](const Sigma &f) { return f->kind == SigmaKind::Sum && f->mode == SumMode::Stream; });
}

// f(i) = b + i: consecutive elements.
bool contiguous(const IndexFn &f) { return is_identity(f) || (f->kind == FnKind::H && f->s == 1); }

class Codegen {
 public:
  Codegen(Function &f, int first_var, const StreamOptions &stream) : f_(f), next_var_(first_var), stream_(stream) {}

  Stmt gen(const Sigma &s, const Access &out, const Access &in) {
    switch (s->kind) {
      case SigmaKind::Sum: {
        if (s->mode == SumMode::Stream && stream_.dma) return stream_loop(s, out, in);
        // A Sum_par outside every loop is a parallel loop; nested ones run sequentially
        // inside their worker (one parallel region, no nested regions).
        if (s->mode == SumMode::Parallel && loop_depth_ == 0) {
          in_parallel_ = true;
          Stmt body = gen(s->children.front(), out, in);
          in_parallel_ = false;
          return make_parallel_for(s->var, std::move(body));
        }
        ++loop_depth_;
        Stmt body = gen(s->children.front(), out, in);
        --loop_depth_;
        return make_for(s->var, std::move(body));
      }
      case SigmaKind::SumList: {
        std::vector<Stmt> parts;
        for (const Sigma &t : s->children) parts.push_back(gen(t, out, in));
        return make_block(std::move(parts));
      }
      case SigmaKind::Compose: return gen_compose(s->children, out, in);
      default: return gen_compose({s}, out, in);
    }
  }

  Stmt copy(const Access &out, const Access &in, int64_t n) {
    return gen_block({}, nullptr, {}, out, in, n);
  }

  int temp(int64_t size) { return new_temp(size); }

 private:
  Function &f_;
  int next_var_;
  StreamOptions stream_;
  int local_in_ = -1, local_out_ = -1;  // Local buffers of the streamed loops
  std::map<std::string, int> tables_;
  InPlaceMemo in_place_memo_;
  int loop_depth_ = 0;        // Sums around the node being generated
  bool in_parallel_ = false;  // inside the body of a parallel loop

  LoopVar fresh(int64_t extent) { return LoopVar{next_var_++, extent}; }

  // ---- Sum_stream as a multibuffered DMA loop (Cell paper sec. 3.2, the skeleton after
  // eq. (9); docs/streaming.md). B chunks in flight; chunk k lives in slot k mod B of the
  // local buffers; its get is tagged with the slot, its put with B + slot.
  struct Chunk {
    std::vector<Sigma> compute;  // the body between the transfers, run on the local buffers
    Access put, get;             // where chunk k goes and comes from (index functions of k)
  };

  // Diag(d) S(g) = S(g) Diag(d o g) and G(g) Diag(d) = Diag(d o g) G(g) (PLDI 2005 loop
  // merging; merge_loops leaves DMA transfers alone), then the transfers are peeled off.
  static Chunk split_chunk(const Sigma &sum, const Access &out, const Access &in) {
    const Sigma &body = sum->children.front();
    std::vector<Sigma> f = body->kind == SigmaKind::Compose ? body->children : std::vector<Sigma>{body};
    for (bool moved = true; moved;) {
      moved = false;
      for (std::size_t i = 0; i + 1 < f.size(); ++i) {
        const Sigma a = f[i], b = f[i + 1];
        if (a->kind == SigmaKind::Diag && b->kind == SigmaKind::Scatter)
          f[i] = b, f[i + 1] = sigma_diag(a->source, compose(a->fn, b->fn)), moved = true;
        else if (a->kind == SigmaKind::Gather && b->kind == SigmaKind::Diag)
          f[i + 1] = a, f[i] = sigma_diag(b->source, compose(b->fn, a->fn)), moved = true;
      }
    }
    Chunk c{{}, out, in};
    bool put_dma = false, get_dma = false;
    for (; !f.empty() && f.front()->kind == SigmaKind::Scatter; f.erase(f.begin()))
      c.put = through(c.put, f.front()->fn), put_dma |= f.front()->dma;
    for (; !f.empty() && f.back()->kind == SigmaKind::Gather; f.pop_back())
      c.get = through(c.get, f.back()->fn), get_dma |= f.back()->dma;
    if (!put_dma || !get_dma)
      throw FormulaError("a Sum_stream whose body is not S_dma * ... * G_dma cannot be streamed");
    c.compute = std::move(f);
    return c;
  }

  // The local buffers (input, output) all streamed loops share: they run one after another.
  int local_buffer(int &id, int64_t size) {
    if (id >= 0) {
      f_.buffers[std::size_t(id)].size = std::max(f_.buffers[std::size_t(id)].size, size);
      return id;
    }
    id = int(f_.buffers.size());
    f_.buffers.push_back(Buffer{id, BufferRole::Local, size, fmt::format("local{}", id)});
    return id;
  }

  // The local memory of one streamed loop: the local buffers and the temporaries its compute made.
  void check_local_memory(std::size_t first_temp, int64_t slots, int64_t in, int64_t out) {
    int64_t temps = 0;
    for (std::size_t b = first_temp; b < f_.buffers.size(); ++b)
      if (f_.buffers[b].role == BufferRole::Temp) temps += f_.buffers[b].size;
    int64_t locals = f_.buffers[std::size_t(local_in_)].size + f_.buffers[std::size_t(local_out_)].size;
    int64_t bytes = 2 * stream_.real_bytes * (locals + temps);
    if (stream_.local_memory > 0 && bytes > stream_.local_memory)
      throw FormulaError(fmt::format(
          "local memory of {} bytes is too small: a streamed chunk of {} complex in and {} out, {} buffers{} need {} bytes",
          stream_.local_memory, in, out, slots, temps ? fmt::format(" and {} complex of temporaries", temps) : "", bytes));
  }

  Stmt stream_loop(const Sigma &sum, const Access &out, const Access &in) {
    if (loop_depth_ > 0 || in_parallel_)
      throw FormulaError("a streamed loop (Sum_stream) inside another loop is not built yet (docs/streaming.md)");
    if (stream_.buffers < 1) throw FormulaError(fmt::format("--buffers {}: at least one buffer", stream_.buffers));
    Chunk c = split_chunk(sum, out, in);
    const LoopVar k = sum->var;
    const int64_t S = k.extent, B = std::min<int64_t>(stream_.buffers, S);
    const int64_t cin = c.get.fn->domain, cout = c.put.fn->domain;
    const int lin = local_buffer(local_in_, B * cin), lout = local_buffer(local_out_, B * cout);
    const Idx kk = idx_affine(Affine::var(k)), slot = B == 1 ? idx_const(0) : idx_mod(kk, B);
    const std::size_t first_temp = f_.buffers.size();
    ++loop_depth_;
    Stmt compute = gen_compose(c.compute, Access{lout, fn_identity(cout), idx_scale(slot, cout)},
                               Access{lin, fn_identity(cin), idx_scale(slot, cin)});
    --loop_depth_;
    check_local_memory(first_temp, B, cin, cout);
    f_.dma_tags = std::max(f_.dma_tags, int(2 * B));
    const Idx put_tag = idx_add(slot, idx_const(B));
    Stmt get = dma_transfer(true, c.get.buffer, c.get.fn, k, lin, idx_scale(slot, cin), slot, next_var_++);
    Stmt put = dma_transfer(false, c.put.buffer, c.put.fn, k, lout, idx_scale(slot, cout), put_tag, next_var_++);
    // chunk k: its data arrived, its slot's last put is done; compute; put it; fetch chunk k + B.
    Stmt step = make_block({make_dma_wait(slot), make_dma_wait(put_tag), compute, put});
    LoopVar first = fresh(B), last = fresh(B);
    std::vector<Stmt> parts = {make_for(first, substitute(get, k.id, Affine::var(first)))};  // prologue
    LoopVar steady{k.id, S - B};
    parts.push_back(make_for(steady, make_block({step, substitute(get, k.id, Affine::var(k) + Affine::constant(B))})));
    Stmt tail = fresh_scalars(substitute(step, k.id, Affine::var(last) + Affine::constant(S - B)), f_.scalars);
    parts.push_back(make_for(last, tail));  // epilogue
    for (int64_t j = 0; j < B; ++j) parts.push_back(make_dma_wait(idx_const(B + j)));
    return make_block(std::move(parts));
  }

  int new_temp(int64_t size) {
    int id = int(f_.buffers.size());
    f_.buffers.push_back(Buffer{id, BufferRole::Temp, size, fmt::format("t{}", id)});
    f_.buffers.back().per_worker = in_parallel_;
    return id;
  }

  int table(const std::string &key, const std::function<std::vector<cplx>()> &values, Buffer::Recipe recipe = {}) {
    if (auto it = tables_.find(key); it != tables_.end()) return it->second;
    int id = int(f_.buffers.size());
    std::vector<cplx> v = values();
    f_.buffers.push_back(Buffer{id, BufferRole::Table, int64_t(v.size()), key, std::move(v), recipe});
    tables_[key] = id;
    return id;
  }

  // A real buffer (the x or y of a real transform) has no imaginary part: it reads as 0, and
  // a correct formula for the spec stores only zeros there.
  bool real(int buffer) const { return f_.buffers[std::size_t(buffer)].real; }

  // Whether intermediate stages may live in this buffer: not a real one, nor a real DFT's y in
  // split format (stages over split arrays stay scalar: in a temporary they are vectorised).
  bool scratch(int buffer) const {
    const Buffer &x = f_.buffers[kInputBuffer];
    return !real(buffer) && !(f_.buffers[std::size_t(buffer)].split && (x.real || x.packed));
  }

  CExpr load(const Access &a, const Idx &i) {
    Idx at = address(a, i);
    return {e_load(a.buffer, at, 0), real(a.buffer) ? e_const(0) : e_load(a.buffer, at, 1)};
  }

  CExpr load_table(int buffer, const Idx &i) { return {e_load(buffer, i, 0), e_load(buffer, i, 1)}; }

  // w_N^(k e) for 0 <= e < N, from one table or the product of two.
  CExpr root_power(int64_t N, int64_t k, const Idx &e) {
    if (auto *a = as_affine(e); a && a->is_constant()) return c_const(root_of_unity(N, mod64(a->c0 * k, N)));
    if (N <= kDirectTwiddleMax) {
      int t = table(fmt::format("w{}_{}", N, k), [&] {
        std::vector<cplx> v(static_cast<std::size_t>(N));
        RootsOfUnity w(N);
        for (int64_t i = 0; i < N; ++i) v[std::size_t(i)] = w(int64_t((__int128)i * k % N));
        return v;
      });
      return load_table(t, e);
    }
    int64_t B = 1;
    while (B * B < N) B *= 2;
    int64_t H = (N + B - 1) / B;
    int hi = table(fmt::format("w{}_{}_hi", N, k), [&] {
      std::vector<cplx> v(static_cast<std::size_t>(H));
      for (int64_t i = 0; i < H; ++i) v[std::size_t(i)] = root_of_unity(N, int64_t((__int128)i * B * k % N));
      return v;
    });
    int lo = table(fmt::format("w{}_{}_lo", N, k), [&] {
      std::vector<cplx> v(static_cast<std::size_t>(B));
      for (int64_t i = 0; i < B; ++i) v[std::size_t(i)] = root_of_unity(N, int64_t((__int128)i * k % N));
      return v;
    });
    return c_mul(load_table(hi, idx_div(e, B)), load_table(lo, idx_mod(e, B)));
  }

  // The table of entries first + step q, q < count, of Diag `src`, with its recipe. A lazy
  // Diag's values stay uncomputed (generator/ir/diag_recipe.h): the backend computes the table
  // in the kernel, interpret() asks the Diag (table_values).
  int diag_table(const std::string &key, const Spl &src, int64_t first, int64_t step, int64_t count) {
    if (auto it = tables_.find(key); it != tables_.end()) return it->second;
    int t = src->lazy ? int(f_.buffers.size()) : table(key, [&] {
      std::vector<cplx> e;
      for (int64_t x = 0; x < count; ++x) e.push_back(src->diag[std::size_t(first + step * x)]);
      return e;
    });
    if (src->lazy) {
      f_.buffers.push_back(Buffer{t, BufferRole::Table, count, key});
      f_.buffers.back().diag_source = src;
      tables_[key] = t;
    }
    Buffer &b = f_.buffers[std::size_t(t)];
    b.diag_recipe = src->recipe, b.diag_first = first, b.diag_step = step;
    return t;
  }

  // Entry i of a Sigma-SPL Diag node.
  CExpr diag_value(const Sigma &d, const Idx &i) {
    Idx p = apply_index(d->fn, i);
    const Spl &src = d->source;
    // A lazy Diag's entry is read from its table even at a constant position: a constant would
    // compute the whole Diag here (a fifth of the 8 s of gen "DFT(1047107)", Zen 3, loaded).
    if (auto *a = as_affine(p); a && a->is_constant() && !src->lazy) return c_const(diag_entry(src, a->c0));
    if (src->kind == SplKind::Twiddle) {  // the row of 1s (a = 0 or b = 0 at every point): no table, no product
      auto entry = [&](int64_t q) { return mod64(mod64((q / src->b) * (q % src->b), src->a) * src->c, src->a) == 0; };
      if (auto *a = as_affine(p); a && every_point(*a, src->a, entry)) return c_const(cplx(1, 0));
    }
    if (src->kind == SplKind::Twiddle && src->a <= kDiagonalTwiddleMax) {
      // T(N, n, k) in diagonal order: the loop over b (p = a*n + b) reads consecutive entries,
      // which vector loops load whole.
      int t = table(fmt::format("t{}_{}_{}", src->a, src->b, src->c), [&] {
        std::vector<cplx> v(static_cast<std::size_t>(src->a));
        RootsOfUnity w(src->a);
        for (int64_t q = 0; q < src->a; ++q) v[std::size_t(q)] = w(int64_t((__int128)(q / src->b) * (q % src->b) * src->c % src->a));
        return v;
      }, Buffer::Recipe{src->a, src->b, src->c});
      return load_table(t, p);
    }
    if (src->kind == SplKind::Twiddle)  // T(N, n, k) at p = a*n + b is w_N^(k a b)
      return root_power(src->a, src->c, idx_mul(idx_div(p, src->b), idx_mod(p, src->b)));
    if (auto *a = as_affine(p); a && src->kind == SplKind::Diag) {
      if (std::optional<cplx> v = src->lazy ? std::nullopt : constant_along(src->diag, *a))  // a lazy one never is
        return c_const(*v);  // the same entry everywhere
      // read at stride c along one loop (the twiddles w^k of the real DFT's pairs [1, w^k]):
      // a table of just those entries, which a vector loop loads whole
      if (a->terms.size() == 1 && a->terms[0].second != 1 && a->min() >= 0 && a->max() < src->rows) {
        const LoopVar v = a->terms[0].first;  // not a structured binding: lambdas capture them only from C++20 (clang)
        const int64_t c = a->terms[0].second;
        auto num = [](int64_t x) { return x < 0 ? fmt::format("m{}", -x) : fmt::format("{}", x); };  // an identifier
        int t = diag_table(fmt::format("d{}_{:x}_{}_{}_{}", src->rows, src->hash, num(a->c0), num(c), v.extent), src,
                           a->c0, c, v.extent);
        return load_table(t, idx_affine(Affine::var(v)));
      }
    }
    return load_table(diag_table(fmt::format("d{}_{:x}", src->rows, src->hash), src, 0, 1, src->rows), p);
  }

  // Every value of p, when there are at most `limit` and all lie in [0, size).
  static std::optional<std::vector<int64_t>> values_of(const Affine &p, int64_t size, int64_t limit) {
    int64_t points = 1;
    for (const auto &[v, c] : p.terms)
      if ((points *= v.extent) > limit) return std::nullopt;
    if (p.min() < 0 || p.max() >= size) return std::nullopt;
    std::vector<int64_t> at = {p.c0};
    for (const auto &[v, c] : p.terms) {
      std::vector<int64_t> next;
      for (int64_t base : at)
        for (int64_t x = 0; x < v.extent; ++x) next.push_back(base + c * x);
      at = std::move(next);
    }
    return at;
  }

  // Whether pred holds at every value of p (all in [0, size)); false beyond 4096 values, where
  // enumerating would slow generation for what saves one multiplication per point.
  template <class Pred>
  static bool every_point(const Affine &p, int64_t size, Pred pred) {
    const std::optional<std::vector<int64_t>> at = values_of(p, size, 4096);
    return at && std::all_of(at->begin(), at->end(), pred);
  }

  // d[p] when it is the same at every value of p's variables (the 1s of the real DFT's pair
  // twiddles [1, w^k]); nothing beyond 2^16 values.
  static std::optional<cplx> constant_along(const std::vector<cplx> &d, const Affine &p) {
    const std::optional<std::vector<int64_t>> at = values_of(p, int64_t(d.size()), int64_t(1) << 16);
    if (!at) return std::nullopt;
    for (int64_t q : *at)
      if (d[std::size_t(q)] != d[std::size_t(at->front())]) return std::nullopt;
    return d[std::size_t(at->front())];
  }

  std::vector<PendingStore> store(const Access &a, const Idx &i, const CExpr &v) {
    Idx at = address(a, i);
    if (real(a.buffer)) return {{a.buffer, at, 0, v.re}};
    return {{a.buffer, at, 0, v.re}, {a.buffer, at, 1, v.im}};
  }

  // post-diagonals * kernel * pre-diagonals (any of the three may be absent).
  Stmt gen_block(const std::vector<Sigma> &post, const Sigma *kernel, const std::vector<Sigma> &pre,
                 const Access &out, const Access &in, int64_t n) {
    auto input = [&](const Idx &i) {
      CExpr v = load(in, i);
      for (auto it = pre.rbegin(); it != pre.rend(); ++it) v = c_mul(diag_value(*it, i), v);
      return v;
    };
    auto output = [&](const Idx &i, CExpr v) {
      for (auto it = post.rbegin(); it != post.rend(); ++it) v = c_mul(diag_value(*it, i), v);
      return store(out, i, v);
    };
    const bool unrolled = kernel && is_unrolled_kernel((*kernel)->source);
    if (kernel && (*kernel)->rows != (*kernel)->cols && !unrolled) return matrix_loop((*kernel)->source, input, output);
    if (!kernel || unrolled) {
      if (!kernel && n > 4) return elementwise_loop(n, input, output);
      std::vector<CExpr> x;
      for (int64_t i = 0; i < n; ++i) x.push_back(input(idx_const(i)));
      std::vector<CExpr> y = !kernel ? x : symbolic_kernel((*kernel)->source, x);
      std::vector<PendingStore> stores;
      for (int64_t i = 0; i < int64_t(y.size()); ++i)
        for (PendingStore &s : output(idx_const(i), y[std::size_t(i)])) stores.push_back(s);
      return schedule(stores, f_.scalars);
    }
    return matrix_loop((*kernel)->source, input, output);
  }

  template <class In, class Out>
  Stmt elementwise_loop(int64_t n, In input, Out output) {
    LoopVar i = fresh(n);
    return make_for(i, schedule(output(idx_affine(Affine::var(i)), input(idx_affine(Affine::var(i)))), f_.scalars));
  }

  // A dense matrix with at most one nonzero entry (Bluestein's zero padding [1; 0; ...; 0] and
  // truncation [1 0 ... 0], generator/rewrite/functions.cpp): zeros and one product, not an
  // O(rows*cols) loop of multiplications by zero (a dot product of M - n + 1 terms per call).
  template <class In, class Out>
  std::optional<Stmt> single_entry_loop(const Spl &matrix, In input, Out output) {
    std::optional<int64_t> at;
    for (std::size_t e = 0; e < matrix->diag.size(); ++e) {
      if (matrix->diag[e] == cplx(0.0)) continue;
      if (at) return std::nullopt;
      at = int64_t(e);
    }
    std::vector<Stmt> body;
    int re = f_.scalars++, im = f_.scalars++;
    if (at) {
      cplx v = matrix->diag[std::size_t(*at)];
      CExpr term = c_mul(input(idx_const(*at % matrix->cols)), CExpr{e_const(v.real()), e_const(v.imag())});
      body.push_back(make_block({make_assign(re, term.re), make_assign(im, term.im)}));
    }
    LoopVar j = fresh(matrix->rows);
    body.push_back(make_for(j, schedule(output(idx_affine(Affine::var(j)), CExpr{e_const(0), e_const(0)}), f_.scalars)));
    if (at) body.push_back(schedule(output(idx_const(*at / matrix->cols), CExpr{e_scalar(re), e_scalar(im)}), f_.scalars));
    return make_block(std::move(body));
  }

  // y[j] = sum_l M[j][l] x[l]: an O(rows*cols) loop with accumulators. For DFT(n, k),
  // M[j][l] = w_n^(k j l) from a table of n roots; for a dense matrix, its entries.
  template <class In, class Out>
  Stmt matrix_loop(const Spl &matrix, In input, Out output) {
    if (matrix->kind == SplKind::Dense)
      if (std::optional<Stmt> sparse = single_entry_loop(matrix, input, output)) return *sparse;
    LoopVar j = fresh(matrix->rows), l = fresh(matrix->cols);
    Idx jj = idx_affine(Affine::var(j)), ll = idx_affine(Affine::var(l));
    int acc_re = f_.scalars++, acc_im = f_.scalars++;
    CExpr entry;
    if (matrix->kind == SplKind::DFT) {
      int64_t n = matrix->a, k = matrix->b;
      int w = table(fmt::format("w{}_{}", n, k), [&] {
        std::vector<cplx> v(static_cast<std::size_t>(n));
        RootsOfUnity w(n);
        for (int64_t e = 0; e < n; ++e) v[std::size_t(e)] = w(int64_t((__int128)e * k % n));
        return v;
      });
      entry = load_table(w, idx_mod(idx_mul(jj, ll), n));
    } else if (matrix->kind == SplKind::RealTransform) {
      int m = table(fmt::format("{}_{}", real_kind_name(real_kind(matrix)), fmt::join(real_transform_dims(matrix), "x")), [&] {
        std::vector<cplx> v;
        for (int64_t r = 0; r < matrix->rows; ++r)
          for (int64_t c = 0; c < matrix->cols; ++c) v.push_back(real_transform_entry(matrix, r, c));
        return v;
      });
      entry = load_table(m, idx_affine(Affine::var(j, matrix->cols) + Affine::var(l)));
    } else if (matrix->kind == SplKind::Dense) {
      int m = table(fmt::format("m{}x{}_{:x}", matrix->rows, matrix->cols, matrix->hash), [&] { return matrix->diag; });
      entry = load_table(m, idx_affine(Affine::var(j, matrix->cols) + Affine::var(l)));
    } else {
      throw std::logic_error("no loop code for kernel " + std::to_string(int(matrix->kind)));
    }
    CExpr term = matrix_term(matrix, input(ll), entry);
    int tr = f_.scalars++, ti = f_.scalars++;
    Stmt accumulate = make_block({make_assign(tr, term.re), make_assign(ti, term.im),
                                  make_assign(acc_re, e_add(e_scalar(acc_re), e_scalar(tr)), false),
                                  make_assign(acc_im, e_add(e_scalar(acc_im), e_scalar(ti)), false)});
    Stmt finish = schedule(output(jj, CExpr{e_scalar(acc_re), e_scalar(acc_im)}), f_.scalars);
    return make_for(j, make_block({make_assign(acc_re, e_const(0)), make_assign(acc_im, e_const(0)),
                                   make_for(l, accumulate), finish}));
  }

  // Unrolled kernels and diagonals, two kernels or more (the fused pair loop of the real DFT,
  // merge_loops.cpp): one straight-line block, no temporary between the kernels.
  static bool unrolled_chain(const std::vector<Sigma> &factors) {
    int kernels = 0;
    for (const Sigma &f : factors) {
      if (f->kind == SigmaKind::Kernel && is_unrolled_kernel(f->source)) ++kernels;
      else if (f->kind != SigmaKind::Diag) return false;
    }
    return kernels >= 2;
  }

  Stmt gen_unrolled_chain(const std::vector<Sigma> &factors, const Access &out, const Access &in) {
    std::vector<CExpr> x;
    for (int64_t i = 0; i < factors.back()->cols; ++i) x.push_back(load(in, idx_const(i)));
    for (auto f = factors.rbegin(); f != factors.rend(); ++f) {
      if ((*f)->kind == SigmaKind::Kernel) {
        x = symbolic_kernel((*f)->source, x);
        continue;
      }
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = c_mul(diag_value(*f, idx_const(int64_t(i))), x[i]);
    }
    std::vector<PendingStore> stores;
    for (std::size_t i = 0; i < x.size(); ++i)
      for (PendingStore &p : store(out, idx_const(int64_t(i)), x[i])) stores.push_back(p);
    return schedule(stores, f_.scalars);
  }


  Stmt gen_compose(std::vector<Sigma> factors, Access out, Access in) {
    while (!factors.empty() && factors.front()->kind == SigmaKind::Scatter) {
      out = through(out, factors.front()->fn);
      factors.erase(factors.begin());
    }
    while (!factors.empty() && factors.back()->kind == SigmaKind::Gather) {
      in = through(in, factors.back()->fn);
      factors.pop_back();
    }
    bool aliased = out.buffer == in.buffer;
    if (factors.empty()) {  // a pure data movement
      int64_t n = out.fn->domain;
      if (!aliased) return copy(out, in, n);
      int t = new_temp(n);
      Access tmp{t, fn_identity(n)};
      return make_block({copy(tmp, in, n), copy(out, tmp, n)});
    }
    if (unrolled_chain(factors)) return gen_unrolled_chain(factors, out, in);
    // post-diagonals * kernel * pre-diagonals: one straight-line block or loop.
    std::size_t k = 0;
    while (k < factors.size() && factors[k]->kind == SigmaKind::Diag) ++k;
    bool has_kernel = k < factors.size() && factors[k]->kind == SigmaKind::Kernel;
    std::size_t rest = has_kernel ? k + 1 : k;
    bool all_diag_after = true;
    for (std::size_t i = rest; i < factors.size(); ++i) all_diag_after &= factors[i]->kind == SigmaKind::Diag;
    if (all_diag_after && (has_kernel || k == factors.size())) {
      std::vector<Sigma> post(factors.begin(), factors.begin() + std::ptrdiff_t(k));
      std::vector<Sigma> pre(factors.begin() + std::ptrdiff_t(rest), factors.end());
      const Sigma *kernel = has_kernel ? &factors[k] : nullptr;
      int64_t n = factors.back()->cols, rows = factors.front()->rows;
      if (aliased && kernel && !is_unrolled_kernel((*kernel)->source)) {
        int t = new_temp(rows);
        Access tmp{t, fn_identity(rows)};
        return make_block({gen_block({}, kernel, pre, tmp, in, n), gen_block(post, nullptr, {}, out, tmp, rows)});
      }
      return gen_block(post, kernel, pre, out, in, n);
    }
    if (factors.size() == 1) return gen(factors.front(), out, in);
    return gen_chain(factors, out, in, aliased);
  }

  // F1 * F2 * ... * Fm, Fm applied first.
  Stmt gen_chain(const std::vector<Sigma> &factors, const Access &out, const Access &in, bool aliased) {
    std::size_t m = factors.size();
    bool middle_safe = true;  // F2 .. F(m-1)
    auto safe = [&](const Sigma &stage) { return in_place_safe(stage, in_place_memo_); };
    for (std::size_t i = 1; i + 1 < m; ++i) middle_safe &= safe(factors[i]);
    std::vector<Stmt> stages;
    if (aliased && same(in.fn, out.fn) && every_stage_streamed(factors) && middle_safe && safe(factors[0]) &&
        safe(factors[m - 1])) {
      // One buffer, every pass putting each chunk where it got it (the large 1D DFT in place,
      // lower/inplace_passes.h): every stage in place, no temporary.
      for (std::size_t i = m; i-- > 0;) stages.push_back(gen(factors[i], out, out));
      return make_block(std::move(stages));
    }
    if (!aliased && middle_safe && safe(factors[0]) && contiguous(out.fn) && scratch(out.buffer)) {
      // Every intermediate lives in the output; later stages run in place. Not where the
      // output is scattered (a block of columns of X (x) I(n)): rows a power of two apart
      // fall into the same cache sets, so a block would not stay in cache between stages.
      stages.push_back(gen(factors[m - 1], out, in));
      for (std::size_t i = m - 1; i-- > 0;) stages.push_back(gen(factors[i], out, out));
      return make_block(std::move(stages));
    }
    const int64_t r = factors[m - 1]->rows;  // the same with the intermediates in a prefix of the output
    if (!aliased && middle_safe && contiguous(out.fn) && scratch(out.buffer) && m >= 2 && r < out.fn->domain &&
        r >= kGrowInPlaceMin &&
        factors[0]->cols == r && grows_in_place(factors[0], is_unrolled_kernel)) {
      Access prefix{out.buffer, compose(out.fn, fn_h(r, out.fn->domain, Affine::constant(0), 1)), out.offset};
      stages.push_back(gen(factors[m - 1], prefix, in));
      for (std::size_t i = m - 1; i-- > 1;) stages.push_back(gen(factors[i], prefix, prefix));
      stages.push_back(gen(factors[0], out, prefix));
      return make_block(std::move(stages));
    }
    if (middle_safe) {  // one temporary, in place through the middle stages
      int64_t n = factors[m - 1]->rows;
      Access tmp{new_temp(n), fn_identity(n)};
      stages.push_back(gen(factors[m - 1], tmp, in));
      for (std::size_t i = m - 1; i-- > 1;) stages.push_back(gen(factors[i], tmp, tmp));
      stages.push_back(gen(factors[0], out, tmp));
      return make_block(std::move(stages));
    }
    // Two buffers in turn between the stages (a stage never reads what it writes): the output
    // and one temporary where the output is contiguous and as large as every stage (less
    // memory in cache), else two temporaries.
    int64_t n = 0;
    bool output_turns = !aliased && contiguous(out.fn) && scratch(out.buffer);
    for (std::size_t i = 1; i < m; ++i) {
      n = std::max(n, factors[i]->rows);
      output_turns &= factors[i]->rows == out.fn->domain;
    }
    const int temp = new_temp(n), other = output_turns || m <= 2 ? -1 : new_temp(n);
    Access src = in;
    for (std::size_t i = m; i-- > 0;) {
      Access dst = out;
      if (i % 2 == 1) dst = Access{temp, fn_identity(factors[i]->rows)};
      else if (i > 0 && !output_turns) dst = Access{other, fn_identity(factors[i]->rows)};
      stages.push_back(gen(factors[i], dst, src));
      src = dst;
    }
    return make_block(std::move(stages));
  }
};

}  // namespace

namespace {

// A real transform in place (FFTW's r2c/c2r layout): x and y are views of one buffer of
// `reals` reals, each in its own units (reals, or complex numbers of two reals).
int64_t shared_reals(const Function &f) {
  auto reals = [&](int id) {
    const Buffer &b = f.buffers[std::size_t(id)];
    return b.real ? b.size : 2 * b.size;
  };
  const int64_t r = std::max(reals(kInputBuffer), reals(kOutputBuffer));
  return r + r % 2;
}

// One unrolled codelet per transform (a leaf, or a batch's loop over leaves): each loads all
// its inputs before its first store (schedule(), and schedule_registers keeps the two views'
// accesses in order), and transforms in place touch disjoint reals (driver/io_layout.h).
bool codelet_per_transform(const Sigma &s) {
  const Sigma &b = s->kind == SigmaKind::Sum ? s->children.front() : s;
  std::vector<Sigma> f = b->kind == SigmaKind::Compose ? b->children : std::vector<Sigma>{b};
  std::size_t kernels = 0;
  for (const Sigma &x : f) {
    if (x->kind == SigmaKind::Kernel && is_unrolled_kernel(x->source)) ++kernels;
    else if (x->kind != SigmaKind::Scatter && x->kind != SigmaKind::Gather) return false;
  }
  return kernels == 1 && f.size() <= 3;
}

void view_shared(Function &f) {
  const int64_t reals = shared_reals(f);
  for (int id : {kInputBuffer, kOutputBuffer}) {
    Buffer &b = f.buffers[std::size_t(id)];
    b.size = b.real ? reals : reals / 2;
  }
}

}  // namespace

Function sigma_to_loops(const Sigma &s, const std::string &name, const StreamOptions &stream, RealIo io,
                        const IoLayout &layout) {
  const IndexFn xf = layout.x ? layout.x : fn_identity(s->cols), yf = layout.y ? layout.y : fn_identity(s->rows);
  if (xf->domain != s->cols || yf->domain != s->rows) throw std::logic_error("sigma_to_loops: layout of the wrong size");
  const bool real_in_place = layout.in_place && io.input != io.output;  // RDFT, IRDFT: sides of two kinds
  if (layout.in_place && !real_in_place && xf->range != yf->range)
    throw std::logic_error("sigma_to_loops: in place, x and y differ in size");
  Function f;
  f.name = name;
  f.rows = s->rows;
  f.cols = s->cols;
  f.in_place = layout.in_place;
  f.buffers.push_back(Buffer{kInputBuffer, BufferRole::Input, xf->range, "x"});
  f.buffers.push_back(Buffer{kOutputBuffer, BufferRole::Output, yf->range, "y"});
  f.buffers[kInputBuffer].real = io.input;
  f.buffers[kOutputBuffer].real = io.output;
  f.buffers[kInputBuffer].split = layout.split && !io.input;  // the complex sides
  f.buffers[kOutputBuffer].split = layout.split && !io.output;
  // The real DFT's packing stages become packed buffers (packed_io.h) where the real side's
  // layout lets its reals be read in pairs.
  const bool pack_in = io.input && (!layout.x || layout.x_packed), pack_out = io.output && (!layout.y || layout.y_packed);
  const PackedIo packed = strip_packing(s, pack_in, pack_out);
  const Sigma &body = packed.body;
  auto pack = [&](int buffer, int64_t size) {  // m complex over the 2m reals
    Buffer &b = f.buffers[std::size_t(buffer)];
    b.real = false, b.packed = true, b.size = size;
  };
  const IndexFn bx = !packed.input ? xf : layout.x_packed ? layout.x_packed : fn_identity(body->cols);
  const IndexFn by = !packed.output ? yf : layout.y_packed ? layout.y_packed : fn_identity(body->rows);
  if (bx->domain != body->cols || by->domain != body->rows) throw std::logic_error("sigma_to_loops: packed layout of the wrong size");
  if (packed.input) pack(kInputBuffer, bx->range);
  if (packed.output) pack(kOutputBuffer, by->range);
  if (real_in_place) view_shared(f);
  Codegen gen(f, max_sum_var(s) + 1, stream);
  if (real_in_place && !packed.input && !packed.output && !codelet_per_transform(body)) {
    // x is a view of its own (reals where y is complex, or the reverse): the whole batch into a
    // temporary, then into y, so that no store can overwrite what a later load reads.
    Access tmp{gen.temp(body->rows), fn_identity(body->rows)};
    f.body = make_block({gen.gen(body, tmp, Access{kInputBuffer, bx}), gen.copy(Access{kOutputBuffer, by}, tmp, body->rows)});
    return f;
  }
  // In place, x is y (packed: the complex numbers of the same bytes; a codelet reads its view
  // x): the aliasing checks of gen_compose put temporaries where stages would overwrite what
  // they have still to read.
  const bool through_y = layout.in_place && (!real_in_place || packed.input || packed.output);
  f.body = gen.gen(body, Access{kOutputBuffer, by}, Access{through_y ? kOutputBuffer : kInputBuffer, bx});
  return f;
}

}  // namespace splgen::lower
