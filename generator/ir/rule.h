// Rules as data (docs/rule-language.md): the syntax tree of rule files, shared by the
// parser (generator/parse/rule_*), the matcher and instantiator (generator/rewrite/), the
// checker and the CLI. One Term type serves left sides (patterns over SPL, or over Sigma-SPL)
// and right sides (SPL, or Sigma-SPL with sums, gathers, scatters and diagonals).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "generator/ir/sigma.h"
#include "generator/ir/spl.h"

namespace splgen {

struct SourcePos {
  std::string file;  // "rules/dft.rules" or "<command line>"
  int line = 0, column = 0;
};

// Integer arithmetic on size variables: 4, n, m*n, n/p, n^2, (k+1) % m, -1.
enum class SizeOp { Const, Var, Add, Sub, Mul, Div, Mod, Pow, Neg };
struct SizeExpr {
  SizeOp op = SizeOp::Const;
  int64_t value = 0;             // Const
  std::string name;              // Var
  std::vector<SizeExpr> args;    // operands (1 for Neg, 2 otherwise)
};

enum class TermKind {
  // SPL
  DFT,          // sizes: n [, k]
  DFTnd,        // sizes: n1, n2, ... ; `k` optional via root (below)
  Identity,     // I(n)
  Stride,       // L(N, s)
  Twiddle,      // T(N, n [, k])
  Tensor,       // children, (x)
  TileTensor,   // children[0] (x)~ children[1]
  Compose,      // children, *
  Fence,        // children, |
  DirectSum,    // children, (+)
  Tagged,       // tag(sizes...)[ children[0] ]
  Transpose,    // children[0]'
  FormulaVar,   // A, or A[m] (m x m), or A[r, c]: matches any formula of that shape
  Call,         // @name(sizes...): an SPL formula computed by a registered C++ function
  // Sigma-SPL (either side; a left side with Sigma-SPL is matched against Sigma-SPL)
  Sum,          // Sum(j < n) body; mode Plain, Parallel (Sum_par), Stream (Sum_stream); name = j, sizes = {n}
  Gather,       // G(f), G_dma(f)
  Scatter,      // S(f), S_dma(f)
  Diag,         // Diag(D o f): diag(D[f(i)]); children[0] = D (a diagonal: T, or a formula variable)
};

// h(b, s) or q(b, s, mu); domain and range come from where the gather/scatter/diagonal stands.
struct IndexFnTerm {
  FnKind kind = FnKind::H;     // H or Q
  std::vector<SizeExpr> args;  // (b, s) or (b, s, mu)
};

struct Term {
  TermKind kind = TermKind::Identity;
  std::vector<SizeExpr> sizes;  // see TermKind
  SizeExpr root;                // DFTnd: the root exponent k (Const 1 when absent)
  bool has_root = false;        // DFTnd: written with ",k"
  TagKind tag = TagKind::Vec;   // Tagged
  std::string name;             // FormulaVar / Call / Sum loop variable
  std::vector<SizeExpr> shape;  // FormulaVar: {} (any), {m} (m x m) or {rows, cols}
  std::vector<Term> children;
  SumMode mode = SumMode::Plain;  // Sum
  bool dma = false;               // Gather / Scatter
  IndexFnTerm fn;                 // Gather / Scatter / Diag
  SourcePos pos;
};

enum class ConditionKind {
  Compare,   // lhs op rhs, op in == != < <= > >=
  Divides,   // divides(a, b): a | b
  Coprime,   // coprime(a, b)
  Prime,     // prime(a)
  PowerOf2,  // pow2(a)
  Range,     // a in lo..hi (inclusive)
  Let,       // let x = expr: defines a size variable from bound ones
};
struct Condition {
  ConditionKind kind = ConditionKind::Compare;
  std::string op;              // Compare
  std::vector<SizeExpr> args;  // Compare: {lhs, rhs}; Divides/Coprime: {a, b}; Prime/PowerOf2: {a}; Range: {a, lo, hi}; Let: {expr}
  std::string name;            // Let
  SourcePos pos;
};

struct Rule {
  std::string name;                   // unique within a rule set
  std::string family;                 // file stem: dft, sigma, par, stream, ...
  std::string comment;                // the comment lines above the rule (math and source)
  std::string text;                   // "LEFT => RIGHT [if ...]" as written, whitespace collapsed
  Term lhs, rhs;
  std::vector<Condition> conditions;  // all must hold (in order; Let binds for later ones)
  SourcePos pos;
};

// A named group of rules applied together by a strategy (docs/rule-language.md, "Rule sets").
struct RuleSetDecl {
  std::string name;
  std::vector<std::string> rules;
  SourcePos pos;
};

struct RuleFile {
  std::string path;
  std::vector<Rule> rules;
  std::vector<RuleSetDecl> sets;
};

}  // namespace splgen
