#include "backends/simd/lane_step.h"

namespace splgen::backends::simd {
namespace {

// An affine value that is 0 mod `lanes` whenever var is: every other coefficient and the
// constant are multiples of it.
bool aligned(const Affine &a, int var, int lanes) {
  if (a.c0 % lanes) return false;
  for (auto &[v, c] : a.terms)
    if (v.id != var && c % lanes) return false;
  return true;
}

}  // namespace

std::optional<int64_t> lane_step(const Idx &x, int var, int lanes) {
  if (!uses_var(x, var)) return 0;
  switch (x->kind) {
    case IdxKind::Affine: {
      for (auto &[v, c] : x->affine.terms)
        if (v.id == var) return c;
      return 0;
    }
    case IdxKind::Add: {
      auto a = lane_step(x->a, var, lanes), b = lane_step(x->b, var, lanes);
      if (!a || !b) return std::nullopt;
      return *a + *b;
    }
    case IdxKind::Mul: {
      const Affine *ca = as_affine(x->a), *cb = as_affine(x->b);
      if (ca && ca->is_constant())
        if (auto b = lane_step(x->b, var, lanes)) return ca->c0 * *b;
      if (cb && cb->is_constant())
        if (auto a = lane_step(x->a, var, lanes)) return cb->c0 * *a;
      return std::nullopt;
    }
    case IdxKind::Div:
    case IdxKind::Mod: {
      auto a = lane_step(x->a, var, lanes);
      if (a && *a == 0) return 0;
      const Affine *inner = as_affine(x->a);
      if (!a || *a != 1 || !inner || !aligned(*inner, var, lanes) || x->divisor % lanes) return std::nullopt;
      return x->kind == IdxKind::Div ? 0 : 1;
    }
    case IdxKind::Lookup: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace splgen::backends::simd
