// AST of the rule language (docs/rule-language.md), produced by the X3 grammar in
// rule_grammar_def.h and turned into RuleFile (generator/ir/rule.h) by
// rule_parser.cpp. The nodes that become a Term, Condition, Rule or RuleSetDecl derive from
// x3::position_tagged; their source positions live in the x3::position_cache held by the
// error handler (rule_error_handler.h).
//
// Operator chains are kept as written (first operand, then the rest), as in the X3 "calc"
// examples; the conversion folds them (left for binary size operators, right for '^') and
// flattens the n-ary formula operators. The formula operators are those of the formula
// language (chain_ast.h) over this language's primaries.
#pragma once
#include <boost/optional.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "generator/ir/index_fn.h"
#include "generator/ir/sigma.h"
#include "generator/ir/spl.h"
#include "generator/ir/rule.h"
#include "generator/parse/chain_ast.h"

namespace splgen::parse::rule_ast {

namespace x3 = boost::spirit::x3;

// ------------------------------------------------------------------ size expressions

struct size_sum;

// integer | size variable | '(' size_sum ')'
struct size_primary : x3::variant<int64_t, std::string, x3::forward_ast<size_sum>> {
  using base_type::base_type;
  using base_type::operator=;
};

// base ^ e1 ^ e2 ...  (right associative: base ^ (e1 ^ e2))
struct size_power {
  size_primary base;
  std::vector<size_primary> exponents;
};

// - - value  (one '-' per unary minus)
struct size_unary {
  std::string minuses;
  size_power value;
};

// unary (('*' | '/' | '%') unary)*
struct size_product_op {
  char op = '*';
  size_unary operand;
};
struct size_product {
  size_unary first;
  std::vector<size_product_op> rest;
};

// product (('+' | '-') product)*
struct size_sum_op {
  char op = '+';
  size_product operand;
};
struct size_sum {
  size_product first;
  std::vector<size_sum_op> rest;
};

using size_expr = size_sum;

// ------------------------------------------------------------------ formulas

struct fence_expr;
struct sum_term;
struct tagged_term;
struct diag_term;

// DFT(n), DFT(n, k), DFT(m x n [x ...] [, k]) (chain_ast.h)
using dft_term = chain_ast::dft<size_expr>;

// RDFT(n), WHT(n), DCT2(n) ... (chain_ast.h)
using real_term = chain_ast::real_atom<size_expr>;

// I(n), L(N, s), T(N, n [, k]) (chain_ast.h)
using sized_atom = chain_ast::sized_atom<size_expr>;

// A, A[m], A[r, c]
struct formula_var : x3::position_tagged {
  std::string name;
  std::vector<size_expr> shape;
};

// @name(e1, e2, ...)
struct function_call : x3::position_tagged {
  std::string name;
  std::vector<size_expr> args;
};

// h(b, s), q(b, s, mu)
struct index_fn {
  FnKind kind = FnKind::H;
  std::vector<size_expr> args;
};

// G(f), S(f), G_dma(f), S_dma(f)
enum class access_kind { gather, scatter, gather_dma, scatter_dma };
struct access : x3::position_tagged {
  access_kind kind = access_kind::gather;
  index_fn fn;
};

// A formula unit: an atom, a tagged formula, a sum, or a parenthesised formula.
struct primary : x3::variant<dft_term, real_term, sized_atom, formula_var, function_call, access, x3::forward_ast<sum_term>,
                             x3::forward_ast<tagged_term>, x3::forward_ast<diag_term>, x3::forward_ast<fence_expr>> {
  using base_type::base_type;
  using base_type::operator=;
};

// The operators over primaries (chain_ast.h).
using postfix_expr = chain_ast::postfix_expr<primary>;
using tensor_expr = chain_ast::tensor_expr<primary>;
using tile_expr = chain_ast::tile_expr<primary>;
using dsum_expr = chain_ast::dsum_expr<primary>;
using compose_expr = chain_ast::compose_expr<primary>;
struct fence_expr : chain_ast::fence_chain<primary> {};

// Sum(j < n) body, Sum_par(...), Sum_stream(...): the body is the rest of the composition
// (docs/rule-language.md, "Sigma-SPL").
struct sum_term : x3::position_tagged {
  SumMode mode = SumMode::Plain;
  std::string var;
  size_expr bound;
  compose_expr body;
};

// tag(e1, ...)[ formula ]
struct tagged_term : chain_ast::tagged<size_expr, fence_expr> {};

// Diag(D o f): the diagonal D read through the index function f (Sigma-SPL)
struct diag_term : x3::position_tagged {
  fence_expr source;
  index_fn fn;
};

using formula = fence_expr;

// ------------------------------------------------------------------ conditions

// lhs op rhs, op in == != < <= > >=
struct compare_tail {
  std::string op;
  size_expr rhs;
};
// lhs in lo..hi
struct range_tail {
  size_expr lo;
  size_expr hi;
};
struct relation_tail : x3::variant<compare_tail, range_tail> {
  using base_type::base_type;
  using base_type::operator=;
};
struct relation : x3::position_tagged {
  size_expr lhs;
  relation_tail tail;
};

// divides(a, b), coprime(a, b), prime(a), pow2(a)
struct predicate : x3::position_tagged {
  ConditionKind kind = ConditionKind::Divides;
  std::vector<size_expr> args;
};

// let x = e
struct let_binding : x3::position_tagged {
  std::string name;
  size_expr value;
};

struct condition : x3::variant<predicate, let_binding, relation> {
  using base_type::base_type;
  using base_type::operator=;
};

// ------------------------------------------------------------------ statements

// rule NAME: LEFT => RIGHT [if COND, ...];
struct rule_decl : x3::position_tagged {
  std::string name;
  formula lhs;
  formula rhs;
  std::vector<condition> conditions;
};

// ruleset NAME = r1, r2, ...;
struct ruleset_decl : x3::position_tagged {
  std::string name;
  std::vector<std::string> rules;
};

struct statement : x3::variant<rule_decl, ruleset_decl> {
  using base_type::base_type;
  using base_type::operator=;
};

using rule_file = std::vector<statement>;

}  // namespace splgen::parse::rule_ast
