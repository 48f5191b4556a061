// AST of the formula language (docs/formula-language.md), produced by the X3 grammar in
// formula_grammar_def.h and turned into SPL by formula_parser.cpp. Nodes that can be named
// in an error message derive from x3::position_tagged; their source positions live in the
// x3::position_cache held by the error handler (error_handler.h).
#pragma once
#include <boost/optional.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "generator/ir/spl.h"
#include "generator/parse/chain_ast.h"

namespace splgen::parse::ast {

namespace x3 = boost::spirit::x3;

// I(n), L(N,s), T(N,n[,k]), Perm(p0, p1, ...) (chain_ast.h): the argument values are
// checked in the conversion.
using call = chain_ast::sized_atom<int64_t>;

// DFT(n[,k]) and the multi-dimensional DFT(n1 x n2 x ...[,k]).
using dft = chain_ast::dft<int64_t>;

// RDFT(n), WHT(n), DCT2(n) ... (generator/ir/real_kind.h).
using real_transform = chain_ast::real_atom<int64_t>;

// re + im i; written as "re", "im i" or "re+im i" / "re-im i".
struct complex_number {
  double re = 0.0;
  double im = 0.0;
};

// Diag(v0, v1, ...)
struct diag : x3::position_tagged {
  std::vector<complex_number> values;
};

// Mat(rows, cols, [v00, v01, ...]): a dense matrix, entries row-major.
struct dense : x3::position_tagged {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<complex_number> values;
};

struct tagged;
struct fence_expr;

// A leaf, a tagged subformula or a parenthesised formula.
struct atom : x3::variant<call, dft, real_transform, diag, dense, x3::forward_ast<tagged>, x3::forward_ast<fence_expr>> {
  using base_type::base_type;
  using base_type::operator=;
};

// The operators over atoms (chain_ast.h). A tile chain has at most two operands here: the
// grammar rejects a second "(x)~".
using postfix_expr = chain_ast::postfix_expr<atom>;
using tensor_expr = chain_ast::tensor_expr<atom>;
using tile_expr = chain_ast::tile_expr<atom>;
using dsum_expr = chain_ast::dsum_expr<atom>;
using compose_expr = chain_ast::compose_expr<atom>;
struct fence_expr : chain_ast::fence_chain<atom> {};

// vec(4)[ formula ], smp(2,4)[ formula ], ...
struct tagged : chain_ast::tagged<int64_t, fence_expr> {};

using formula = fence_expr;

}  // namespace splgen::parse::ast
