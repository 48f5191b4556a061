// AST of the formula language (docs/formula-language.md), produced by the X3 grammar in
// formula_grammar_def.h and turned into SPL by formula_parser.cpp. Nodes that can be named
// in an error message derive from x3::position_tagged; their source positions live in the
// x3::position_cache held by the error handler (error_handler.h).
#pragma once
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::parse::ast {

namespace x3 = boost::spirit::x3;

// The atoms written as NAME(int, ...): their argument lists are checked in the conversion.
enum class call_kind { dft, identity, stride, twiddle, perm };

// DFT(n[,k]), I(n), L(N,s), T(N,n[,k]), Perm(p0, p1, ...)
struct call : x3::position_tagged {
  call_kind kind = call_kind::dft;
  std::vector<int64_t> args;
};

// re + im i; written as "re", "im i" or "re+im i" / "re-im i".
struct complex_number {
  double re = 0.0;
  double im = 0.0;
};

// Diag(v0, v1, ...)
struct diag : x3::position_tagged {
  std::vector<complex_number> values;
};

struct tagged;
struct compose_expr;

// An operand of (x): a leaf, a tagged subformula or a parenthesised formula.
struct atom : x3::variant<call, diag, x3::forward_ast<tagged>, x3::forward_ast<compose_expr>> {
  using base_type::base_type;
  using base_type::operator=;
};

// atom (x) atom (x) ...
struct tensor_expr : x3::position_tagged {
  atom first;
  std::vector<atom> rest;
};

// tensor (+) tensor (+) ...
struct dsum_expr : x3::position_tagged {
  tensor_expr first;
  std::vector<tensor_expr> rest;
};

// dsum * dsum * ... (the rightmost factor is applied first)
struct compose_expr : x3::position_tagged {
  dsum_expr first;
  std::vector<dsum_expr> rest;
};

// vec(4)[ formula ], smp(2,4)[ formula ], ...
struct tagged : x3::position_tagged {
  TagKind kind = TagKind::Vec;
  std::vector<int64_t> params;
  compose_expr body;
};

using formula = compose_expr;

}  // namespace splgen::parse::ast
