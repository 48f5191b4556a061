// The definitions of the shared AST (chain_ast.h: the SPL leaves and the operator levels),
// used by the formula grammar (formula_grammar_def.h) and the rule grammar
// (rule_grammar_def.h). Each grammar declares its own rules (their names are what error
// messages say was expected) and defines them with these, passing its own size and argument
// rules; keywords and operator tokens come from the name table (generator/ir/spl_kind.h).
#pragma once
#include <boost/spirit/home/x3.hpp>

#include "generator/ir/spl_kind.h"
#include "generator/parse/keyword.h"

namespace splgen::parse::chain_grammar {

namespace x3 = boost::spirit::x3;

// DFT '(' dims [',' root] ')'
template <typename Dims, typename Root>
auto dft(const Dims &dims, const Root &root) {
  return keyword(SplKind::DFT) > '(' > dims > -(',' > root) > ')';
}

// RDFT, IRDFT, WHT, DCTk, DSTk '(' dims ')'
template <typename Dims>
auto real_atom(const Dims &dims) {
  return keyword(real_keywords) > '(' > dims > ')';
}

// I, L, T, Perm '(' args ')': the args rule fixes the arity.
template <typename Args>
auto sized_atom(SplKind kind, const Args &args) {
  return keyword(kind) >> x3::attr(kind) > '(' > args > ')';
}

// tag '(' params ')' '[' body ']'
template <typename Params, typename Body>
auto tagged(const Params &params, const Body &body) {
  return keyword(tag_keywords) > '(' > params > ')' > '[' > body > ']';
}

// The token of a chain's operator: "(x)~", "(+)", "*", "|" (the grammars spell "(x)" so that
// it is not the start of "(x)~").
inline auto token(SplKind op) { return x3::lit(kind_token(op)); }

// postfix := leaf "'"*
template <typename Leaf>
auto postfix(const Leaf &leaf) {
  return leaf >> *x3::char_('\'');
}

// operand (op operand)*: once the operator is seen, an operand is expected.
template <typename Operator, typename Operand>
auto chain(const Operator &op, const Operand &operand) {
  return operand >> *(op > operand);
}

}  // namespace splgen::parse::chain_grammar
