// Checked integer arithmetic on sizes (docs/rule-language.md, "Variables"): every operation of
// a size expression either gives its exact value or says why it has none. Nothing overflows
// or traps (INT64_MIN / -1, % -1, -INT64_MIN, a^b beyond 64 bits are faults, not crashes).
#pragma once
#include <cstdint>
#include <optional>

#include "generator/ir/rule.h"

namespace splgen {

enum class SizeFault {
  None,
  Unbound,           // a variable without a value
  Inexact,           // a / b with b not dividing a
  DivisionByZero,    // a / 0, a % 0
  NegativeExponent,  // a ^ b with b < 0
  Overflow,          // the exact value does not fit in 64 bits
};

struct SizeResult {
  int64_t value = 0;
  SizeFault fault = SizeFault::None;
  bool ok() const { return fault == SizeFault::None; }
};

// x op y for a binary SizeOp (Add ... Pow), or -x for Neg (y unused).
SizeResult size_arith(SizeOp op, int64_t x, int64_t y = 0);

// The value of e if it has no variables, else nothing. A fault in a constant part is
// reported even when e has variables elsewhere (so "n + 2^64" is an Overflow).
std::optional<SizeResult> fold_size_constant(const SizeExpr &e);

// "overflows 64-bit integers", "divides by zero" ...: what a fault means, for messages.
const char *size_fault_text(SizeFault fault);

}  // namespace splgen
