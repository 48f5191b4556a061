// The formula grammar (Boost.Spirit X3), declared here and defined in formula_grammar_def.h,
// laid out like the X3 "rexpr" example: this header names the top-level rule and the
// iterator / context types it is instantiated for (in formula_parser.cpp).
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <functional>
#include <string_view>

#include "generator/parse/error_handler.h"
#include "generator/parse/formula_ast.h"

namespace splgen::parse {

namespace x3 = boost::spirit::x3;

// Parser configuration.
using iterator_type = std::string_view::const_iterator;
using error_handler_type = error_handler<iterator_type>;
using phrase_context_type = x3::phrase_parse_context<x3::ascii::space_type>::type;
using context_type =
    x3::context<x3::error_handler_tag, std::reference_wrapper<error_handler_type>, phrase_context_type>;

namespace grammar {

// The whole input: one formula and nothing after it.
struct formula_text_class;
using formula_text_type = x3::rule<formula_text_class, ast::formula>;
BOOST_SPIRIT_DECLARE(formula_text_type)

}  // namespace grammar

const grammar::formula_text_type &formula_text();

}  // namespace splgen::parse
