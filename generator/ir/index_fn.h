// Sigma-SPL index functions f: [0, domain) -> [0, range). Bases may depend on loop variables.
//   h(b, s):      i -> b + i*s
//   q(b, s, mu):  i -> (b + floor(i/mu)*s)*mu + (i mod mu)     (strided packets of mu elements)
//   l(N, m):      the gather function of L(N, m): i*n + j -> j*m + i  (n = N/m)
//   l(a; N, m; mu): of I(a) (x) L(N, m) (x) I(mu): packets of mu, within each of a blocks of
//                 N mu (a digit swap; the block layouts' transfers, docs/streaming.md)
//   table(p; mu): i -> p[i / mu] mu + i mod mu  (packets of mu; mu = 1: a permutation table)
//   v(n, s, d):   i -> (i / n)*d + (i mod n)*s    (FFTW's howmany/stride/dist layout of a
//                 batch of transforms of n elements; docs/transforms.md, "Layouts")
//   f o g:        i -> f(g(i))
// compose() simplifies h o h, l o h (the loop-merging cases of Cooley-Tukey) and identities.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generator/ir/affine.h"
#include "generator/ir/loops.h"

namespace splgen {

enum class FnKind { H, Q, Stride, Table, Compose, Layout };
struct IndexFnNode;
using IndexFn = std::shared_ptr<const IndexFnNode>;
struct IndexFnNode {
  FnKind kind;
  int64_t domain = 0, range = 0;
  Affine base;                                       // H, Q
  int64_t s = 1, mu = 1;                             // H: stride; Q: s, mu; Stride: m, mu; Layout: s, n; Table: mu
  int64_t outer = 1;                                 // Stride: a; Layout: d
  std::shared_ptr<const std::vector<int64_t>> table; // Table
  // Table, mu = 1: i -> (n - i) mod n (Bluestein's DFT(M, -1) = reverse(M) DFT(M)), applied
  // as that expression: no table in the kernel (8 bytes of source a point of M = 2^21)
  bool reversal = false;
  IndexFn f, g;                                      // Compose: f o g
};

IndexFn fn_h(int64_t domain, int64_t range, Affine base, int64_t stride);
IndexFn fn_q(int64_t domain, int64_t range, Affine base, int64_t s, int64_t mu);
IndexFn fn_stride(int64_t N, int64_t m);
IndexFn fn_stride(int64_t a, int64_t N, int64_t m, int64_t mu);  // I(a) (x) L(N, m) (x) I(mu)
IndexFn fn_table(std::vector<int64_t> table, int64_t mu = 1);
// v(n, s, d) over howmany blocks (s >= 1, d >= 0); an h or l where it is one (d = n s: h;
// s = howmany, d = 1: l(howmany n, howmany)).
IndexFn fn_layout(int64_t howmany, int64_t n, int64_t stride, int64_t dist);
IndexFn fn_identity(int64_t n);
IndexFn compose(const IndexFn &f, const IndexFn &g);  // f o g

bool is_identity(const IndexFn &f);
bool same(const IndexFn &f, const IndexFn &g);  // structural equality
std::size_t hash_value(const IndexFn &f);      // equal for same() functions
// The inverse of a bijective function (domain == range), when it is known symbolically.
std::optional<IndexFn> inverse(const IndexFn &f);

// f with loop variable `from` renamed `to` (of the same extent).
IndexFn rename_var(const IndexFn &f, int from, const LoopVar &to);

int64_t eval(const IndexFn &f, int64_t i, const Env &env);
// points[j] = f(points[j]) for every j: eval() of many points, the loop variables looked up once.
void eval_each(const IndexFn &f, std::vector<int64_t> &points, const Env &env);
Idx apply_index(const IndexFn &f, const Idx &i);  // symbolic, simplified with the variables' ranges
std::string to_string(const IndexFn &f);

}  // namespace splgen
