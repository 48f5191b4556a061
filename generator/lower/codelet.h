// Straight-line DFT codelets, genfft style: the DFT is expanded symbolically on complex
// values built from loop-IR expressions. The expression factories drop multiplications by
// 0 and +-1, multiplications by +-i become swaps, and structurally equal subexpressions are
// shared when the DAG is scheduled (common subexpression elimination).
#pragma once
#include <vector>

#include "generator/ir/loops.h"

namespace splgen::lower {

struct CExpr {
  Expr re, im;
};
CExpr c_add(const CExpr &x, const CExpr &y);
CExpr c_sub(const CExpr &x, const CExpr &y);
CExpr c_mul(const CExpr &x, const CExpr &y);
CExpr c_const(cplx v);
// x * w_n^e, exact for the eighth roots of unity.
CExpr c_mul_root(const CExpr &x, int64_t n, int64_t e);

// DFT(n, k) of x (n = x.size()) by dft_algorithms::dft: Good-Thomas for coprime splits,
// else Cooley-Tukey with the most balanced split, primes by the symmetric direct formula.
std::vector<CExpr> symbolic_dft(const std::vector<CExpr> &x, int64_t k);

// Schedules a DAG: every operation and load gets a scalar (shared when equal), in
// dependency order; `stores` (buffer, index, part, value) come last, after every load.
struct PendingStore {
  int buffer;
  Idx index;
  int part;
  Expr value;
};
Stmt schedule(const std::vector<PendingStore> &stores, int &next_scalar);

}  // namespace splgen::lower
