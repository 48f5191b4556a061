// Fusion adaptation of the formula AST, so that X3 can fill the structs from sequences.
#pragma once
#include <boost/fusion/include/adapt_struct.hpp>

#include "generator/parse/chain_ast_adapted.h"
#include "generator/parse/formula_ast.h"

BOOST_FUSION_ADAPT_STRUCT(splgen::parse::ast::complex_number, re, im)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::ast::diag, values)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::ast::dense, rows, cols, values)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::ast::fence_expr, first, rest)
BOOST_FUSION_ADAPT_STRUCT(splgen::parse::ast::tagged, kind, params, body)
