// Fusion adaptation of the shared chain AST (chain_ast.h), so that X3 can fill it.
#pragma once
#include <boost/fusion/include/adapt_struct.hpp>

#include "generator/parse/chain_ast.h"

BOOST_FUSION_ADAPT_TPL_STRUCT((Leaf), (splgen::parse::chain_ast::postfix_expr)(Leaf), base, primes)
BOOST_FUSION_ADAPT_TPL_STRUCT((Operator)(Operand), (splgen::parse::chain_ast::chain)(Operator)(Operand), first, rest)
