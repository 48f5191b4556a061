// Rule definitions of the formula grammar (docs/formula-language.md):
//
//   formula := fence
//   fence   := compose ('|' compose)*
//   compose := dsum ('*' dsum)*
//   dsum    := tile ('(+)' tile)*
//   tile    := tensor ['(x)~' tensor]          (a second '(x)~' is an error: no chains)
//   tensor  := postfix ('(x)' postfix)*
//   postfix := atom ("'")*
//   atom    := 'DFT' '(' int ('x' int)* [',' int] ')' | 'I' '(' int ')' | 'L' '(' int ',' int ')'
//            | 'T' '(' int ',' int [',' int] ')' | 'Diag' '(' complex (',' complex)* ')'
//            | 'Mat' '(' int ',' int ',' '[' complex (',' complex)* ']' ')'
//            | 'Perm' '(' int (',' int)* ')' | tagname '(' int (',' int)* ')' '[' formula ']'
//            | '(' formula ')'
//   complex := real | real 'i' | real ('+'|'-') real 'i'
//
// Whitespace is skipped between tokens. Keywords are whole words ("Ix" is not "I" then "x").
// The operator tokens "(x)", "(x)~" and "(+)" have no spaces inside; "(x)" is "(x)" not
// followed by '~'. In DFT(3 x 4) the dimension separator is the letter 'x' between two
// integers ("3x4" is fine too); there is no other place where a bare 'x' is a token.
// Once the first token of a construct is seen, the rest is an expectation (`>`): a missing
// piece is reported as "expected <what>" (error_handler.h) instead of backtracking.
// Include this file in exactly one translation unit (formula_parser.cpp).
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "generator/parse/chain_grammar_def.h"
#include "generator/parse/error_handler.h"
#include "generator/parse/formula_ast.h"
#include "generator/parse/formula_ast_adapted.h"
#include "generator/parse/formula_grammar.h"
#include "generator/parse/keyword.h"

namespace splgen::parse {

namespace grammar {

using x3::lexeme;
using x3::lit;

// A real number, with the same syntax as x3::double_ (including inf and nan), converted
// with std::from_chars so that printed doubles read back bit for bit.
struct exact_real_parser : x3::parser<exact_real_parser> {
  using attribute_type = double;
  static bool const has_attribute = true;

  bool allow_sign = true;
  constexpr explicit exact_real_parser(bool allow_sign_) : allow_sign(allow_sign_) {}

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator &first, const Iterator &last, const Context &context, RContext &, Attribute &attr) const {
    x3::skip_over(first, last, context);
    if (first == last) return false;
    if (!allow_sign && (*first == '+' || *first == '-')) return false;
    Iterator end = first;
    double approximate = 0.0;
    if (!x3::double_.parse(end, last, x3::unused, x3::unused, approximate)) return false;
    const char *begin_ptr = std::to_address(first);
    const char *end_ptr = std::to_address(end);
    if (*begin_ptr == '+') ++begin_ptr;  // from_chars takes no '+'
    double value = 0.0;
    auto [ptr, ec] = std::from_chars(begin_ptr, end_ptr, value);
    if (ec != std::errc() || ptr != end_ptr) value = approximate;
    // An entry that is not finite (inf, nan, 1e999) makes no kernel: refused where it stands.
    if (!std::isfinite(value))
      x3::get<x3::error_handler_tag>(context).get().fail(
          first, "a number must be finite, got '" + std::string(std::to_address(first), end_ptr) + "'");
    x3::traits::move_to(value, attr);
    first = end;
    return true;
  }
};

constexpr exact_real_parser real_number{true};
constexpr exact_real_parser unsigned_real_number{false};

// Semantic actions.
const auto set_real = [](auto &ctx) { x3::_val(ctx).re = x3::_attr(ctx); };
const auto set_imag = [](auto &ctx) { x3::_val(ctx).im = x3::_attr(ctx); };
const auto set_neg_imag = [](auto &ctx) { x3::_val(ctx).im = -x3::_attr(ctx); };
// b^e, as sizes are usually written (DFT(2^20)); a negative exponent or a value above 2^62
// in magnitude does not parse (the error then points at the number). At most 63 steps for
// any exponent (0^e, 1^e and (-1)^e are computed without the loop).
inline std::optional<int64_t> bounded_power(int64_t base, int64_t exponent) {
  constexpr int64_t kLimit = int64_t(1) << 62;
  if (exponent < 0) return std::nullopt;
  if (exponent == 0) return 1;
  if (base == 0 || base == 1) return base;
  if (base == -1) return exponent % 2 ? -1 : 1;
  int64_t value = 1;
  for (int64_t e = 0; e < exponent; ++e)
    if (__builtin_mul_overflow(value, base, &value) || value > kLimit || value < -kLimit) return std::nullopt;
  return value;
}
const auto set_power = [](auto &ctx) {
  const int64_t base = boost::fusion::at_c<0>(x3::_attr(ctx));
  const auto &exponent = boost::fusion::at_c<1>(x3::_attr(ctx));
  const std::optional<int64_t> value = exponent ? bounded_power(base, *exponent) : base;
  x3::_pass(ctx) = value.has_value();
  x3::_val(ctx) = value.value_or(0);
};
const auto reject_name = [](auto &ctx) {
  const auto &range = x3::_attr(ctx);
  std::string name(range.begin(), range.end());
  if (name.size() > 40) name = name.substr(0, 40) + "...";
  x3::get<x3::error_handler_tag>(ctx).get().fail(range.begin(), "unknown name '" + name + "'");
};
// "(x)~" does not chain: "A (x)~ B (x)~ C" could mean either nesting of the tile loops.
const auto reject_chained_tile = [](auto &ctx) {
  x3::get<x3::error_handler_tag>(ctx).get().fail(
      x3::_attr(ctx).begin(), "'(x)~' does not chain: write (A (x)~ B) (x)~ C or A (x)~ (B (x)~ C)");
};

// Rule IDs: the rules producing position_tagged nodes record their source positions.
struct integer_class;
struct real_class;
struct imaginary_class;
struct complex_class;
struct args_1_class;
struct args_2_class;
struct args_2_3_class;
struct args_n_class;
struct dft_dims_class;
struct complex_list_class;
struct dft_class : x3::annotate_on_success {};
struct real_transform_class : x3::annotate_on_success {};
struct identity_class : x3::annotate_on_success {};
struct stride_class : x3::annotate_on_success {};
struct twiddle_class : x3::annotate_on_success {};
struct perm_class : x3::annotate_on_success {};
struct diag_class : x3::annotate_on_success {};
struct dense_class : x3::annotate_on_success {};
struct tagged_class : x3::annotate_on_success {};
struct unknown_name_class;
struct atom_class;
struct postfix_class : x3::annotate_on_success {};
struct tensor_class : x3::annotate_on_success {};
struct chained_tile_class;
struct tile_rest_class;
struct tile_class : x3::annotate_on_success {};
struct dsum_class : x3::annotate_on_success {};
struct compose_class : x3::annotate_on_success {};
struct fence_class : x3::annotate_on_success {};
struct end_of_input_class;
struct formula_text_class : error_handler_base {};

// The rule names are what error messages say was expected.
const x3::rule<integer_class, int64_t> integer = "an integer";
const x3::rule<real_class, double> real = "a number";
const x3::rule<imaginary_class, double> imaginary_magnitude = "an imaginary number";
const x3::rule<complex_class, ast::complex_number> complex = "a complex number";
const x3::rule<args_1_class, std::vector<int64_t>> args_1 = "an integer";
const x3::rule<args_2_class, std::vector<int64_t>> args_2 = "an integer";
const x3::rule<args_2_3_class, std::vector<int64_t>> args_2_3 = "an integer";
const x3::rule<args_n_class, std::vector<int64_t>> args_n = "an integer";
const x3::rule<dft_dims_class, std::vector<int64_t>> dft_dims = "an integer";
const x3::rule<complex_list_class, std::vector<ast::complex_number>> complex_list = "a complex number";
const x3::rule<dft_class, ast::dft> dft = "DFT";
const x3::rule<real_transform_class, ast::real_transform> real_transform = "a real transform";
const x3::rule<identity_class, ast::call> identity = "I";
const x3::rule<stride_class, ast::call> stride = "L";
const x3::rule<twiddle_class, ast::call> twiddle = "T";
const x3::rule<perm_class, ast::call> perm = "Perm";
const x3::rule<diag_class, ast::diag> diag = "Diag";
const x3::rule<dense_class, ast::dense> dense = "Mat";
const x3::rule<tagged_class, ast::tagged> tagged = "a tagged formula";
const x3::rule<unknown_name_class> unknown_name = "a known name";
const x3::rule<atom_class, ast::atom> atom = "a formula";
const x3::rule<postfix_class, ast::postfix_expr> postfix = "a formula";
const x3::rule<tensor_class, ast::tensor_expr> tensor = "a formula";
const x3::rule<chained_tile_class> chained_tile = "no second '(x)~'";
const x3::rule<tile_rest_class, std::vector<ast::tensor_expr>> tile_rest = "a formula";
const x3::rule<tile_class, ast::tile_expr> tile = "a formula";
const x3::rule<dsum_class, ast::dsum_expr> dsum = "a formula";
const x3::rule<compose_class, ast::compose_expr> compose = "a formula";
const x3::rule<fence_class, ast::fence_expr> fence = "a formula";
const x3::rule<end_of_input_class> end_of_input = "end of input";
const formula_text_type formula_text = "a formula";

// Numbers.
const auto integer_def = lexeme[x3::int64 >> -(lit('^') >> x3::int64)][set_power];
const auto real_def = real_number;
const auto imaginary_magnitude_def = lexeme[unsigned_real_number >> lit('i')];
const auto complex_def = lexeme[real_number >> lit('i')][set_imag] |
                         (real[set_real] >> -((lit('+') >> imaginary_magnitude[set_imag]) |
                                              (lit('-') >> imaginary_magnitude[set_neg_imag])));

// Argument lists (the arity is part of the syntax).
const auto args_1_def = x3::repeat(1)[integer];
const auto args_2_def = integer > ',' > integer;
const auto args_2_3_def = integer > ',' > integer > -(',' > integer);
const auto args_n_def = integer > *(',' > integer);
// DFT(3 x 4): the separator is the letter x; "3x4" and "3 x 4" both work.
const auto dft_dims_def = integer > *(lit('x') > integer);
const auto complex_list_def = complex > *(',' > complex);

// Atoms.
const auto dft_def = chain_grammar::dft(dft_dims, integer);
const auto real_transform_def = chain_grammar::real_atom(dft_dims);
const auto identity_def = chain_grammar::sized_atom(SplKind::Identity, args_1);
const auto stride_def = chain_grammar::sized_atom(SplKind::Stride, args_2);
const auto twiddle_def = chain_grammar::sized_atom(SplKind::Twiddle, args_2_3);
const auto perm_def = chain_grammar::sized_atom(SplKind::Perm, args_n);
const auto diag_def = keyword(SplKind::Diag) > '(' > complex_list > ')';
const auto dense_def = keyword(SplKind::Dense) > '(' > integer > ',' > integer > ',' > '[' > complex_list > ']' > ')';
const auto tagged_def = chain_grammar::tagged(args_n, fence);
const auto unknown_name_def = x3::raw[lexeme[(x3::ascii::alpha | lit('_')) >> *ident_char]][reject_name];
const auto atom_def =
    dft | real_transform | identity | stride | twiddle | perm | diag | dense | tagged | ('(' > fence > ')') | unknown_name;

// Operators, tightest first: postfix ' (transpose), then (x), (x)~, (+), * and |
// (chain_grammar_def.h). No spaces inside "(x)~".
const auto tensor_op = lexeme[chain_grammar::token(SplKind::Tensor) >> !lit('~')];
const auto tile_op = chain_grammar::token(SplKind::TileTensor);
const auto postfix_def = chain_grammar::postfix(atom);
const auto tensor_def = chain_grammar::chain(tensor_op, postfix);
const auto chained_tile_def = x3::raw[tile_op][reject_chained_tile];
const auto tile_rest_def = x3::repeat(0, 1)[tile_op > tensor] >> -chained_tile;
const auto tile_def = tensor >> tile_rest;
const auto dsum_def = chain_grammar::chain(chain_grammar::token(SplKind::DirectSum), tile);
const auto compose_def = chain_grammar::chain(chain_grammar::token(SplKind::Compose), dsum);
const auto fence_def = chain_grammar::chain(chain_grammar::token(SplKind::Fence), compose);

const auto end_of_input_def = x3::eoi;
const auto formula_text_def = x3::expect[fence] > end_of_input;

BOOST_SPIRIT_DEFINE(integer, real, imaginary_magnitude, complex, args_1, args_2, args_2_3, args_n, dft_dims,
                    complex_list, dft, real_transform, identity, stride, twiddle, perm, diag, dense, tagged, unknown_name, atom,
                    postfix, tensor, chained_tile, tile_rest, tile, dsum, compose, fence, end_of_input, formula_text)

}  // namespace grammar

}  // namespace splgen::parse
