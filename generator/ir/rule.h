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

// h(b, s) or q(b, s, mu); domain and range come from where the gather/scatter/diagonal stands.
struct IndexFnTerm {
  FnKind kind = FnKind::H;     // H or Q
  std::vector<SizeExpr> args;  // (b, s) or (b, s, mu)
};

// A formula term. Its kind is an SplKind (generator/ir/spl_kind.h): the SPL constructs, and
// the kinds only rules write (TileTensor, Fence, Transpose, FormulaVar, Call, Sum, Gather, Scatter).
struct Term {
  SplKind kind = SplKind::Identity;  // DFT, DFTnd, I, L, T, the operators, Tagged, and the rule-only kinds
  std::vector<SizeExpr> sizes;       // DFT: n [, k]; DFTnd: n1, n2, ...; I: n; L: N, s; T: N, n [, k]; Tagged,
                                     // Call: their parameters; Sum: the bound n of Sum(j < n)
  SizeExpr root;                // DFTnd: the root exponent k (Const 1 when absent)
  bool has_root = false;        // DFTnd: written with ",k"
  TagKind tag = TagKind::Vec;   // Tagged
  RealKind real = RealKind::RDFT;  // RealTransform (sizes: n)
  std::string name;             // FormulaVar / Call / Sum loop variable
  std::vector<SizeExpr> shape;  // FormulaVar: {} (any), {m} (m x m) or {rows, cols}
  std::vector<Term> children;     // the operands; Tagged, Transpose, Sum: the body; TileTensor: 2;
                                  // Diag (Diag(D o f), Sigma-SPL): children[0] = D
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
