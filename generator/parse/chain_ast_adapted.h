// Fusion adaptation of the shared AST (chain_ast.h), so that X3 can fill it. The structs that
// each language derives (tagged, fence_expr) are adapted with that language's AST.
#pragma once
#include <boost/fusion/include/adapt_struct.hpp>

#include "generator/parse/chain_ast.h"

BOOST_FUSION_ADAPT_TPL_STRUCT((Size), (splgen::parse::chain_ast::dft)(Size), dims, root)
BOOST_FUSION_ADAPT_TPL_STRUCT((Size), (splgen::parse::chain_ast::sized_atom)(Size), kind, args)
BOOST_FUSION_ADAPT_TPL_STRUCT((Size), (splgen::parse::chain_ast::real_atom)(Size), kind, dims)
BOOST_FUSION_ADAPT_TPL_STRUCT((Leaf), (splgen::parse::chain_ast::postfix_expr)(Leaf), base, primes)
BOOST_FUSION_ADAPT_TPL_STRUCT((Operator)(Operand), (splgen::parse::chain_ast::chain)(Operator)(Operand), first, rest)
