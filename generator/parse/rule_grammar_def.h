// Rule definitions of the rule-file grammar (docs/rule-language.md):
//
//   file       := statement* EOF
//   statement  := 'rule' name ':' formula '=>' formula [ 'if' condition (',' condition)* ] ';'
//               | 'ruleset' name '=' name (',' name)* ';'
//   formula    := compose ('|' compose)*
//   compose    := dsum ('*' dsum)*
//   dsum       := tile ('(+)' tile)*
//   tile       := tensor ('(x)~' tensor)*
//   tensor     := postfix ('(x)' postfix)*
//   postfix    := primary '''*
//   primary    := 'DFT' '(' size ('x' size)* [',' size] ')'
//               | 'I' '(' size ')' | 'L' '(' size ',' size ')' | 'T' '(' size ',' size [',' size] ')'
//               | ('G' | 'S' | 'G_dma' | 'S_dma') '(' indexfn ')'
//               | ('Sum' | 'Sum_par' | 'Sum_stream') '(' var '<' size ')' compose
//               | 'Diag' '(' formula 'o' indexfn ')'
//               | tagname '(' size (',' size)* ')' '[' formula ']'
//               | '@' name '(' [size (',' size)*] ')'
//               | Var [ '[' size [',' size] ']' ]
//               | '(' formula ')'
//   indexfn    := 'h' '(' size ',' size ')' | 'q' '(' size ',' size ',' size ')'
//   size       := product (('+' | '-') product)*
//   product    := unary (('*' | '/' | '%') unary)*
//   unary      := '-'* power
//   power      := atom ('^' atom)*            (right associative)
//   atom       := integer | var | '(' size ')'
//   condition  := ('divides' | 'coprime') '(' size ',' size ')' | ('prime' | 'pow2') '(' size ')'
//               | 'let' var '=' size | size ('==' | '!=' | '<' | '<=' | '>' | '>=') size
//               | size 'in' size '..' size
//
// var is a lower-case identifier (a size variable), Var an identifier starting with an
// upper-case letter that is not a keyword (a formula variable). The body of a Sum is the rest
// of the composition it starts in (docs/rule-language.md, "Sigma-SPL").
//
// Whitespace and comments ('#' to the end of the line) are skipped between tokens (the
// skipper of rule_grammar.h). Keywords are whole words. Once the first token of a construct is
// seen, the rest is an expectation (`>`): a missing piece is reported as "expected <what>"
// (rule_error_handler.h) instead of backtracking. The recursive alternatives (primary, and
// the atom of a size expression) pass through nesting_guard, which bounds their depth.
// Include this file in exactly one translation unit (rule_parser.cpp).
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <string>

#include "generator/parse/rule_ast.h"
#include "generator/parse/rule_ast_adapted.h"
#include "generator/parse/rule_error_handler.h"
#include "generator/parse/chain_grammar_def.h"
#include "generator/parse/keyword.h"
#include "generator/parse/rule_grammar.h"

namespace splgen::parse::rule_grammar {

using x3::lexeme;
using x3::lit;

// ------------------------------------------------------------------ helpers

// Bounds the nesting depth of the grammar's recursion: counts in the error handler while its
// subject parses, and throws RuleSyntaxError past rule_error_handler::kMaxNesting levels.
template <typename Subject>
struct nesting_guard_directive : x3::unary_parser<Subject, nesting_guard_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, nesting_guard_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  static bool const handles_container = Subject::handles_container;

  constexpr nesting_guard_directive(const Subject &subject) : base_type(subject) {}

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator &first, const Iterator &last, const Context &context, RContext &rcontext,
             Attribute &attr) const {
    auto &handler = x3::get<x3::error_handler_tag>(context).get();
    handler.enter(first);
    struct leave_on_exit {
      decltype(handler) h;
      ~leave_on_exit() { h.leave(); }
    } guard{handler};
    return this->subject.parse(first, last, context, rcontext, attr);
  }
};

struct nesting_guard_gen {
  template <typename Subject>
  constexpr nesting_guard_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](
      const Subject &subject) const {
    return {x3::as_parser(subject)};
  }
};
constexpr nesting_guard_gen nesting_guard{};

struct sum_keyword_table : x3::symbols<SumMode> {
  sum_keyword_table() {
    add("Sum", SumMode::Plain)("Sum_par", SumMode::Parallel)("Sum_stream", SumMode::Stream);
  }
};
const sum_keyword_table sum_keywords;

struct access_keyword_table : x3::symbols<rule_ast::access_kind> {
  access_keyword_table() {
    add("G", rule_ast::access_kind::gather)("S", rule_ast::access_kind::scatter)(
        "G_dma", rule_ast::access_kind::gather_dma)("S_dma", rule_ast::access_kind::scatter_dma);
  }
};
const access_keyword_table access_keywords;

struct compare_op_table : x3::symbols<std::string> {
  compare_op_table() {
    add("==", "==")("!=", "!=")("<=", "<=")(">=", ">=")("<", "<")(">", ">");
  }
};
const compare_op_table compare_ops;

// Semantic actions: names that are recognisably wrong get their own message.
const auto name_of = [](const auto &range) {
  std::string name(range.begin(), range.end());
  if (name.size() > 40) name = name.substr(0, 40) + "...";
  return name;
};
const auto reject_tag = [](auto &ctx) {
  const auto &range = x3::_attr(ctx);
  x3::get<x3::error_handler_tag>(ctx).get().fail(range.begin(), "unknown tag '" + name_of(range) + "'");
};
const auto reject_integer = [](auto &ctx) {
  const auto &range = x3::_attr(ctx);
  x3::get<x3::error_handler_tag>(ctx).get().fail(range.begin(),
                                                 "integer out of range '" + name_of(range) + "'");
};
const auto reject_name = [](auto &ctx) {
  const auto &range = x3::_attr(ctx);
  x3::get<x3::error_handler_tag>(ctx).get().fail(range.begin(), "unknown name '" + name_of(range) + "'");
};

// ------------------------------------------------------------------ rule IDs

// The rules producing position_tagged nodes record their source positions.
struct integer_class;
struct bad_integer_class;
struct size_var_class;
struct size_primary_class;
struct size_power_class;
struct size_unary_class;
struct size_product_op_class;
struct size_product_class;
struct size_sum_op_class;
struct size_sum_class;
struct size_list_class;
struct args_1_class;
struct args_1_2_class;
struct args_2_class;
struct args_2_3_class;
struct args_3_class;
struct dims_class;
struct loop_var_class;
struct function_name_class;
struct var_name_class;
struct rule_name_class;
struct index_fn_class;
struct dft_class : x3::annotate_on_success {};
struct real_transform_class : x3::annotate_on_success {};
struct identity_class : x3::annotate_on_success {};
struct stride_class : x3::annotate_on_success {};
struct twiddle_class : x3::annotate_on_success {};
struct formula_var_class : x3::annotate_on_success {};
struct function_call_class : x3::annotate_on_success {};
struct access_class : x3::annotate_on_success {};
struct sum_class : x3::annotate_on_success {};
struct diag_class : x3::annotate_on_success {};
struct diag_of_class;
struct tagged_class : x3::annotate_on_success {};
struct unknown_tag_class;
struct unknown_name_class;
struct primary_class;
struct postfix_class : x3::annotate_on_success {};
struct tensor_class : x3::annotate_on_success {};
struct tile_class : x3::annotate_on_success {};
struct dsum_class : x3::annotate_on_success {};
struct compose_class : x3::annotate_on_success {};
struct formula_class : x3::annotate_on_success {};
struct compare_tail_class;
struct range_tail_class;
struct relation_tail_class;
struct relation_class : x3::annotate_on_success {};
struct predicate_class : x3::annotate_on_success {};
struct let_binding_class : x3::annotate_on_success {};
struct condition_class;
struct conditions_class;
struct rule_core_class : x3::annotate_on_success {};
struct rule_stmt_class;
struct name_list_class;
struct ruleset_class : x3::annotate_on_success {};
struct statement_class;
struct end_of_file_class;
struct end_of_input_class;
struct rule_file_text_class : rule_error_handler_base {};
struct single_rule_text_class : rule_error_handler_base {};

// The rule names are what error messages say was expected.
const x3::rule<integer_class, int64_t> integer = "an integer";
const x3::rule<bad_integer_class> bad_integer = "an integer";
const x3::rule<size_var_class, std::string> size_var = "a size variable";
const x3::rule<size_primary_class, rule_ast::size_primary> size_primary = "a size expression";
const x3::rule<size_power_class, rule_ast::size_power> size_power = "a size expression";
const x3::rule<size_unary_class, rule_ast::size_unary> size_unary = "a size expression";
const x3::rule<size_product_op_class, rule_ast::size_product_op> size_product_op = "a size expression";
const x3::rule<size_product_class, rule_ast::size_product> size_product = "a size expression";
const x3::rule<size_sum_op_class, rule_ast::size_sum_op> size_sum_op = "a size expression";
const x3::rule<size_sum_class, rule_ast::size_sum> size_expr = "a size expression";
const x3::rule<size_list_class, std::vector<rule_ast::size_expr>> size_list = "a size expression";
const x3::rule<args_1_class, std::vector<rule_ast::size_expr>> args_1 = "a size expression";
const x3::rule<args_1_2_class, std::vector<rule_ast::size_expr>> args_1_2 = "a size expression";
const x3::rule<args_2_class, std::vector<rule_ast::size_expr>> args_2 = "a size expression";
const x3::rule<args_2_3_class, std::vector<rule_ast::size_expr>> args_2_3 = "a size expression";
const x3::rule<args_3_class, std::vector<rule_ast::size_expr>> args_3 = "a size expression";
const x3::rule<dims_class, std::vector<rule_ast::size_expr>> dims = "a size expression";
const x3::rule<loop_var_class, std::string> loop_var = "a loop variable";
const x3::rule<function_name_class, std::string> function_name = "a function name";
const x3::rule<var_name_class, std::string> var_name = "a formula variable";
const x3::rule<rule_name_class, std::string> rule_name = "a rule name";
const x3::rule<index_fn_class, rule_ast::index_fn> index_fn = "an index function h(b, s) or q(b, s, mu)";
const x3::rule<dft_class, rule_ast::dft_term> dft = "DFT";
const x3::rule<real_transform_class, rule_ast::real_term> real_transform = "a real transform";
const x3::rule<identity_class, rule_ast::sized_atom> identity = "I";
const x3::rule<stride_class, rule_ast::sized_atom> stride = "L";
const x3::rule<twiddle_class, rule_ast::sized_atom> twiddle = "T";
const x3::rule<formula_var_class, rule_ast::formula_var> formula_var = "a formula variable";
const x3::rule<function_call_class, rule_ast::function_call> function_call = "a function call";
const x3::rule<access_class, rule_ast::access> access = "a gather or scatter";
const x3::rule<sum_class, rule_ast::sum_term> sum = "a sum";
const x3::rule<diag_class, rule_ast::diag_term> diag = "a diagonal";
const x3::rule<diag_of_class> diag_of = "'o'";
const x3::rule<tagged_class, rule_ast::tagged_term> tagged = "a tagged formula";
const x3::rule<unknown_tag_class> unknown_tag = "a tag";
const x3::rule<unknown_name_class> unknown_name = "a known name";
const x3::rule<primary_class, rule_ast::primary> primary = "a formula";
const x3::rule<postfix_class, rule_ast::postfix_expr> postfix = "a formula";
const x3::rule<tensor_class, rule_ast::tensor_expr> tensor = "a formula";
const x3::rule<tile_class, rule_ast::tile_expr> tile = "a formula";
const x3::rule<dsum_class, rule_ast::dsum_expr> dsum = "a formula";
const x3::rule<compose_class, rule_ast::compose_expr> compose = "a formula";
const x3::rule<formula_class, rule_ast::fence_expr> formula = "a formula";
const x3::rule<compare_tail_class, rule_ast::compare_tail> compare_tail = "a comparison";
const x3::rule<range_tail_class, rule_ast::range_tail> range_tail = "a range";
const x3::rule<relation_tail_class, rule_ast::relation_tail> relation_tail =
    "a comparison (==, !=, <, <=, >, >=) or 'in'";
const x3::rule<relation_class, rule_ast::relation> relation = "a condition";
const x3::rule<predicate_class, rule_ast::predicate> predicate = "a condition";
const x3::rule<let_binding_class, rule_ast::let_binding> let_binding = "a condition";
const x3::rule<condition_class, rule_ast::condition> condition = "a condition";
const x3::rule<conditions_class, std::vector<rule_ast::condition>> conditions = "a condition";
const x3::rule<rule_core_class, rule_ast::rule_decl> rule_core = "a rule";
const x3::rule<rule_stmt_class, rule_ast::rule_decl> rule_stmt = "a rule";
const x3::rule<name_list_class, std::vector<std::string>> name_list = "a rule name";
const x3::rule<ruleset_class, rule_ast::ruleset_decl> ruleset = "a rule set";
const x3::rule<statement_class, rule_ast::statement> statement = "'rule' or 'ruleset'";
const x3::rule<end_of_file_class> end_of_file = "'rule' or 'ruleset'";
const x3::rule<end_of_input_class> end_of_input = "end of input";
const rule_file_text_type rule_file_text = "a rule file";
const single_rule_text_type single_rule_text = "a rule";

// ------------------------------------------------------------------ size expressions

const auto lower_word = lexeme[x3::ascii::char_("a-z") >> *x3::ascii::char_("a-zA-Z0-9_")];
const auto upper_word = lexeme[x3::ascii::char_("A-Z") >> *x3::ascii::char_("a-zA-Z0-9_")];
const auto any_word = lexeme[x3::ascii::char_("a-zA-Z_") >> *x3::ascii::char_("a-zA-Z0-9_")];

const auto integer_def = x3::uint_parser<int64_t>{};
const auto bad_integer_def = x3::raw[lexeme[+x3::ascii::digit]][reject_integer];  // digits past INT64_MAX
const auto size_var_def = lower_word;
const auto size_primary_def = nesting_guard[integer | bad_integer | size_var | ('(' > size_expr > ')')];
const auto size_power_def = size_primary >> *('^' > size_primary);
const auto size_unary_def = *x3::char_('-') >> size_power;
const auto size_product_op_def = (x3::char_('*') | x3::char_('/') | x3::char_('%')) > size_unary;
const auto size_product_def = size_unary >> *size_product_op;
const auto size_sum_op_def = (x3::char_('+') | x3::char_('-')) > size_product;
const auto size_expr_def = size_product >> *size_sum_op;

// Argument lists (the arity is part of the syntax).
const auto size_list_def = size_expr > *(',' > size_expr);
const auto args_1_def = x3::repeat(1)[size_expr];
const auto args_1_2_def = size_expr > -(',' > size_expr);
const auto args_2_def = size_expr > ',' > size_expr;
const auto args_2_3_def = size_expr > ',' > size_expr > -(',' > size_expr);
const auto args_3_def = size_expr > ',' > size_expr > ',' > size_expr;
// DFT(m x n x k): 'x' separates dimensions ("2x3" is 2 x 3; "xn" is a variable).
const auto dims_sep = lexeme[lit('x') >> !(x3::ascii::alpha | lit('_'))];
const auto dims_def = size_expr > *(dims_sep > size_expr);

// ------------------------------------------------------------------ formulas

const auto loop_var_def = lower_word;
const auto function_name_def = any_word;
const auto var_name_def = upper_word;
const auto rule_name_def = any_word;

const auto index_fn_def = (keyword(lit('h')) >> x3::attr(FnKind::H) > '(' > args_2 > ')') |
                          (keyword(lit('q')) >> x3::attr(FnKind::Q) > '(' > args_3 > ')');

const auto dft_def = chain_grammar::dft(dims, size_expr);
const auto real_transform_def = chain_grammar::real_atom(dims);
const auto identity_def = chain_grammar::sized_atom(SplKind::Identity, args_1);
const auto stride_def = chain_grammar::sized_atom(SplKind::Stride, args_2);
const auto twiddle_def = chain_grammar::sized_atom(SplKind::Twiddle, args_2_3);
const auto access_def = keyword(access_keywords) > '(' > index_fn > ')';
const auto sum_def = keyword(sum_keywords) > '(' > loop_var > '<' > size_expr > ')' > compose;
const auto diag_of_def = keyword(lit('o'));
const auto diag_def = keyword(SplKind::Diag) > '(' > formula > diag_of > index_fn > ')';
const auto tagged_def = chain_grammar::tagged(size_list, formula);
const auto function_call_def = lit(kind_token(SplKind::Call)) > function_name > '(' > -size_list > ')';
const auto formula_var_def = var_name >> -('[' > args_1_2 > ']');
// A lower-case word used like a tag, an upper-case word used like a function (a '(' that
// does not start the operators (x), (x)~ or (+)).
const auto open_paren = lit('(') - lit("(x)") - lit("(+)");
const auto unknown_tag_def = x3::raw[lower_word >> &(open_paren | lit('['))][reject_tag];
const auto unknown_name_def = x3::raw[upper_word >> &open_paren][reject_name];

const auto primary_def = nesting_guard[dft | real_transform | identity | stride | twiddle | access | sum | diag | tagged | function_call |
                                       unknown_name | formula_var | unknown_tag | ('(' > formula > ')')];

// Operators, tightest first: postfix ', (x), (x)~, (+), *, | (chain_grammar_def.h). Here
// "(x) ~" is "(x)~" too.
const auto tensor_op = chain_grammar::token(SplKind::Tensor) >> !lit('~');
const auto tile_op = chain_grammar::token(SplKind::Tensor) >> lit('~');
const auto postfix_def = chain_grammar::postfix(primary);
const auto tensor_def = chain_grammar::chain(tensor_op, postfix);
const auto tile_def = chain_grammar::chain(tile_op, tensor);
const auto dsum_def = chain_grammar::chain(chain_grammar::token(SplKind::DirectSum), tile);
const auto compose_def = chain_grammar::chain(chain_grammar::token(SplKind::Compose), dsum);
const auto formula_def = chain_grammar::chain(chain_grammar::token(SplKind::Fence), compose);

// ------------------------------------------------------------------ conditions

const auto compare_tail_def = compare_ops > size_expr;
const auto range_tail_def = keyword(lit("in")) > size_expr > ".." > size_expr;
const auto relation_tail_def = compare_tail | range_tail;
const auto relation_def = size_expr > relation_tail;
// A predicate name is a keyword only when a '(' follows: `prime < 7` compares a variable.
template <typename Name>
auto predicate_word(const Name &name) {
  return keyword(name) >> &lit('(');
}
const auto predicate_def =
    (predicate_word(lit("divides")) >> x3::attr(ConditionKind::Divides) > '(' > args_2 > ')') |
    (predicate_word(lit("coprime")) >> x3::attr(ConditionKind::Coprime) > '(' > args_2 > ')') |
    (predicate_word(lit("prime")) >> x3::attr(ConditionKind::Prime) > '(' > args_1 > ')') |
    (predicate_word(lit("pow2")) >> x3::attr(ConditionKind::PowerOf2) > '(' > args_1 > ')');
const auto let_binding_def = keyword(lit("let")) > size_var > '=' > size_expr;
const auto condition_def = predicate | let_binding | relation;
const auto conditions_def = condition > *(',' > condition);

// ------------------------------------------------------------------ statements

const auto rule_core_def = keyword(lit("rule")) > rule_name > ':' > formula > "=>" > formula >
                           -(keyword(lit("if")) > conditions);
const auto rule_stmt_def = rule_core > ';';
const auto name_list_def = rule_name > *(',' > rule_name);
const auto ruleset_def = keyword(lit("ruleset")) > rule_name > '=' > name_list > ';';
const auto statement_def = ruleset | rule_stmt;
const auto end_of_file_def = x3::eoi;
const auto end_of_input_def = x3::eoi;
const auto rule_file_text_def = *statement > end_of_file;
const auto single_rule_text_def = x3::expect[rule_core] > -lit(';') > end_of_input;

BOOST_SPIRIT_DEFINE(integer, bad_integer, size_var, size_primary, size_power, size_unary, size_product_op, size_product,
                    size_sum_op, size_expr, size_list,
                    args_1, args_1_2, args_2, args_2_3, args_3, dims, loop_var, function_name, var_name, rule_name, index_fn,
                    dft, real_transform, identity, stride, twiddle, formula_var, function_call, access, sum, diag, diag_of, tagged, unknown_tag,
                    unknown_name, primary, postfix, tensor, tile, dsum, compose, formula, compare_tail, range_tail,
                    relation_tail, relation, predicate, let_binding, condition, conditions, rule_core, rule_stmt,
                    name_list, ruleset, statement, end_of_file, end_of_input, rule_file_text, single_rule_text)

}  // namespace splgen::parse::rule_grammar
