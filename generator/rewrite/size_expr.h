// Size expressions of rule files (docs/rule-language.md, "Variables"): evaluation under
// bindings, and solving a pattern's size expression against the integer it meets.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "generator/ir/rule.h"
#include "generator/ir/size_arith.h"

namespace splgen::rewrite {

using Bindings = std::map<std::string, int64_t>;

// The value of e, or nothing when a variable is unbound, a division is not exact, a
// divisor or modulus is 0, an exponent is negative, or the arithmetic overflows.
std::optional<int64_t> eval_size(const SizeExpr &e, const Bindings &b);
// The same, saying why there is no value (generator/ir/size_arith.h).
SizeResult eval_size_checked(const SizeExpr &e, const Bindings &b);
// The value of e; FormulaError naming `what` when it has none (an overflow says so).
int64_t eval_size_or_throw(const SizeExpr &e, const Bindings &b, const std::string &what);

// Every extension of b under which e == value: {} when none, several for factorisations
// (m*n against 12 gives (1,12), (2,6), (3,4), (4,3), (6,2), (12,1), smallest left factor
// first); std::nullopt when the equation does not determine its variables (m+n against 5).
// With `positive`, a variable is never bound to a value below 1.
std::optional<std::vector<Bindings>> solve_size(const SizeExpr &e, int64_t value, const Bindings &b,
                                                bool positive = true);

void size_vars(const SizeExpr &e, std::set<std::string> &out);  // the variables e mentions
std::string to_string(const SizeExpr &e);

// Constructors for building expressions in C++ (tests, the checker).
SizeExpr size_const(int64_t v);
SizeExpr size_var(std::string name);
SizeExpr size_op(SizeOp op, SizeExpr a, SizeExpr b);

}  // namespace splgen::rewrite
