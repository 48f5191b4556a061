// The part of the AST that the formula language (formula_ast.h) and the rule language
// (rule_ast.h) share: the SPL leaves both write (DFT, I, L, T, tags), over their own size
// type (Size: int64_t in formulas, a size expression in rules), and the operator chains, with
// the same operators, precedence and associativity over each language's leaves (Leaf: an
// atom; in rules also pattern variables, calls and Sigma-SPL). Tightest first:
//
//   postfix := leaf "'"*                       transpose, once per quote
//   tensor  := postfix ("(x)" postfix)*
//   tile    := tensor ("(x)~" tensor)*           the formula grammar allows one "(x)~"
//   dsum    := tile ("(+)" tile)*
//   compose := dsum ("*" dsum)*                  the rightmost factor is applied first
//   fence   := compose ("|" compose)*            stages separated by memory fences
//
// Chains are kept as written (first operand, then the rest), as in the X3 "calc" examples;
// each converter folds them (formula_parser.cpp, rule_parser.cpp). The fence level is a
// struct of each language (it closes the recursion through brackets); it derives from
// fence_chain<Leaf>.
#pragma once
#include <boost/optional.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <string>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::parse::chain_ast {

namespace x3 = boost::spirit::x3;

// ------------------------------------------------------------------ leaves

// DFT(n[, k]) and the multi-dimensional DFT(n1 x n2 x ...[, k]).
template <typename Size>
struct dft : x3::position_tagged {
  std::vector<Size> dims;
  boost::optional<Size> root;
};

// RDFT(n), IRDFT(n), WHT(n), DCT2(n) ... DST4(n) (generator/ir/real_kind.h); dims as for DFT,
// so that RDFT(m x n) reads as one (the conversion says what is not built).
template <typename Size>
struct real_atom : x3::position_tagged {
  RealKind kind = RealKind::RDFT;
  std::vector<Size> dims;
};

// I(n), L(N, s), T(N, n [, k]), and in formulas Perm(p0, p1, ...): kind is Identity, Stride,
// Twiddle or Perm; the arity is part of the syntax.
template <typename Size>
struct sized_atom : x3::position_tagged {
  SplKind kind = SplKind::Identity;
  std::vector<Size> args;
};

// vec(4)[ body ], smp(2, 4)[ body ], ...: the body is the language's fence_expr, so each
// language derives its own struct (it closes the recursion).
template <typename Size, typename Body>
struct tagged : x3::position_tagged {
  TagKind kind = TagKind::Vec;
  std::vector<Size> params;
  Body body;
};

// ------------------------------------------------------------------ operators

// The operator of a chain: Tensor, TileTensor, DirectSum, Compose or Fence.
template <SplKind Kind>
struct op {
  static constexpr SplKind kind = Kind;
};

// leaf ' ' ...: the leaf, transposed once per "'" (primes holds them).
template <typename Leaf>
struct postfix_expr : x3::position_tagged {
  Leaf base;
  std::string primes;
};

// operand (Operator operand)*
template <typename Operator, typename Operand>
struct chain : x3::position_tagged {
  static constexpr SplKind kind = Operator::kind;
  Operand first;
  std::vector<Operand> rest;
};

template <typename Leaf>
using tensor_expr = chain<op<SplKind::Tensor>, postfix_expr<Leaf>>;
template <typename Leaf>
using tile_expr = chain<op<SplKind::TileTensor>, tensor_expr<Leaf>>;
template <typename Leaf>
using dsum_expr = chain<op<SplKind::DirectSum>, tile_expr<Leaf>>;
template <typename Leaf>
using compose_expr = chain<op<SplKind::Compose>, dsum_expr<Leaf>>;
template <typename Leaf>
using fence_chain = chain<op<SplKind::Fence>, compose_expr<Leaf>>;

}  // namespace splgen::parse::chain_ast
