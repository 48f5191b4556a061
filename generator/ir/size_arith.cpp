#include "generator/ir/size_arith.h"

#include "generator/ir/spl.h"

namespace splgen {

namespace {

SizeResult fault(SizeFault f) { return SizeResult{0, f}; }
SizeResult value(int64_t v) { return SizeResult{v, SizeFault::None}; }

SizeResult checked_pow(int64_t base, int64_t exp) {
  if (exp < 0) return fault(SizeFault::NegativeExponent);
  if (base == 0) return value(exp == 0 ? 1 : 0);
  if (base == 1) return value(1);
  if (base == -1) return value(exp % 2 ? -1 : 1);
  int64_t r = 1;  // |base| >= 2: at most 63 multiplications before an overflow
  for (int64_t i = 0; i < exp; ++i)
    if (__builtin_mul_overflow(r, base, &r)) return fault(SizeFault::Overflow);
  return value(r);
}

}  // namespace

SizeResult size_arith(SizeOp op, int64_t x, int64_t y) {
  int64_t r = 0;
  switch (op) {
    case SizeOp::Neg:
      if (__builtin_sub_overflow(int64_t(0), x, &r)) return fault(SizeFault::Overflow);
      return value(r);
    case SizeOp::Add:
      if (__builtin_add_overflow(x, y, &r)) return fault(SizeFault::Overflow);
      return value(r);
    case SizeOp::Sub:
      if (__builtin_sub_overflow(x, y, &r)) return fault(SizeFault::Overflow);
      return value(r);
    case SizeOp::Mul:
      if (__builtin_mul_overflow(x, y, &r)) return fault(SizeFault::Overflow);
      return value(r);
    case SizeOp::Div:
      if (y == 0) return fault(SizeFault::DivisionByZero);
      if (y == -1) return size_arith(SizeOp::Neg, x);  // INT64_MIN / -1 traps in hardware
      if (x % y != 0) return fault(SizeFault::Inexact);
      return value(x / y);
    case SizeOp::Mod:
      if (y == 0) return fault(SizeFault::DivisionByZero);
      if (y == -1 || y == 1) return value(0);  // INT64_MIN % -1 traps in hardware
      return value(y > 0 ? mod64(x, y) : x % y);
    case SizeOp::Pow: return checked_pow(x, y);
    case SizeOp::Const: case SizeOp::Var: break;
  }
  return fault(SizeFault::Unbound);
}

std::optional<SizeResult> fold_size_constant(const SizeExpr &e) {
  switch (e.op) {
    case SizeOp::Const: return value(e.value);
    case SizeOp::Var: return std::nullopt;
    default: break;
  }
  std::optional<SizeResult> args[2];
  bool constant = true;
  for (std::size_t i = 0; i < e.args.size() && i < 2; ++i) {
    args[i] = fold_size_constant(e.args[i]);
    if (args[i] && !args[i]->ok()) return args[i];  // a fault anywhere below is reported
    if (!args[i]) constant = false;
  }
  if (!constant || e.args.empty()) return std::nullopt;
  return size_arith(e.op, args[0]->value, e.args.size() > 1 ? args[1]->value : 0);
}

const char *size_fault_text(SizeFault f) {
  switch (f) {
    case SizeFault::None: return "has a value";
    case SizeFault::Unbound: return "has an unbound variable";
    case SizeFault::Inexact: return "is not an exact division";
    case SizeFault::DivisionByZero: return "divides by zero";
    case SizeFault::NegativeExponent: return "has a negative exponent";
    case SizeFault::Overflow: return "overflows 64-bit integers";
  }
  return "has no value";
}

}  // namespace splgen
