#include "backends/cpp/computed_twiddles.h"

#include <fmt/format.h>

#include <stdexcept>

namespace splgen::backends {

bool is_computed_twiddles(const Buffer &b) {
  return b.role == BufferRole::Table && b.recipe.N > 0 && (b.size > kMaxPrintedTable || b.recipe.worker_stride > 0);
}

// One rank's slice of a twiddle table (lower/slice_rank_tables.h): entries [worker * S, + size),
// computed when a thread first asks for that rank's, kept per thread.
std::string computed_slice(const std::string &name, const Buffer &b, const std::string &real) {
  const Buffer::Recipe &r = b.recipe;
  return fmt::format(
      "// entries [worker * {S}, + {C}) of T({N}, {n}, {k}) in diagonal order: this rank's twiddles only.\n"
      "static const {real} *{name}_values(long worker) {{\n"
      "  static thread_local long cached = -1;\n"
      "  static thread_local std::vector<{real}> table;\n"
      "  if (cached != worker) {{\n"
      "    table.resize(2 * {C}L);\n"
      "    const long double step = 6.283185307179586476925286766559005768L / {N}.0L;\n"
      "    for (long i = 0; i < {C}L; ++i) {{\n"
      "      const long q = worker * {S}L + i;\n"
      "      long e = (q / {n}L) * (q % {n}L) % {N}L * {km}L % {N}L;\n"
      "      if (e < 0) e += {N}L;\n"
      "      table[2 * i] = static_cast<{real}>(std::cos(step * static_cast<long double>(e)));\n"
      "      table[2 * i + 1] = static_cast<{real}>(-std::sin(step * static_cast<long double>(e)));\n"
      "    }}\n"
      "    cached = worker;\n"
      "  }}\n"
      "  return table.data();\n"
      "}}\n",
      fmt::arg("N", r.N), fmt::arg("n", r.n), fmt::arg("k", r.k), fmt::arg("km", ((r.k % r.N) + r.N) % r.N),
      fmt::arg("S", r.worker_stride), fmt::arg("C", b.size), fmt::arg("real", real), fmt::arg("name", name));
}

// The slices of the W = workers_per_rank chunk workers of one rank (docs/mpi.md, "Overlap"):
// worker w's are entries [w * S, + C) (S = C), so rank w / W's W slices are one run of W C
// entries, computed together when a thread first asks for one of them: the rank's chunks call
// the step in turn, and a cache of one slice would recompute it for every chunk.
std::string computed_rank_slices(const std::string &name, const Buffer &b, const std::string &real) {
  const Buffer::Recipe &r = b.recipe;
  if (r.worker_stride != b.size) throw std::invalid_argument(fmt::format("emit_cpp: table {} has gaps between its slices", b.name));
  return fmt::format(
      "// entries [worker * {S}, + {C}) of T({N}, {n}, {k}) in diagonal order, from the {W} slices of this rank's\n"
      "// chunk workers worker / {W} * {W} .. + {W}, computed together once.\n"
      "static const {real} *{name}_values(long worker) {{\n"
      "  static thread_local long cached = -1;\n"
      "  static thread_local std::vector<{real}> table;\n"
      "  const long rank = worker / {W};\n"
      "  if (cached != rank) {{\n"
      "    table.resize(2 * {WC}L);\n"
      "    const long double step = 6.283185307179586476925286766559005768L / {N}.0L;\n"
      "    for (long i = 0; i < {WC}L; ++i) {{\n"
      "      const long q = rank * {WC}L + i;\n"
      "      long e = (q / {n}L) * (q % {n}L) % {N}L * {km}L % {N}L;\n"
      "      if (e < 0) e += {N}L;\n"
      "      table[2 * i] = static_cast<{real}>(std::cos(step * static_cast<long double>(e)));\n"
      "      table[2 * i + 1] = static_cast<{real}>(-std::sin(step * static_cast<long double>(e)));\n"
      "    }}\n"
      "    cached = rank;\n"
      "  }}\n"
      "  return table.data() + 2 * {C}L * (worker % {W});\n"
      "}}\n",
      fmt::arg("N", r.N), fmt::arg("n", r.n), fmt::arg("k", r.k), fmt::arg("km", ((r.k % r.N) + r.N) % r.N),
      fmt::arg("S", r.worker_stride), fmt::arg("C", b.size), fmt::arg("W", r.workers_per_rank),
      fmt::arg("WC", r.workers_per_rank * b.size), fmt::arg("real", real), fmt::arg("name", name));
}

// A twiddle table too large to print (megabytes of literals): a function that fills it on
// first use (thread-safe static initialisation) from long double cos/sin: the entries are
// then within an ulp of the printed ones (which come from octant-reduced long double).
// With lanes > 1, in the presplit layout of simd/presplit_tables.h (blocks of `lanes` entries:
// real parts, then imaginary parts, entry l of a block at position place[l]; the entries after
// the last whole block interleaved).
std::string computed_table(const std::string &name, const Buffer &b, const std::string &real, int lanes,
                           const std::vector<int> &place) {
  const Buffer::Recipe &r = b.recipe;
  if (r.N != b.size || r.n <= 0) throw std::invalid_argument(fmt::format("emit_cpp: bad recipe for table {}", b.name));
  const std::string cos = fmt::format("static_cast<{}>(std::cos(step * static_cast<long double>(e)))", real);
  const std::string sin = fmt::format("static_cast<{}>(-std::sin(step * static_cast<long double>(e)))", real);
  std::string where = fmt::format("      v[2 * q] = {};\n      v[2 * q + 1] = {};\n", cos, sin), layout, places;
  if (lanes > 1) {
    for (int p : place) places += fmt::format("{}{}", places.empty() ? "" : ", ", p);
    layout = fmt::format("// Blocks of {} entries: real parts, then imaginary parts, in register lane order.\n", lanes);
    where = fmt::format(
        "      const {real} re = {cos}, im = {sin};\n"
        "      if (q < {W}L) {{\n"
        "        static const int place[{L}] = {{{P}}};\n"
        "        const long at = q / {L} * {L2} + place[q % {L}];\n"
        "        v[at] = re;\n        v[at + {L}] = im;\n"
        "      }} else {{\n"
        "        v[2 * q] = re;\n        v[2 * q + 1] = im;\n"
        "      }}\n",
        fmt::arg("W", r.N - r.N % lanes), fmt::arg("L", lanes), fmt::arg("L2", 2 * lanes), fmt::arg("P", places),
        fmt::arg("real", real), fmt::arg("cos", cos), fmt::arg("sin", sin));
  }
  return fmt::format(
      "// T({N}, {n}, {k}) in diagonal order, computed on first use: entry q is w_{N}^({k} (q / {n}) (q % {n})).\n"
      "{layout}"
      "static const {real} *{name}_values() {{\n"
      "  static const std::vector<{real}> table = [] {{\n"
      "    std::vector<{real}> v(2 * {N}L);\n"
      "    const long double step = 6.283185307179586476925286766559005768L / {N}.0L;\n"
      "    for (long q = 0; q < {N}L; ++q) {{\n"
      "      long e = (q / {n}L) * (q % {n}L) % {N}L * {km}L % {N}L;\n"
      "      if (e < 0) e += {N}L;\n"
      "{where}"
      "    }}\n"
      "    return v;\n"
      "  }}();\n"
      "  return table.data();\n"
      "}}\n",
      fmt::arg("N", r.N), fmt::arg("n", r.n), fmt::arg("k", r.k), fmt::arg("km", ((r.k % r.N) + r.N) % r.N),
      fmt::arg("real", real), fmt::arg("name", name), fmt::arg("layout", layout), fmt::arg("where", where));
}

// A computed table that vector loops may read presplit: one whole table from its recipe.
bool computed_presplit(const Buffer &b) { return is_computed_twiddles(b) && b.recipe.worker_stride == 0; }

}  // namespace splgen::backends
