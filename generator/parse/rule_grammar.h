// The rule-file grammar (Boost.Spirit X3), declared here and defined in rule_grammar_def.h,
// laid out like the X3 "rexpr" example and like formula_grammar.h: this header names the
// top-level rules and the iterator / skipper / context types they are instantiated for (in
// rule_parser.cpp).
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <functional>
#include <string_view>

#include "generator/parse/rule_ast.h"
#include "generator/parse/rule_error_handler.h"

namespace splgen::parse::rule_grammar {

namespace x3 = boost::spirit::x3;

// The skipper: whitespace, and comments from '#' to the end of the line.
using skipper_type = decltype(x3::ascii::space | (x3::lit('#') >> *(x3::char_ - x3::eol)));
inline const skipper_type skipper = x3::ascii::space | (x3::lit('#') >> *(x3::char_ - x3::eol));

// Parser configuration.
using iterator_type = std::string_view::const_iterator;
using error_handler_type = rule_error_handler<iterator_type>;
using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
using context_type =
    x3::context<x3::error_handler_tag, std::reference_wrapper<error_handler_type>, phrase_context_type>;

// A whole rule file: statements (rules and rulesets) up to the end of the input.
struct rule_file_text_class;
using rule_file_text_type = x3::rule<rule_file_text_class, rule_ast::rule_file>;
BOOST_SPIRIT_DECLARE(rule_file_text_type)

// A single rule (the command line): one rule, its final ';' optional, nothing after it.
struct single_rule_text_class;
using single_rule_text_type = x3::rule<single_rule_text_class, rule_ast::rule_decl>;
BOOST_SPIRIT_DECLARE(single_rule_text_type)

}  // namespace splgen::parse::rule_grammar

namespace splgen::parse {

const rule_grammar::rule_file_text_type &rule_file_text();
const rule_grammar::single_rule_text_type &single_rule_text();

}  // namespace splgen::parse
