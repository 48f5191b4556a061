// Twiddle tables too large to print (megabytes of literals), computed by the kernel on first
// use from their recipe (Buffer::Recipe: T(N, n, k) in diagonal order): the whole table, one
// rank's slice of it, or the slices of one rank's chunk workers. The entries come from long
// double cos/sin, within an ulp of the printed ones (which come from octant-reduced long double).
#pragma once
#include <string>
#include <vector>

#include "generator/ir/loops.h"

namespace splgen::backends {

constexpr int64_t kMaxPrintedTable = 4096;  // complex entries; larger tables with a recipe are computed on first use

bool is_computed_twiddles(const Buffer &b);

// A computed table that vector loops may read presplit: one whole table from its recipe.
bool computed_presplit(const Buffer &b);

// The source of `static const REAL *NAME_values()`: the whole table, interleaved, or with
// lanes > 1 in the presplit layout of simd/presplit_tables.h (blocks of `lanes` entries: real
// parts, then imaginary parts, entry l of a block at position place[l]; the entries after the
// last whole block interleaved).
std::string computed_table(const std::string &name, const Buffer &b, const std::string &real, int lanes = 0,
                           const std::vector<int> &place = {});
// `static const REAL *NAME_values(long worker)`: one rank's slice (lower/slice_rank_tables.h).
std::string computed_slice(const std::string &name, const Buffer &b, const std::string &real);
// The same for the chunk workers of one rank, computed together (docs/mpi.md, "Overlap").
std::string computed_rank_slices(const std::string &name, const Buffer &b, const std::string &real);

}  // namespace splgen::backends
