// Integer affine expressions over loop variables, c0 + sum c_v * v, each variable with a
// known extent (0 <= v < extent). Index functions and loop-IR indices are built from them.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace splgen {

struct LoopVar {
  int id = 0;
  int64_t extent = 1;
  auto operator<=>(const LoopVar &) const = default;
};

// Values of loop variables while a Sigma-SPL formula or loop nest is evaluated.
using Env = std::map<int, int64_t>;

struct Affine {
  int64_t c0 = 0;
  std::vector<std::pair<LoopVar, int64_t>> terms;  // sorted by variable id, non-zero coefficients

  static Affine constant(int64_t c) { return Affine{c, {}}; }
  static Affine var(LoopVar v, int64_t coeff = 1);
  bool is_constant() const { return terms.empty(); }
  int64_t min() const;  // over all variable values
  int64_t max() const;
  int64_t eval(const Env &env) const;
  bool divisible_by(int64_t d) const;  // every coefficient and c0
  bool operator==(const Affine &) const = default;
};

Affine operator+(const Affine &x, const Affine &y);
Affine operator*(const Affine &x, int64_t c);
inline Affine operator+(const Affine &x, int64_t c) { return x + Affine::constant(c); }
// x / d and x mod d as affine expressions, when the variable ranges prove it exact.
std::optional<std::pair<Affine, Affine>> divmod(const Affine &x, int64_t d);
Affine exact_div(const Affine &x, int64_t d);  // requires divisible_by(d)

// t[x] as an affine expression in x's variables, when it is one at every value they take
// (checked at all of them; nothing beyond 2^22 values): a permutation read along a loop, e.g.
// the pair (k, m-k) of the real DFT's post-pass, becomes plain index arithmetic.
std::optional<Affine> affine_through_table(const std::vector<int64_t> &t, const Affine &x);

// "4*i0 + 3"
std::string to_string(const Affine &x);
std::string var_name(int id);  // "i0"

}  // namespace splgen
