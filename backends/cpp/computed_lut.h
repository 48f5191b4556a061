// Rader's index permutations (generator/rewrite/functions.cpp, rader_table: W_p, z[1+b] =
// x[g^-b mod p], and its inverse) computed in the kernel on first use instead of printed, as
// Rader's diagonals are (computed_diag.h): DFT(1047107) printed its 1047107 indices, 8 MB of
// its 19 MB of source. Such a table is recognised by its entries, every one checked, so the
// kernel computes exactly the table it replaces.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace splgen::backends {

// Index tables of more entries than this are computed when they are a PowerLut: the bound of
// the printed twiddle and diagonal tables (generator/ir/diag_recipe.h, kMaxPrintedDiag).
constexpr int64_t kMaxPrintedLut = 4096;

// t[0] = 0, t[1 + b] = r^b mod p for b < p - 1 (p = t.size(), r a primitive root mod p), or
// (inverse) the inverse permutation: t[r^b mod p] = 1 + b.
struct PowerLut {
  int64_t p = 0, r = 0;
  bool inverse = false;
};
inline bool operator==(const PowerLut &x, const PowerLut &y) { return x.p == y.p && x.r == y.r && x.inverse == y.inverse; }

// The PowerLut that t is, if it is one (checked entry by entry, O(p)).
std::optional<PowerLut> power_lut(const std::vector<int64_t> &t);
// Whether index table t is computed on first use: a PowerLut of more than kMaxPrintedLut entries.
std::optional<PowerLut> computed_lut(const std::vector<int64_t> &t);

// `static const TYPE *NAME_values()`: the table, filled on first use (thread-safe static
// initialisation); TYPE is int or long. Needs <vector>.
std::string computed_lut_table(const std::string &name, const PowerLut &l, const std::string &type);

}  // namespace splgen::backends
