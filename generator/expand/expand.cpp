#include "generator/expand/expand.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "generator/expand/breakdown.h"
#include "generator/expand/cost_estimate.h"
#include "generator/ir/print.h"
#include "generator/rewrite/functions.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::expand {

namespace {

// The default choice among breakdown choices, by the sizes of the DFTs each produces (in
// formula order). Up to kBalancedMax points: the most balanced (smallest largest child),
// so both halves stay cache-resident. Beyond: a first child (the twiddle stage
// DFT(m) (x) I(n) of Cooley-Tukey) as close to kRadixMax as possible without exceeding it,
// so each iteration touches few cache lines and neighbours share them (FFTW's DIT).
// Ties go to the earlier choice: rule order, then match order.
// Default splits N = m x n of DFT(N) = (DFT(m) (x) I(n)) T (I(m) (x) DFT(n)) L, by size class.
// Measured on Zen 3 (one bench run per plan against the old default, AVX2, double and float):
//   up to kBalancedMax: closest to sqrt(N) (on vector targets some 4 x a codelet: (N/4) x 4);
//   scalar code, up to kInCacheMax: m a radix of up to kRadixMax points (FFTW's DIT);
//   vector code, up to kRadixLastMax: n a codelet of up to kRadixMax points, m composite: the codelet stage
//     is one vector loop over the m children, DFT(m) (x) I(n) runs stage by stage over adjacent
//     columns (2048: 64 x 32 1.15x the old 32 x 64; 4096: 128 x 32 1.1-1.2x 32 x 128);
//   vector code, up to kInCacheMax: n closest to kInCacheChild, m a radix (8192: 8 x 1024 1.15-1.3x 32 x 256);
//   beyond (out of L2): m closest to kOutOfCacheRadix, so that the n-point children fit in
//     cache after one transposition (spl_to_sigma.cpp); m = 128 was within 10% of the best m
//     of 16 .. 512 at every size of 2^16 .. 2^20.
struct SplitKnobs {
  static constexpr int64_t kBalancedMax = 1024;
  static constexpr int64_t kRadixMax = 32;
  static constexpr int64_t kRadixLastMax = 4096;
  static constexpr int64_t kInCacheChild = 1024;
  static constexpr int64_t kInCacheMax = 32768;  // points; 512 KiB of complex double (Zen 3 L2)
  static constexpr int64_t kOutOfCacheRadix = 128;
  static constexpr int64_t kRadixFourLastMax = 16;  // the (N/4) x 4 split: N/4 a codelet up to this (below)
};

void collect_dft_sizes(const Spl &f, std::vector<int64_t> &out) {
  if (f->kind == SplKind::DFT || f->kind == SplKind::DFTnd) out.push_back(f->a);
  for (const Spl &c : f->children) collect_dft_sizes(c, out);
}

// The real transforms of f, as sizes; one of the node's size but of an earlier kind (DCT2(n)
// by RDFT(n)) counts as one smaller, so expansions still end (the kinds are ordered).
void collect_real_sizes(const Spl &f, const Spl &node, std::vector<int64_t> &out) {
  if (f->kind == SplKind::RealTransform)
    out.push_back(f->a == node->a && real_kind(f) < real_kind(node) ? f->a - 1 : f->a);
  for (const Spl &c : f->children) collect_real_sizes(c, node, out);
}

// A real transform up to real_leaf_max(kind) points stays a leaf: one unrolled codelet of its
// fast algorithm (the right side of its rule applied symbolically, lower/real_codelet.cpp;
// WHT's butterflies), above it the rules split it into passes. The sizes where the codelet
// beats the passes, one run each against FFTW_MEASURE, Intel Xeon AVX-512 (stop 29; the
// codelets came from the matrix entries before, O(n^2) operations, when the limits were 4 for
// RDFT/IRDFT/WHT and 8 for the DCTs/DSTs, measured on Zen 3 AVX2):
//   RDFT 16: 0.85x -> 1.34x, 32: 0.80x -> 0.97x;  IRDFT 16: 0.76x -> 0.89x, 32 as a codelet
//   0.76x against 1.02x split;  DCT2 16: 1.55x -> 3.35x, DCT3 16: 1.58x -> 3.32x, DCT3 32 split
//   1.13x, as a codelet 1.51x but DCT4 32 4.50x -> 2.00x, DCT4 16 4.80x -> 3.04x;  WHT 16: the
//   split of 4-point leaves 0.51x, one codelet 3.36x the radix-2 loop.
// Since RDFT/IRDFT leaves are the real radix-2 split (lower/real_radix2.cpp; Zen 3 AVX2, one
// run each against Debian's FFTW_MEASURE): RDFT 16 2.11x -> 2.90x, 32 1.07x -> 1.46x; IRDFT 16
// 1.94x -> 2.89x, IRDFT 32 split 1.77x, 1.43x, as one codelet 1.87x, 2.08x (two A/B pairs).
// RDFT 64 would be 33 x 64 entries, above kRealCodeletEntries (an O(n^2) loop).
int64_t real_leaf_max(RealKind kind) {
  switch (kind) {
    case RealKind::RDFT: return 32;
    case RealKind::IRDFT: return 32;
    case RealKind::WHT: return 16;
    case RealKind::DCT4: case RealKind::DST4: return 8;
    default: return 16;  // DCT2, DCT3, DST2, DST3
  }
}
// The lowering unrolls a real transform leaf up to this many entries (generator/lower/real_codelet.h).
constexpr int64_t kRealCodeletEntries = 1024;

double log_distance(int64_t a, int64_t b) { return std::abs(std::log2(double(a)) - std::log2(double(b))); }

// 4 x a codelet size whose balanced split has no factor a multiple of 4 (36, 60): as
// (N/4) x 4 the 4-point stage is one vector per column (AVX2 double) and the codelet stage
// runs across 4 columns; as 6 x 6 or 6 x 10 every vector loop has a remainder. Measured
// 1.2-1.4x the balanced split in double and float (Zen 3, AVX2), and again 1.0-1.2x on Zen 4
// (AVX2 and AVX-512, interleaved A/B in one bench run); where the balanced split has a
// multiple of 4 (24 = 4 x 6, 96 = 8 x 12) it stays (float 96 as 24 x 4 was 0.6x). Only for a
// codelet of up to 16 points: 100 as 25 x 4 runs its 576-operation DFT(25) on 4 lanes, and
// 10 x 10 was 1.16x / 1.82x (double / float) of it with AVX-512, 0.96x / 1.11x with AVX2 (Zen 4).
bool prefers_radix_four_last(int64_t N) {
  if (N % 4 != 0 || N / 4 > SplitKnobs::kRadixFourLastMax) return false;
  int64_t m = balanced_split(N);
  return m % 4 != 0 && (N / m) % 4 != 0;
}

// The codelet stage n (of N = m x n) as a whole number of vectors: the twiddle stage
// DFT(m) (x) I(n) then runs its columns without a remainder (with 4 lanes, 25 x 40 ends each
// DFT(40) (x) I(25) in a scalar DFT(40)). Where the knobs would pick n a codelet anyway (the
// kRadixLastMax class), or where the most balanced split has a child above kRadixMax
// (1000 = 25 x 40), n is the multiple of the lanes up to kRadixMax closest to it, if N has one.
// One interleaved bench run per size, the old split against this one (Zen 3, AVX2):
//   double: 612 18x34 -> 51x12 1.39x, 680 1.35x, 880 22x40 -> 44x20 1.26x, 972 1.28x, 1008
//   1.14x, 1000 25x40 -> 50x20 1.11-1.16x (40x25 0.96x, 125x8 0.97x), 148 4x37 -> 37x4 1.23x,
//   1200 40x30 -> 50x24 1.21x, 1500 1.11x, 2000 80x25 -> 100x20 1.17x, 2500 1.11x, 3000
//   1.05x, 3600 1.38x;
//   float: 1000 -> 125x8 1.21-1.27x (50x20 1.07-1.14x), 880 1.2x, 1008 1.56x, 680 3.3x, 1200
//   1.26x, 2000 1.23x, 3000 1.22x, 3600 1.29x; SSE2 double 1000 1.19x.
//   Zen 4 (stop 31): 1000 as 50 x 20 1.26x / 1.44x (AVX2 double / float), 1.00x / 1.45x AVX-512.
int64_t lane_multiple_radix(int64_t N, int64_t lanes) {
  if (lanes <= 1 || N > SplitKnobs::kRadixLastMax) return 0;
  if (N <= SplitKnobs::kBalancedMax) {
    int64_t m = balanced_split(N);
    if (m <= 1 || std::max(m, N / m) <= SplitKnobs::kRadixMax) return 0;
  }
  for (int64_t n = SplitKnobs::kRadixMax - SplitKnobs::kRadixMax % lanes; n >= lanes; n -= lanes)
    if (N % n == 0 && N / n > 1) return n;
  return 0;
}

// 512 and 1024 points with 8 lanes in 16 registers (AVX2 float): the codelet stage is
// DFT(8), one vector of columns, and m = N/8 runs stage by stage (64 x 8, 128 x 8), instead
// of the balanced 16 x 32 / 32 x 32 whose 32-point codelets on 8 lanes need 64 registers.
// One interleaved bench run each against the balanced split (Zen 3, AVX2 float): 512 as
// 64 x 8 1.45x, 1.20x, 1.31x, 1.43x (8 x 64 1.22x, 32 x 16 1.08x); 1024 as 128 x 8 1.45x,
// 1.10x, 1.31x, 1.39x, 0.99x, 1.41x, 1.12x (64 x 16 1.03x, 1.34x); between them 520 as 65 x 8
// 2.0x, 576 1.19x, 640 1.7x, 960 1.75x, but 768 as 96 x 8 1.00x, 0.88x, 0.97x of 24 x 32; 256 as
// 32 x 8 0.97x and 2048 as 256 x 8 1.03x, so 512 .. 1024 only. Double 512 as 64 x 8 was
// 0.92-1.16x: unchanged. AVX-512 (32 registers, 16 float lanes) is not measured: unchanged.
bool prefers_radix_eight_last(int64_t N, const ExpandOptions &options) {
  return options.vector_lanes == 8 && options.vector_registers == 16 && N >= 512 && N <= SplitKnobs::kBalancedMax &&
         N % 8 == 0 && N / 8 >= 64;
}

// Lower is better; children are (m, n) for Cooley-Tukey.
double choice_cost(const std::vector<int64_t> &children, int64_t N, const ExpandOptions &options) {
  if (children.empty()) return 1e300;
  const bool vector_target = options.vector_target;
  int64_t m = children.front(), n = children.back();
  if (vector_target && prefers_radix_four_last(N)) return n == 4 ? 0.0 : 1e6 + double(std::max(m, n));
  if (vector_target && prefers_radix_eight_last(N, options))
    return children.size() == 2 && n == 8 ? 0.0 : 1e6 + double(std::max(m, n));
  if (int64_t r = vector_target ? lane_multiple_radix(N, options.vector_lanes) : 0; r > 0)
    return children.size() == 2 && n == r ? 0.0 : 1e6 + double(std::max(m, n));
  if (N <= SplitKnobs::kBalancedMax) return double(*std::max_element(children.begin(), children.end()));
  if (!vector_target && N <= SplitKnobs::kInCacheMax)
    return m > SplitKnobs::kRadixMax ? 1e200 + double(m) : double(SplitKnobs::kRadixMax - m);
  if (N <= SplitKnobs::kRadixLastMax)
    return n > SplitKnobs::kRadixMax ? 1e200 + double(n) : double(SplitKnobs::kRadixMax - n);
  if (N <= SplitKnobs::kInCacheMax) return log_distance(n, SplitKnobs::kInCacheChild);
  return log_distance(m, SplitKnobs::kOutOfCacheRadix);
}

// The sizes of the DFTs a rule's right side produces under a match, read from the rule
// text without building the formula; nothing when a size cannot be evaluated that way.
std::optional<std::vector<int64_t>> child_sizes(const Term &t, const rewrite::Match &m) {
  std::vector<int64_t> out;
  std::vector<const Term *> stack = {&t};
  while (!stack.empty()) {
    const Term *u = stack.back();
    stack.pop_back();
    if (u->kind == SplKind::DFT || u->kind == SplKind::DFTnd) {
      int64_t n = 1;
      for (std::size_t i = 0; i < (u->kind == SplKind::DFT ? 1 : u->sizes.size()); ++i) {
        auto v = rewrite::eval_size(u->sizes[i], m.sizes);
        if (!v) return std::nullopt;
        n *= *v;
      }
      out.push_back(n);
    }
    // @functions build permutations, diagonals and small matrices; the few that build DFT
    // non-terminals (Bluestein's convolution) say of which sizes.
    if (u->kind == SplKind::Call) {
      const rewrite::RuleFunction *fn = rewrite::find_rule_function(u->name);
      if (!fn || !fn->dft_sizes) continue;
      std::vector<int64_t> args;
      for (const SizeExpr &e : u->sizes) {
        auto v = rewrite::eval_size(e, m.sizes);
        if (!v || *v <= 0) return std::nullopt;  // built, so that its error is the function's own
        args.push_back(*v);
      }
      if (args.size() != fn->arity) return std::nullopt;
      for (int64_t n : fn->dft_sizes(args)) out.push_back(n);
      continue;
    }
    if (u->kind == SplKind::FormulaVar) continue;
    for (auto it = u->children.rbegin(); it != u->children.rend(); ++it) stack.push_back(&*it);
  }
  return out;
}

// Inside tiled(k) the DFT directly under the tag is split n x n with k | n: the tiled rules
// (seed 001, (7), (8)) and its final 1D algorithm (19) are for I_n (x) A_n and A_n (x) I_n
// with A_n = DFT_n, n a multiple of the tile size k.
bool fits_tiled(const Tag &tag, const std::vector<int64_t> &children, int64_t N) {
  if (children.empty()) return false;
  int64_t n = children.front(), k = tag.params.at(0);
  return n * n == N && n % k == 0 &&
         std::all_of(children.begin(), children.end(), [&](int64_t c) { return c == n; });
}

// Inside smp(p, mu) a split whose every stage rules/smp.rules makes parallel: Cooley-Tukey
// with the conditions of smp_dft (SC'06: p | m, p | n, each thread's blocks whole cache
// lines), else any split with enough work to share out unevenly (the *_blocks / *_packets
// rules: at least p rows, and at least p packets of mu columns); the row-column
// multi-dimensional rules likewise.
bool fits_smp(const Tag &tag, const std::string &rule, const std::vector<int64_t> &children) {
  int64_t p = tag.params.at(0), mu = tag.params.at(1);
  auto divides = [](int64_t a, int64_t b) { return a > 0 && b % a == 0; };
  // rows: the extent of the I(rows) (x) A stage; cols: of the A (x) I(cols) stage.
  auto shared_out = [&](int64_t rows, int64_t cols) { return rows >= p && divides(mu, cols) && cols / mu >= p; };
  if (children.size() == 2 && (rule == "dft_ct_dit" || rule == "dft_ct_dif")) {
    int64_t m = children[0], n = children[1];
    bool even = divides(p, m) && divides(p, n) && divides(mu, m / p) && divides(mu, n / p);
    return even || shared_out(m, n);
  }
  if (children.size() == 2 && (rule == "dft_2d_rc" || rule == "dft_2d_cr")) return shared_out(children[0], children[1]);
  if (children.size() == 3 && rule == "dft_3d") return shared_out(children[0], children[1] * children[2]);
  return false;
}

// Inside par(p, mu) a split whose stages rules/par.rules distributes: Cooley-Tukey with the
// conditions of par_dft (seed 004 sec. 3.1: p | m, p | n, packets of whole mu), the row-column
// 2D rule with those of par_dft_2d (p | m, p | n, mu | n/p), the 3D rule with par_3d_stages'.
bool fits_par(const Tag &tag, const std::string &rule, const std::vector<int64_t> &children) {
  int64_t p = tag.params.at(0), mu = tag.params.at(1);
  auto divides = [](int64_t a, int64_t b) { return a > 0 && b % a == 0; };
  if (children.size() == 3 && rule == "dft_3d")  // par_3d_stages: slabs of m/p planes, then packets of n r/p columns
    return divides(p, children[0]) && divides(p, children[1] * children[2]) && divides(mu, children[1] * children[2] / p);
  if (children.size() != 2) return false;
  const int64_t m = children[0], n = children[1];
  if (rule == "dft_ct_dit") return divides(p, m) && divides(p, n) && divides(mu, m / p) && divides(mu, n / p);
  if (rule == "dft_2d_rc") return divides(p, m) && divides(p, n) && divides(mu, n / p);
  return false;
}

// Inside stream(s), s > 1, a split whose passes rules/stream.rules streams: Cooley-Tukey (DIT,
// stream_ct_stages) or row-column 2D (stream_2d_stages), s dividing both factors (Cell paper
// Table 3(a)). With s = 1 the whole kernel is one chunk (stream_single): any split.
// Cooley-Tukey m x n: the pass reading through L(mn, m) gets packets of m/s elements, the other
// packets of n/s. A split whose smaller packet is under kStreamPacketMin elements (a cache line
// of complex doubles) must be as balanced as s allows (stream(1024)[DFT(2^24)] split 1024 x
// 16384 got single elements, 16 B per block; 4096 x 4096 gets 4).
bool fits_stream(const Tag &tag, const std::string &rule, const std::vector<int64_t> &children) {
  int64_t s = tag.params.at(0);
  if (s == 1) return true;
  bool two_stages = children.size() == 2 && (rule == "dft_ct_dit" || rule == "dft_2d_rc");
  if (!two_stages || children[0] % s || children[1] % s) return false;
  if (rule != "dft_ct_dit") return true;
  constexpr int64_t kStreamPacketMin = 4;
  const int64_t N = children[0] * children[1], packet = std::min(children[0], children[1]) / s;
  if (packet >= kStreamPacketMin) return true;
  int64_t best = s;
  for (int64_t d = s; d <= N / d; d += s)
    if (N % d == 0 && (N / d) % s == 0) best = d;
  return packet >= std::min(best / s, kStreamPacketMin);
}

// Whether a choice is one the tag right above the node asks for (other tags ask for none).
bool fits_tag(const std::optional<Tag> &tag, const std::string &rule, const std::vector<int64_t> &children, int64_t N) {
  if (!tag) return true;
  if (tag->kind == TagKind::Tiled) return fits_tiled(*tag, children, N);
  if (tag->kind == TagKind::Smp) return fits_smp(*tag, rule, children);
  if (tag->kind == TagKind::Stream) return fits_stream(*tag, rule, children);
  if (tag->kind == TagKind::Par) return fits_par(*tag, rule, children);
  return true;
}

struct Choice {
  const Rule *rule;
  rewrite::Match match;
  Spl result;
  std::vector<int64_t> children;
};

struct Candidate {
  Choice choice;
  bool fits, preferred;  // a choice the tag asks for; one of a --prefer-rules rule
  bool factorisation;    // Cooley-Tukey, Good-Thomas, multi-dimensional: children multiply to n
  double cost;           // the split heuristics (choice_cost), for factorisations
  double estimate;       // the cost model (cost_estimate.h), between families
};

// Only sub-problems below the node (is_smaller_problem): expansion terminates.
bool below(const std::vector<int64_t> &children, int64_t n) {
  return std::all_of(children.begin(), children.end(), [&](int64_t c) { return is_smaller_problem(c, n); });
}

bool is_factorisation(const std::vector<int64_t> &children, int64_t n) {
  int64_t product = 1;
  for (int64_t c : children) product *= c;
  return !children.empty() && product == n;
}

// The choice: those the tag asks for beat any other, then those of a preferred rule; among
// them the family with the lower estimate (factorisations, or Rader / Bluestein beyond them),
// within it the lowest cost for factorisations, the lowest estimate for the others. Ties go to
// the earlier candidate: rule order, then match order.
std::vector<Candidate>::iterator pick(std::vector<Candidate> &candidates) {
  if (candidates.empty()) return candidates.end();
  auto key = [](const Candidate &c) { return std::tie(c.fits, c.preferred); };
  auto top = key(*std::max_element(candidates.begin(), candidates.end(),
                                   [&](const Candidate &a, const Candidate &b) { return key(a) < key(b); }));
  std::optional<double> factored, other;  // the lowest estimate in each family
  for (const Candidate &c : candidates) {
    std::optional<double> &family = c.factorisation ? factored : other;
    if (key(c) == top) family = std::min(family.value_or(HUGE_VAL), c.estimate);
  }
  bool factor_family = factored && (!other || *factored <= *other);
  auto best = candidates.end();
  for (auto c = candidates.begin(); c != candidates.end(); ++c) {
    if (key(*c) != top || c->factorisation != factor_family) continue;
    double rank = factor_family ? c->cost : c->estimate;
    if (best == candidates.end() || rank < (factor_family ? best->cost : best->estimate)) best = c;
  }
  return best;
}

// The best candidate with its formula built; one whose rule function refuses these sizes
// (Bluestein's @trunc above its table limit) is not a choice, and the next best is taken.
std::optional<Choice> pick_built(std::vector<Candidate> &candidates, bool &fits) {
  for (auto best = pick(candidates); best != candidates.end(); best = pick(candidates)) {
    try {
      if (!best->choice.result) best->choice.result = rewrite::instantiate_spl(best->choice.rule->rhs, best->choice.match);
    } catch (const FormulaError &) {
      candidates.erase(best);
      continue;
    }
    fits = best->fits;
    return std::move(best->choice);
  }
  return std::nullopt;
}

std::string describe(const rewrite::Match &m) {
  std::string s;
  for (const auto &[name, value] : m.sizes) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", name, value);
  return s;
}

class Expander {
 public:
  Expander(const std::vector<const Rule *> &rules, const ExpandOptions &options) : rules_(rules), options_(options) {}

  // `tag`: the tag of which node is the direct child, if any (a tag-aware choice).
  RuletreePtr expand_nonterminal(const Spl &node, const std::optional<Tag> &tag) {
    auto tree = std::make_shared<Ruletree>();
    tree->node = node;
    const BreakdownRule &codelet = find_breakdown_rule("DFT_Codelet");
    auto as_codelet = [&] {
      tree->rule = codelet.name, tree->choice = codelet.choices(node).front().label, tree->expanded = node;
      return tree;
    };
    const bool top = depth_ == 0 || depth_ == real_child_depth_;
    int64_t limit = top ? options_.top_codelet_max : options_.codelet_max;
    bool split_top = top && options_.top_split_multiple > 0 && node->a > options_.top_split_multiple &&
                     node->a % options_.top_split_multiple == 0;
    if (codelet.applicable(node) && node->a <= limit && !split_top) {
      if (tag && tag->kind == TagKind::Smp)
        notes_.push_back(fmt::format("{}: one codelet, one thread", print(make_tagged(*tag, node))));
      return as_codelet();
    }
    std::vector<Candidate> candidates;
    for (const Rule *rule : rules_) {
      for (rewrite::Match &m : rewrite::matches(*rule, node)) {
        // Rank by the child sizes read off the rule text; build the formula only when needed.
        std::optional<std::vector<int64_t>> sizes = child_sizes(rule->rhs, m);
        Candidate c{{rule, m, nullptr, {}}, false, false, false, 0, 0};
        if (sizes) {
          c.choice.children = *sizes;
        } else {
          try {
            c.choice.result = rewrite::instantiate_spl(rule->rhs, m);
          } catch (const FormulaError &) {
            continue;  // a rule function refuses these sizes (Bluestein's @trunc above its table limit): not a choice
          }
          collect_dft_sizes(c.choice.result, c.choice.children);
        }
        if (!below(c.choice.children, node->a)) continue;
        c.fits = fits_tag(tag, rule->name, c.choice.children, node->a);
        c.preferred = is_preferred(rule);
        c.factorisation = is_factorisation(c.choice.children, node->a);
        c.cost = choice_cost(c.choice.children, node->a, options_);
        c.estimate = estimated_choice_cost(node->a, c.choice.children);
        candidates.push_back(std::move(c));
      }
    }
    bool best_fits = false;
    std::optional<Choice> best = pick_built(candidates, best_fits);
    if (tag && tag->kind == TagKind::Smp && !best_fits)
      notes_.push_back(fmt::format("{}: no split of {} that the smp rules make parallel at every stage; it runs "
                                   "on one thread", print(make_tagged(*tag, node)), print(node)));
    if (tag && tag->kind == TagKind::Par && !best_fits)
      notes_.push_back(fmt::format("{}: no split of {} whose stages rules/par.rules distributes (p must divide both "
                                   "factors of a split, in whole packets of mu)", print(make_tagged(*tag, node)), print(node)));
    if (!best && codelet.applicable(node)) return as_codelet();  // e.g. a prime below the limit
    if (!best && options_.closed) throw FormulaError(not_closed_message(node));
    if (!best) {
      const BreakdownRule &direct = find_breakdown_rule("DFT_Direct");
      if (!direct.applicable(node)) throw FormulaError("no breakdown rule applies to a DFT of size " + std::to_string(node->a));
      tree->rule = direct.name, tree->choice = direct.choices(node).front().label, tree->expanded = node;
      return tree;
    }
    return expand_choice(tree, *best);
  }

  // The node broken down by the chosen rule, its children expanded in turn.
  RuletreePtr expand_choice(const std::shared_ptr<Ruletree> &tree, const Choice &choice) {
    tree->rule = choice.rule->name;
    tree->choice = describe(choice.match);
    tree->source = fmt::format("{}:{}", choice.rule->pos.file, choice.rule->pos.line);
    ++depth_;
    tree->expanded = expand_children(choice.result, tree->children);
    --depth_;
    return tree;
  }

  // A real transform (docs/transforms.md): the rule whose children cost least (real
  // transforms strictly smaller or of an earlier kind, DFTs of at most its size), else a
  // leaf: an unrolled codelet from its entries when small (Real_Codelet), an O(n^2) loop.
  RuletreePtr expand_real(const Spl &node) {
    auto tree = std::make_shared<Ruletree>();
    tree->node = node;
    std::optional<Choice> best;
    double best_cost = 0;
    if (node->a > real_leaf_max(real_kind(node)) || !node->perm.empty())  // rank >= 2: by its rows and columns
      for (const Rule *rule : rules_)
        for (rewrite::Match &m : rewrite::matches(*rule, node)) {
          Choice c{rule, m, rewrite::instantiate_spl(rule->rhs, m), {}};
          std::vector<int64_t> real_sizes;
          collect_real_sizes(c.result, node, real_sizes);
          collect_dft_sizes(c.result, c.children);
          bool smaller = std::all_of(real_sizes.begin(), real_sizes.end(), [&](int64_t n) { return n < node->a; }) &&
                         std::all_of(c.children.begin(), c.children.end(), [&](int64_t n) { return n <= node->a; });
          if (!smaller) continue;
          c.children.insert(c.children.end(), real_sizes.begin(), real_sizes.end());
          double cost = choice_cost(c.children, node->a, options_);
          // --prefer-rules first, then the cost; ties go to the earlier rule.
          if (!best || std::make_pair(!is_preferred(rule), cost) < std::make_pair(!is_preferred(best->rule), best_cost))
            best = std::move(c), best_cost = cost;
        }
    if (!best) {
      tree->rule = node->rows * node->cols <= kRealCodeletEntries ? "Real_Codelet" : "Real_Direct";
      tree->choice = tree->rule == "Real_Codelet" ? "unrolled" : "O(n^2) loop";
      tree->expanded = node;
      return tree;
    }
    // Its DFT children are expanded as a spec is (the rule only adds passes around them): on
    // vector targets DFT(16), DFT(32) split into vector loops, not one scalar codelet (RDFT(32)
    // 0.95x -> 1.32x, RDFT(64) 0.60x -> 1.17x FFTW, one run each, Zen 3 AVX2).
    const int outer = std::exchange(real_child_depth_, depth_ + 1);
    RuletreePtr expanded = expand_choice(tree, *best);
    real_child_depth_ = outer;
    return expanded;
  }

  // Expands every DFT in f, recording a ruletree for each. `tag`: the tag f stands directly under.
  Spl expand_children(const Spl &f, std::vector<RuletreePtr> &trees, const std::optional<Tag> &tag = std::nullopt) {
    if (f->kind == SplKind::DFT || f->kind == SplKind::DFTnd) {
      trees.push_back(expand_nonterminal(f, tag));
      return trees.back()->expanded;
    }
    if (f->kind == SplKind::RealTransform) {
      trees.push_back(expand_real(f));
      return trees.back()->expanded;
    }
    if (f->children.empty()) return f;
    std::optional<Tag> inner = f->kind == SplKind::Tagged ? std::optional<Tag>(f->tag) : std::nullopt;
    std::vector<Spl> kids;
    for (const Spl &c : f->children) kids.push_back(expand_children(c, trees, inner));
    return with_children(f, std::move(kids));
  }

  std::vector<std::string> notes_;  // read by expand() when done

 private:
  bool is_preferred(const Rule *rule) const {
    return std::find(options_.preferred.begin(), options_.preferred.end(), rule) != options_.preferred.end();
  }

  std::string not_closed_message(const Spl &node) const {
    std::vector<std::string> names;
    for (const Rule *r : rules_) names.push_back(r->name);
    return fmt::format("--only-rules {}: no rule of the set breaks {} down into smaller DFTs, and it is above "
                       "the codelet size {}", fmt::join(names, ","), print(node),
                       depth_ == 0 ? options_.top_codelet_max : options_.codelet_max);
  }

  const std::vector<const Rule *> &rules_;
  ExpandOptions options_;
  int depth_ = 0;  // breakdown levels above the node being expanded
  int real_child_depth_ = -1;  // the depth of the DFT children of the real rule being expanded
};

}  // namespace

std::vector<const Rule *> breakdown_rules(const rewrite::RuleLibrary &library) {
  std::vector<const Rule *> out;
  for (const Rule *r : library.all())
    if ((r->lhs.kind == SplKind::DFT || r->lhs.kind == SplKind::DFTnd || r->lhs.kind == SplKind::RealTransform) &&
        !rewrite::is_sigma_term(r->rhs))
      out.push_back(r);
  return out;
}

const rewrite::RuleLibrary &shipped_rules() {
  static rewrite::RuleLibrary library;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string dir = rewrite::default_rules_dir();
    rewrite::RuleLibrary loaded;
    loaded.load(dir);
    // Without rules every DFT would silently become an O(n^2) loop.
    if (loaded.all().empty())
      throw FormulaError(fmt::format("{}{}: no rule found (no *.rules file, or only empty ones)",
                                     rewrite::rules_dir_from_environment().empty() ? "" : "SPLGEN_RULES=", dir));
    library = std::move(loaded);
  });
  return library;
}

Expansion expand(const Spl &formula, const ExpandOptions &options) {
  static const std::vector<const Rule *> rules = breakdown_rules(shipped_rules());
  return expand(formula, rules, options);
}

Expansion expand(const Spl &formula, const std::vector<const Rule *> &breakdown, const ExpandOptions &options) {
  Expansion e;
  Expander expander(breakdown, options);
  e.formula = expander.expand_children(formula, e.trees);
  e.notes = expander.notes_;
  return e;
}

}  // namespace splgen::expand
