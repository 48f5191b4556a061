// Sigma-SPL: SPL made explicit as sums (loops) of gather * kernel * scatter terms.
//   G(f): y[i] = x[f(i)]    (domain(f) x range(f) matrix)
//   S(f): y[f(i)] = x[i]    (range(f) x domain(f))
//   Sum(v < n, A_v): the sum over v of A_v; the terms write disjoint parts of the output
//   Diag(d o f): diag(d[f(i)]), d a diagonal SPL node (T or Diag)
//   Kernel(A): an SPL leaf (a DFT codelet) applied as a whole
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "generator/ir/dense.h"
#include "generator/ir/index_fn.h"
#include "generator/ir/spl.h"

namespace splgen {

enum class SigmaKind { Compose, Sum, SumList, Gather, Scatter, Diag, Kernel };
// How a Sum's iterations run (the matrix is the same): one after another, on parallel
// workers (Sum_par, the par(p,mu) rules), or streamed through a local memory with the
// transfers of neighbouring iterations overlapped (Sum_stream, the stream(s) rules).
enum class SumMode { Plain, Parallel, Stream };
struct SigmaNode;
using Sigma = std::shared_ptr<const SigmaNode>;
struct SigmaNode {
  SigmaKind kind;
  int64_t rows = 0, cols = 0;
  std::vector<Sigma> children;  // Compose (rightmost applied first), SumList, Sum (one body)
  LoopVar var;                  // Sum
  SumMode mode = SumMode::Plain;  // Sum
  bool dma = false;             // Gather, Scatter: an explicit block transfer (G_dma, S_dma)
  // Scatter (S_dma): puts, for every chunk, exactly the positions the G_dma of its chunk got, as
  // a set, by construction (lower/inplace_passes.cpp), so the in-place check need not
  // enumerate them (n points per pass: minutes and GBs beyond 2^25).
  bool put_back = false;
  IndexFn fn;                   // Gather, Scatter, Diag (positions into `source`)
  Spl source;                   // Diag: the diagonal (T or Diag node); Kernel: the leaf
  std::size_t hash = 0;         // set by the factories; equal nodes have equal hashes
};

// Structural equality (kind, shape, loop variable and mode, index functions, sources,
// children), as for SPL; loop variables are compared by id, not up to renaming.
bool operator==(const SigmaNode &x, const SigmaNode &y);
bool equal(const Sigma &x, const Sigma &y);
// The largest loop variable id a Sum of s binds, -1 if none: new loops number after it.
int max_sum_var(const Sigma &s);
struct SigmaHash {
  std::size_t operator()(const Sigma &s) const { return s->hash; }
};
struct SigmaEqual {
  bool operator()(const Sigma &x, const Sigma &y) const { return equal(x, y); }
};

Sigma sigma_compose(std::vector<Sigma> factors);  // flattens, checks dimensions
Sigma sigma_sum(LoopVar var, Sigma body, SumMode mode = SumMode::Plain);
Sigma sigma_sum_list(std::vector<Sigma> terms);
Sigma sigma_gather(IndexFn f, bool dma = false);
Sigma sigma_scatter(IndexFn f, bool dma = false, bool put_back = false);
Sigma sigma_diag(Spl source, IndexFn f);
Sigma sigma_kernel(Spl leaf);

// The value of diagonal entry p of a diagonal SPL node (T or Diag).
cplx diag_entry(const Spl &source, int64_t p);

Matrix to_dense(const Sigma &s);
std::string print(const Sigma &s);  // multi-line, indented

// Sigma-SPL with every free loop variable replaced: for evaluating nested bodies.
Matrix to_dense(const Sigma &s, Env &env);
// y = s x without forming the matrix, the free loop variables given by env.
std::vector<cplx> apply_to(const Sigma &s, const std::vector<cplx> &x, Env &env);

}  // namespace splgen
