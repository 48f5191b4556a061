#include "generator/rewrite/size_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "generator/ir/spl.h"

namespace splgen::rewrite {

namespace {

constexpr int64_t kMaxFactorised = int64_t(1) << 44;

std::optional<int64_t> checked_pow(int64_t base, int64_t exp) {
  if (exp < 0) return std::nullopt;
  int64_t r = 1;
  for (int64_t i = 0; i < exp; ++i) {
    if (__builtin_mul_overflow(r, base, &r)) return std::nullopt;
    if (i > 64 && (base == 0 || base == 1 || base == -1)) break;  // r is fixed from here on (up to sign)
  }
  if (base == -1) return exp % 2 ? -1 : 1;
  return r;
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

void dedupe(std::vector<Bindings> &v) {
  std::vector<Bindings> out;
  for (Bindings &b : v)
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(std::move(b));
  v = std::move(out);
}

}  // namespace

std::optional<int64_t> eval_size(const SizeExpr &e, const Bindings &b) {
  switch (e.op) {
    case SizeOp::Const: return e.value;
    case SizeOp::Var: {
      auto it = b.find(e.name);
      if (it == b.end()) return std::nullopt;
      return it->second;
    }
    case SizeOp::Neg: {
      auto x = eval_size(e.args.at(0), b);
      if (!x) return std::nullopt;
      return -*x;
    }
    default: break;
  }
  auto x = eval_size(e.args.at(0), b);
  if (!x) return std::nullopt;
  auto y = eval_size(e.args.at(1), b);
  if (!y) return std::nullopt;
  int64_t r = 0;
  switch (e.op) {
    case SizeOp::Add:
      if (__builtin_add_overflow(*x, *y, &r)) return std::nullopt;
      return r;
    case SizeOp::Sub:
      if (__builtin_sub_overflow(*x, *y, &r)) return std::nullopt;
      return r;
    case SizeOp::Mul:
      if (__builtin_mul_overflow(*x, *y, &r)) return std::nullopt;
      return r;
    case SizeOp::Div:
      if (*y == 0 || *x % *y != 0) return std::nullopt;
      return *x / *y;
    case SizeOp::Mod:
      if (*y == 0) return std::nullopt;
      return *y > 0 ? mod64(*x, *y) : *x % *y;
    case SizeOp::Pow: return checked_pow(*x, *y);
    default: return std::nullopt;
  }
}

int64_t eval_size_or_throw(const SizeExpr &e, const Bindings &b, const std::string &what) {
  if (auto v = eval_size(e, b)) return *v;
  std::set<std::string> vars;
  size_vars(e, vars);
  for (const std::string &v : vars)
    if (!b.count(v)) throw FormulaError(fmt::format("{}: size variable '{}' is not bound", what, v));
  throw FormulaError(fmt::format("{}: '{}' is not an integer here", what, to_string(e)));
}

std::optional<std::vector<Bindings>> solve_size(const SizeExpr &e, int64_t value, const Bindings &b,
                                                bool positive) {
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
    case SizeOp::Neg: return solve_size(e.args[0], -value, b, positive);
    case SizeOp::Add:
      if (auto x = known(0)) return solve_size(e.args[1], value - *x, b, positive);
      if (auto y = known(1)) return solve_size(e.args[0], value - *y, b, positive);
      return std::nullopt;
    case SizeOp::Sub:
      if (auto x = known(0)) return solve_size(e.args[1], *x - value, b, positive);
      if (auto y = known(1)) return solve_size(e.args[0], value + *y, b, positive);
      return std::nullopt;
    case SizeOp::Mul: {
      for (int side = 0; side < 2; ++side) {
        if (auto x = known(side)) {
          if (*x == 0) return value == 0 ? std::nullopt : none();
          if (value % *x != 0) return none();
          return solve_size(e.args[std::size_t(1 - side)], value / *x, b, positive);
        }
      }
      if (value <= 0) return std::nullopt;  // factorisations of 0 or of negatives: not enumerated
      // Nor of values beyond any formula size (2^40), which only a size expression's own
      // arithmetic reaches (m*n - 2^60): trial division up to sqrt(value) would take seconds.
      if (value > kMaxFactorised) return std::nullopt;
      std::vector<Bindings> out;
      std::vector<int64_t> divisors;
      for (int64_t d = 1; d * d <= value; ++d)
        if (value % d == 0) {
          divisors.push_back(d);
          if (d * d != value) divisors.push_back(value / d);
        }
      std::sort(divisors.begin(), divisors.end());
      for (int64_t d : divisors) {
        Solutions s = solve_both(e.args[0], d, e.args[1], value / d, b, positive);
        if (!s) return std::nullopt;
        out.insert(out.end(), s->begin(), s->end());
      }
      dedupe(out);
      return out;
    }
    case SizeOp::Div: {  // a / b == value, exact
      if (auto y = known(1)) {
        if (*y == 0) return none();
        int64_t r = 0;
        if (__builtin_mul_overflow(value, *y, &r)) return none();
        return solve_size(e.args[0], r, b, positive);
      }
      if (auto x = known(0)) {
        if (value == 0 || *x % value != 0) return *x == 0 && value == 0 ? std::nullopt : none();
        return solve_size(e.args[1], *x / value, b, positive);
      }
      return std::nullopt;
    }
    case SizeOp::Pow: {
      if (auto p = known(1)) {
        if (*p == 0) return value == 1 ? std::nullopt : none();
        auto r = int_root(value, *p);
        if (!r) return none();
        return solve_size(e.args[0], *r, b, positive);
      }
      if (auto base = known(0)) {  // base^x == value
        if (*base < 2 || value < 1) return std::nullopt;
        int64_t p = 0, acc = 1;
        while (acc < value) {
          if (__builtin_mul_overflow(acc, *base, &acc)) return none();
          ++p;
        }
        if (acc != value) return none();
        return solve_size(e.args[1], p, b, false);
      }
      return std::nullopt;
    }
    case SizeOp::Mod: return std::nullopt;
  }
  return std::nullopt;
}

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
