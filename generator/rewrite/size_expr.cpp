#include "generator/rewrite/size_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "generator/ir/divisors.h"
#include "generator/ir/size_arith.h"
#include "generator/ir/spl.h"

namespace splgen::rewrite {

namespace {

// Beyond this many solutions an equation counts as undetermined (the matcher defers it until
// other sizes are bound). Real rules stay far below: DFT(k*m*n) against 2^24 has 325; products
// of five unknowns against numbers with hundreds of divisors (fuzz_size_expr) have millions.
constexpr std::size_t kMaxSolutions = 4096;

std::optional<int64_t> checked_pow(int64_t base, int64_t exp) {
  SizeResult r = size_arith(SizeOp::Pow, base, exp);
  if (!r.ok()) return std::nullopt;
  return r.value;
}

// x op y, or nothing when it has no exact 64-bit value (never a trap).
std::optional<int64_t> arith(SizeOp op, int64_t x, int64_t y = 0) {
  SizeResult r = size_arith(op, x, y);
  if (!r.ok()) return std::nullopt;
  return r.value;
}

using Solutions = std::optional<std::vector<Bindings>>;

Solutions none() { return std::vector<Bindings>{}; }
Solutions one(const Bindings &b) { return std::vector<Bindings>{b}; }

// Solves a then b for every solution of a: a == x and b == y.
Solutions solve_both(const SizeExpr &a, int64_t x, const SizeExpr &b, int64_t y, const Bindings &bind,
                     bool positive) {
  Solutions first = solve_size(a, x, bind, positive);
  if (!first) return std::nullopt;
  std::vector<Bindings> out;
  for (const Bindings &s : *first) {
    Solutions second = solve_size(b, y, s, positive);
    if (!second) return std::nullopt;
    out.insert(out.end(), second->begin(), second->end());
    if (out.size() > kMaxSolutions) return std::nullopt;
  }
  return out;
}

// The integer p-th root of v, if v is a perfect p-th power (v >= 0).
std::optional<int64_t> int_root(int64_t v, int64_t p) {
  if (v < 0 || p < 1) return std::nullopt;
  if (p == 1) return v;
  int64_t r = int64_t(std::llround(std::pow(double(v), 1.0 / double(p))));
  for (int64_t c = std::max<int64_t>(0, r - 1); c <= r + 1; ++c)
    if (auto pw = checked_pow(c, p); pw && *pw == v) return c;
  return std::nullopt;
}

// Drops repeats, keeping the first of each in order. A set, not a linear search: a product
// of three unknowns against a number with 576 divisors has ~30,000 solutions (3.6 s before).
void dedupe(std::vector<Bindings> &v) {
  std::set<Bindings> seen;
  std::vector<Bindings> out;
  for (Bindings &b : v)
    if (seen.insert(b).second) out.push_back(std::move(b));
  v = std::move(out);
}

}  // namespace

SizeResult eval_size_checked(const SizeExpr &e, const Bindings &b) {
  switch (e.op) {
    case SizeOp::Const: return SizeResult{e.value, SizeFault::None};
    case SizeOp::Var: {
      auto it = b.find(e.name);
      if (it == b.end()) return SizeResult{0, SizeFault::Unbound};
      return SizeResult{it->second, SizeFault::None};
    }
    default: break;
  }
  SizeResult x = eval_size_checked(e.args.at(0), b);
  if (!x.ok()) return x;
  if (e.op == SizeOp::Neg) return size_arith(SizeOp::Neg, x.value);
  SizeResult y = eval_size_checked(e.args.at(1), b);
  if (!y.ok()) return y;
  return size_arith(e.op, x.value, y.value);
}

std::optional<int64_t> eval_size(const SizeExpr &e, const Bindings &b) {
  SizeResult r = eval_size_checked(e, b);
  if (!r.ok()) return std::nullopt;
  return r.value;
}

int64_t eval_size_or_throw(const SizeExpr &e, const Bindings &b, const std::string &what) {
  SizeResult r = eval_size_checked(e, b);
  if (r.ok()) return r.value;
  std::set<std::string> vars;
  size_vars(e, vars);
  for (const std::string &v : vars)
    if (!b.count(v)) throw FormulaError(fmt::format("{}: size variable '{}' is not bound", what, v));
  if (r.fault == SizeFault::Overflow || r.fault == SizeFault::DivisionByZero)
    throw FormulaError(fmt::format("{}: '{}' {}", what, to_string(e), size_fault_text(r.fault)));
  throw FormulaError(fmt::format("{}: '{}' is not an integer here", what, to_string(e)));
}

namespace {

std::optional<std::vector<Bindings>> solve(const SizeExpr &e, int64_t value, const Bindings &b, bool positive);

}  // namespace

// Every candidate is evaluated again: inverting integer division and remainders proposes
// values that do not satisfy the equation (0/p == 4 gives p = 0; found by fuzz_size_expr).
// Divisors tried by one outermost solve_size; past it the equation counts as undetermined.
// Nested products multiply their divisor counts (m*n*k*n*k against 21190160544: 7 s).
// 2^15 covers every product of three unknowns against sizes up to the 2^24 cap: the most work,
// sum of tau(d) over d | n, is 22680 (n = 8648640). Each try costs ~4 us (Bindings copies):
// an equation that exhausts the budget takes 0.14 s in the Release build (0.28 s at 2^16).
constexpr int64_t kSolveBudget = int64_t(1) << 15;
thread_local int solve_depth = 0;
thread_local int64_t solve_budget = 0;

std::optional<std::vector<Bindings>> solve_size(const SizeExpr &e, int64_t value, const Bindings &b,
                                                bool positive) {
  if (solve_depth == 0) solve_budget = kSolveBudget;
  ++solve_depth;
  std::optional<std::vector<Bindings>> found = solve(e, value, b, positive);
  --solve_depth;
  if (!found || solve_budget < 0) return std::nullopt;
  std::vector<Bindings> out;
  for (Bindings &s : *found)
    if (eval_size(e, s) == value) out.push_back(std::move(s));
  return out;
}

namespace {

std::optional<std::vector<Bindings>> solve(const SizeExpr &e, int64_t value, const Bindings &b, bool positive) {
  if (auto v = eval_size(e, b)) return *v == value ? one(b) : none();
  auto known = [&](int i) { return eval_size(e.args.at(std::size_t(i)), b); };
  switch (e.op) {
    case SizeOp::Const: return none();  // evaluated above
    case SizeOp::Var: {
      if (positive && value < 1) return none();
      Bindings r = b;
      r[e.name] = value;
      return one(r);
    }
    // (An equation whose other side has no 64-bit value has no solution.)
    case SizeOp::Neg: {
      auto v = arith(SizeOp::Neg, value);
      return v ? solve(e.args[0], *v, b, positive) : none();
    }
    case SizeOp::Add:
    case SizeOp::Sub: {
      const bool add = e.op == SizeOp::Add;
      std::optional<int64_t> v;
      int side = 0;
      if (auto x = known(0)) {  // x + a == value: a = value - x;  x - a == value: a = x - value
        v = add ? arith(SizeOp::Sub, value, *x) : arith(SizeOp::Sub, *x, value);
        side = 1;
      } else if (auto y = known(1)) {  // a + y == value: a = value - y;  a - y == value: a = value + y
        v = arith(add ? SizeOp::Sub : SizeOp::Add, value, *y);
      } else {
        return std::nullopt;
      }
      return v ? solve(e.args[std::size_t(side)], *v, b, positive) : none();
    }
    case SizeOp::Mul: {
      for (int side = 0; side < 2; ++side) {
        if (auto x = known(side)) {
          if (*x == 0) return value == 0 ? std::nullopt : none();
          auto q = arith(SizeOp::Div, value, *x);  // exact, or nothing (INT64_MIN / -1 included)
          if (!q) return none();
          return solve(e.args[std::size_t(1 - side)], *q, b, positive);
        }
      }
      if (value <= 0) return std::nullopt;  // factorisations of 0 or of negatives: not enumerated
      std::vector<Bindings> out;
      for (int64_t d : divisors_of(value)) {
        if (--solve_budget < 0) return std::nullopt;
        Solutions s = solve_both(e.args[0], d, e.args[1], value / d, b, positive);
        if (!s) return std::nullopt;
        out.insert(out.end(), s->begin(), s->end());
        if (out.size() > kMaxSolutions) return std::nullopt;
      }
      dedupe(out);
      return out;
    }
    case SizeOp::Div: {  // a / b == value, exact
      if (auto y = known(1)) {
        if (*y == 0) return none();
        int64_t r = 0;
        if (__builtin_mul_overflow(value, *y, &r)) return none();
        return solve(e.args[0], r, b, positive);
      }
      if (auto x = known(0)) {
        if (value == 0) return *x == 0 ? std::nullopt : none();
        auto q = arith(SizeOp::Div, *x, value);
        if (!q) return none();
        return solve(e.args[1], *q, b, positive);
      }
      return std::nullopt;
    }
    case SizeOp::Pow: {
      if (auto p = known(1)) {
        if (*p == 0) return value == 1 ? std::nullopt : none();
        auto r = int_root(value, *p);
        if (!r) return none();
        return solve(e.args[0], *r, b, positive);
      }
      if (auto base = known(0)) {  // base^x == value
        if (*base < 2 || value < 1) return std::nullopt;
        int64_t p = 0, acc = 1;
        while (acc < value) {
          if (__builtin_mul_overflow(acc, *base, &acc)) return none();
          ++p;
        }
        if (acc != value) return none();
        return solve(e.args[1], p, b, false);
      }
      return std::nullopt;
    }
    case SizeOp::Mod: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

void size_vars(const SizeExpr &e, std::set<std::string> &out) {
  if (e.op == SizeOp::Var) out.insert(e.name);
  for (const SizeExpr &a : e.args) size_vars(a, out);
}

std::string to_string(const SizeExpr &e) {
  auto sym = [](SizeOp op) {
    switch (op) {
      case SizeOp::Add: return "+";
      case SizeOp::Sub: return "-";
      case SizeOp::Mul: return "*";
      case SizeOp::Div: return "/";
      case SizeOp::Mod: return "%";
      case SizeOp::Pow: return "^";
      default: return "?";
    }
  };
  switch (e.op) {
    case SizeOp::Const: return fmt::format("{}", e.value);
    case SizeOp::Var: return e.name;
    case SizeOp::Neg: return fmt::format("-{}", to_string(e.args.at(0)));
    default: return fmt::format("({}{}{})", to_string(e.args.at(0)), sym(e.op), to_string(e.args.at(1)));
  }
}

SizeExpr size_const(int64_t v) {
  SizeExpr e;
  e.op = SizeOp::Const;
  e.value = v;
  return e;
}

SizeExpr size_var(std::string name) {
  SizeExpr e;
  e.op = SizeOp::Var;
  e.name = std::move(name);
  return e;
}

SizeExpr size_op(SizeOp op, SizeExpr a, SizeExpr b) {
  SizeExpr e;
  e.op = op;
  e.args = {std::move(a), std::move(b)};
  return e;
}

}  // namespace splgen::rewrite
