// Fusion adaptation of the rule-file AST, so that X3 can fill the structs from sequences.
#pragma once
#include <boost/fusion/include/adapt_struct.hpp>

#include "generator/parse/chain_ast_adapted.h"
#include "generator/parse/rule_ast.h"

BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::size_power, base, exponents)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::size_unary, minuses, value)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::size_product_op, op, operand)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::size_product, first, rest)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::size_sum_op, op, operand)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::size_sum, first, rest)

BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::formula_var, name, shape)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::function_call, name, args)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::index_fn, kind, args)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::access, kind, fn)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::fence_expr, first, rest)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::sum_term, mode, var, bound, body)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::tagged_term, kind, params, body)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::diag_term, source, fn)

BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::compare_tail, op, rhs)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::range_tail, lo, hi)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::relation, lhs, tail)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::predicate, kind, args)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::let_binding, name, value)

BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::rule_decl, name, lhs, rhs, conditions)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::rule_ast::ruleset_decl, name, rules)
