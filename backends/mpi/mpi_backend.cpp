#include "backends/mpi/mpi_backend.h"

#include <fmt/format.h>

#include <climits>
#include <set>
#include <stdexcept>

#include "backends/cpp/cpp_backend.h"
#include "backends/kernel_name.h"

namespace splgen::backends {

namespace {

const RankLoops &ranks_of(const LoopProgram &p) {
  if (!p.ranks) throw std::invalid_argument("emit_mpi: not a distributed kernel (no par tag was distributed)");
  return *p.ranks;
}

std::string real_type(Precision p) { return p == Precision::Float ? "float" : "double"; }

std::string declaration(const std::string &name, Precision p) {
  return fmt::format("int {}({} *y, const {} *x, MPI_Comm comm)", name, real_type(p), real_type(p));
}

// One local step's C++ kernel in a namespace of its own (the constants of two steps may share
// names); its #include lines and its SIMD helpers (guarded once per file, for unity builds) go
// to `top`, once each, at the top of the file.
std::string step_unit(const Function &f, const EmitOptions &o, std::set<std::string> &includes,
                      std::vector<std::string> &include_order, std::string &top) {
  CppEmitOptions cpp{o.precision, {}, o.isa, Threading::Spmd, o.dma};
  const std::string text = emit_cpp(f, cpp);
  std::string body;
  std::size_t start = 0;
  int helper_depth = 0;  // > 0: inside a #ifndef SPLGEN_SIMD_HELPERS_* block
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("#ifndef SPLGEN_SIMD_HELPERS", 0) == 0 || helper_depth > 0) {
      if (line.rfind("#if", 0) == 0) ++helper_depth;
      if (line.rfind("#endif", 0) == 0) --helper_depth;
      top += line + "\n";
      continue;
    }
    if (line.rfind("#include", 0) == 0) {
      if (includes.insert(line).second) include_order.push_back(line);
      continue;
    }
    body += line + "\n";
  }
  return fmt::format("namespace {}_unit {{\n{}}}  // namespace {}_unit\n", f.name, body, f.name);
}

// Where step i reads and writes: x first, y last, the scratch t between (alternating from the
// back, so that no step reads the buffer it writes). A chunked exchange after a step that reads
// its whole input (column_offset) receives into a second scratch u: that step's later chunks
// still read the buffer the exchange would otherwise receive into.
std::vector<std::string> step_outputs(const RankLoops &r) {
  const std::vector<RankLoops::Step> &steps = r.steps;
  std::vector<std::string> out(steps.size());
  // An uneven slab kernel's padded parts fit neither x nor y: each step writes scratch t, each
  // exchange receives into u, and only the last step writes y.
  if (r.slab_rows) {
    for (std::size_t i = 0; i < steps.size(); ++i) out[i] = i + 1 == steps.size() ? "y" : steps[i].exchange ? "u" : "t";
    return out;
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    out[i] = (steps.size() - 1 - i) % 2 == 0 ? "y" : "t";
    if (i > 0 && steps[i].exchange && steps[i - 1].column_offset) out[i] = "u";
  }
  return out;
}

// The communicator of each group an exchange runs in (RankGroup): `comm` itself, or one made by
// MPI_Comm_split for a row or column of a pencil grid. They are made on every call and freed
// before it returns (an object's destructor, on every path): the kernel keeps no state between
// calls, so nothing outlives a communicator the caller frees; a split is one all-gather of P
// ints, microseconds against exchanges of megabytes (docs/mpi.md, "Pencils").
std::vector<RankGroup> groups_of(const RankLoops &r) {
  std::vector<RankGroup> groups;
  for (const RankLoops::Step &s : r.steps) {
    if (!s.exchange || !s.group.size) continue;
    bool known = false;
    for (const RankGroup &g : groups) known |= g.size == s.group.size && g.stride == s.group.stride;
    if (!known) groups.push_back(s.group);
  }
  return groups;
}

std::string group_comm(const std::vector<RankGroup> &groups, const RankGroup &g) {
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (g.size && groups[i].size == g.size && groups[i].stride == g.stride) return fmt::format("groups.comm[{}]", i);
  return "comm";
}

// An uneven slab kernel (lower/uneven_slabs.h): the rank's rows of m, MPI_Alltoallv's counts
// and displacements (in reals; block d of a padded part at d a0 C', the rows of rank d or of this
// rank of it sent), and x's rows, read into zeroed padding where the rank has fewer than a0.
std::string uneven_slab_prologue(const RankLoops &r, const std::string &real) {
  const int64_t m = r.slab_rows, a0 = r.row_block, R = r.row_points, P = r.ranks, Cp = r.local / (P * a0);
  if (2 * r.local > INT_MAX) throw std::invalid_argument("emit_mpi: an exchange displacement does not fit an MPI count (int)");
  std::string s = fmt::format("  // rows: this rank's rows of m = {0} (FFTW-MPI's local_n0); x holds rows * {1} points\n"
                              "  const int rows = std::max(0, std::min({0}, (rank + 1) * {2}) - rank * {2});\n", m, R, a0);
  s += fmt::format("  int *const theirs = counts.data(), *const mine = theirs + {0}, *const at = mine + {0};\n"
                   "  for (int d = 0; d < {0}; ++d) {{\n"
                   "    theirs[d] = {1} * std::max(0, std::min({2}, (d + 1) * {3}) - d * {3});\n"
                   "    mine[d] = {1} * rows;\n"
                   "    at[d] = {4} * d;\n  }}\n", P, 2 * Cp, m, a0, 2 * a0 * Cp);
  s += fmt::format("  const {0} *x_rows = x;\n"
                   "  if (rows < {1}) {{  // the rows past the rank's own: zeros, not what lies past x's part\n"
                   "    std::fill(std::copy(x, x + {2}L * rows, u), u + {3}L, {0}(0));\n"
                   "    x_rows = u;\n  }}\n", real, a0, 2 * R, 2 * a0 * R);
  return s;
}

// One MPI_Alltoallv of an uneven slab kernel: block d of each padded part at displacement
// at[d], only the valid rows sent (the sender's own rows, or the receiver's).
std::string uneven_exchange(const std::string &in, const std::string &out, ExchangeCounts counts, const std::string &mpi_real) {
  const bool sender = counts == ExchangeCounts::SenderRows;
  return fmt::format("  if ((err = MPI_Alltoallv({0}, {2}, at, {4}, {1}, {3}, at, {4}, comm)) != MPI_SUCCESS) return err;\n", in, out,
                     sender ? "mine" : "theirs", sender ? "theirs" : "mine", mpi_real);
}

std::string kernel_body(const RankLoops &r, const std::string &name, Precision p) {
  const std::vector<std::string> out = step_outputs(r);
  const bool scratch = std::count(out.begin(), out.end(), "t") > 0, second = std::count(out.begin(), out.end(), "u") > 0;
  const std::string real = real_type(p), mpi_real = p == Precision::Float ? "MPI_FLOAT" : "MPI_DOUBLE";
  std::string s = fmt::format("extern \"C\" {} {{\n", declaration(name, p));
  s += "  int ranks = 0, rank = 0;\n"
       "  if (MPI_Comm_size(comm, &ranks) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return MPI_ERR_COMM;\n";
  s += fmt::format("  if (ranks != {}) return MPI_ERR_SIZE;  // the same on every rank: all return\n", r.ranks);
  s += "  // A rank that cannot run (a null pointer, no memory) makes every rank return: no rank is left\n"
       "  // waiting in an exchange.\n";
  s += "  int ok = x != nullptr && y != nullptr && static_cast<const void *>(x) != static_cast<const void *>(y);\n";
  if (scratch)  // zeroed when first made: the padding of an uneven slab kernel is never garbage
    s += fmt::format("  static thread_local std::vector<{}> scratch;\n{}"
                     "  try {{\n    scratch.resize({});\n{}  }} catch (const std::bad_alloc &) {{\n    ok = 0;\n  }}\n",
                     real, r.slab_rows ? "  static thread_local std::vector<int> counts;  // MPI_Alltoallv's\n" : "",
                     (second ? 4 : 2) * r.local, r.slab_rows ? fmt::format("    counts.resize({});\n", 3 * r.ranks) : "");
  s += "  int all = 0;\n"
       "  if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) return MPI_ERR_OTHER;\n"
       "  if (!all) return MPI_ERR_BUFFER;\n";
  if (scratch) s += fmt::format("  {} *const t = scratch.data();\n", real);
  if (second) s += fmt::format("  {} *const u = t + {};\n", real, 2 * r.local);
  if (r.slab_rows) s += uneven_slab_prologue(r, real);
  s += "  int err = MPI_SUCCESS;\n";
  const std::vector<RankGroup> groups = groups_of(r);
  if (!groups.empty()) {
    s += fmt::format("  struct Groups {{  // the grid's rows and columns, freed on every return\n"
                     "    MPI_Comm comm[{0}];\n"
                     "    Groups() {{\n      for (MPI_Comm &c : comm) c = MPI_COMM_NULL;\n    }}\n"
                     "    ~Groups() {{\n      for (MPI_Comm &c : comm)\n        if (c != MPI_COMM_NULL) MPI_Comm_free(&c);\n    }}\n"
                     "  }} groups;\n", groups.size());
    for (std::size_t i = 0; i < groups.size(); ++i)  // color: the group's first rank; key: the place in it
      s += fmt::format("  if ((err = MPI_Comm_split(comm, rank - rank / {0} % {1} * {0}, rank / {0} % {1}, &groups.comm[{2}])) != "
                       "MPI_SUCCESS) return err;\n", groups[i].stride, groups[i].size, i);
  }
  // --overlap K (docs/mpi.md, "Overlap"): a chunked exchange's K MPI_Ialltoall, each started as
  // soon as the step before has written its chunk and waited for just before the step after
  // reads that chunk; the compute on one chunk runs while the others are in flight.
  int chunked = 0;
  for (const RankLoops::Step &step : r.steps) chunked += step.exchange && step.chunks > 1;
  if (chunked)
    s += fmt::format("  struct Requests {{  // in flight; waited for on every return, so no buffer is left in use\n"
                     "    MPI_Request r[{0}][{1}];\n"
                     "    Requests() {{\n      for (auto &e : r)\n        for (MPI_Request &q : e) q = MPI_REQUEST_NULL;\n    }}\n"
                     "    ~Requests() {{\n      for (auto &e : r) MPI_Waitall({1}, e, MPI_STATUSES_IGNORE);\n    }}\n"
                     "  }} requests;\n", chunked, r.steps.front().chunks);
  auto chunked_exchange = [&](std::size_t i) { return i < r.steps.size() && r.steps[i].exchange && r.steps[i].chunks > 1; };
  std::vector<int> request(r.steps.size(), -1);  // a chunked exchange's row of requests
  for (std::size_t i = 0, e = 0; i < r.steps.size(); ++i)
    if (chunked_exchange(i)) request[i] = int(e++);
  std::string in = r.slab_rows ? "x_rows" : "x";
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const RankLoops::Step &step = r.steps[i];
    const int64_t group = step.group.size ? step.group.size : r.ranks, slice = r.local / step.chunks;
    const int64_t block = 2 * (slice / group);  // reals each rank sends to each (of a chunk)
    if (block > INT_MAX) throw std::invalid_argument("emit_mpi: an exchange block does not fit an MPI count (int)");
    const std::string comm = group_comm(groups, step.group);
    if (step.exchange && step.chunks > 1) {  // started by the step before, in its loop
      if (i == 0 || r.steps[i - 1].exchange || r.steps[i - 1].chunks != step.chunks)
        throw std::invalid_argument("emit_mpi: a chunked exchange without a chunked step before it");
    } else if (step.exchange && step.group.counts != ExchangeCounts::Blocks) {
      s += uneven_exchange(in, out[i], step.group.counts, mpi_real);
    } else if (step.exchange) {
      s += fmt::format("  if ((err = MPI_Alltoall({0}, {2}, {3}, {1}, {2}, {3}, {4})) != MPI_SUCCESS) return err;\n", in,
                       out[i], block, mpi_real, comm);
    } else if (step.chunks == 1) {
      s += fmt::format("  {}_unit::{}({}, {}, rank);\n", step.local.name, step.local.name, out[i], in);
    } else {
      // a step that reads its whole input (columns of it) needs every chunk of the exchange before
      if (chunked_exchange(i - 1) && step.column_offset)
        s += fmt::format("  if ((err = MPI_Waitall({}, requests.r[{}], MPI_STATUSES_IGNORE)) != MPI_SUCCESS) return err;\n",
                         step.chunks, request[i - 1]);
      s += fmt::format("  for (int c = 0; c < {}; ++c) {{\n", step.chunks);
      if (chunked_exchange(i - 1) && !step.column_offset)
        s += fmt::format("    if ((err = MPI_Wait(&requests.r[{}][c], MPI_STATUS_IGNORE)) != MPI_SUCCESS) return err;\n",
                         request[i - 1]);
      // chunk workers: chunk c of this rank is the step's worker rank * K + c (its own twiddles)
      s += fmt::format("    {0}_unit::{0}({1} + c * {3}, {2} + c * {4}, {5});\n", step.local.name, out[i], in, 2 * slice,
                       2 * (step.column_offset ? step.column_offset : slice),
                       step.chunk_workers ? fmt::format("rank * {} + c", step.chunks) : "rank");
      if (chunked_exchange(i + 1)) {
        const RankLoops::Step &x = r.steps[i + 1];
        const int64_t xblock = 2 * (slice / (x.group.size ? x.group.size : r.ranks));
        s += fmt::format("    if ((err = MPI_Ialltoall({0} + c * {2}, {3}, {4}, {1} + c * {2}, {3}, {4}, {5}, &requests.r[{6}][c])) "
                         "!= MPI_SUCCESS)\n      return err;\n", out[i], out[i + 1], 2 * slice, xblock, mpi_real,
                         group_comm(groups, x.group), request[i + 1]);
      }
      s += "  }\n";
      if (chunked_exchange(i + 1) && !(i + 2 < r.steps.size() && r.steps[i + 2].chunks > 1))
        s += fmt::format("  if ((err = MPI_Waitall({}, requests.r[{}], MPI_STATUSES_IGNORE)) != MPI_SUCCESS) return err;\n",
                         step.chunks, request[i + 1]);
    }
    in = out[i];
  }
  return s + "  return MPI_SUCCESS;\n}\n";
}

// The distribution of x and y, as lines for the header comment.
std::vector<std::string> distribution_lines(const RankLoops &r) {
  auto part = [&](const char *v, int64_t packet) {
    if (!packet)
      return fmt::format("{}: block; rank k holds the {} points from k*{} on (FFTW-MPI's local_n0 = {}, local_0_start = k*{})",
                         v, r.local, r.local, r.local, r.local);
    return fmt::format("{}: cyclic({}); rank k holds packets k, k+{}, k+{}, ... of {} points: {}[(j*{} + k)*{} + t] is its "
                       "point j*{} + t", v, packet, r.ranks, 2 * r.ranks, packet, v, r.ranks, packet, packet);
  };
  int exchanges = 0;
  for (const RankLoops::Step &s : r.steps) exchanges += s.exchange;
  if (r.slab_rows) {
    const int64_t m = r.slab_rows, a0 = r.row_block, R = r.row_points;
    const std::string rows = fmt::format("rank k holds rows [k*{0}, min({1}, (k+1)*{0})) of the {1} rows of {2} points (FFTW-MPI's default: "
                                         "local_n0 = min({0}, max(0, {1} - k*{0})), local_0_start = k*{0}; the last ranks fewer rows, "
                                         "{3} on rank {4})", a0, m, R, r.rows_of(r.ranks - 1), r.ranks - 1);
    return {fmt::format("distributed: {} MPI ranks, uneven slabs of {} rows of m = {}; {} all-to-all exchanges (MPI_Alltoallv); "
                        "NAME(y, x, comm) on every rank of a communicator of {} ranks (docs/mpi.md)", r.ranks, a0, m, exchanges, r.ranks),
            "x: " + rows, "y: the same rows of y",
            fmt::format("allocation: x and y each of {0} complex values ({1} rows of {2}) on every rank, as FFTW-MPI's alloc_local: "
                        "the kernel reads local_n0*{2} points of x and writes all {0} of y, its rows past local_n0 padding",
                        a0 * R, a0, R)};
  }
  if (r.grid[0] > 0) {
    const int64_t m = r.dims[0], n = r.dims[1], q = r.dims[2], p0 = r.grid[0], p1 = r.grid[1];
    return {fmt::format("distributed: {} MPI ranks, {} points each, pencils of a {} x {} grid (rank k = a*{} + b); {} all-to-all "
                        "exchanges (in rows, then columns of the grid); NAME(y, x, comm) on every rank of a communicator of {} "
                        "ranks (docs/mpi.md)", r.ranks, r.local, p0, p1, p1, exchanges, r.ranks),
            fmt::format("x: {} x {} x {} row-major; rank (a, b) holds x[a*{} + i][b*{} + j][t], i < {}, j < {}, t < {} (FFTW-MPI's "
                        "local_n0 = {}, local_0_start = a*{}; local_n1 = {}, local_1_start = b*{})", m, n, q, m / p0, n / p1,
                        m / p0, n / p1, q, m / p0, m / p0, n / p1, n / p1),
            fmt::format("y: {} x {} x {} row-major; rank (a, b) holds y[i][a*{} + j][b*{} + t], i < {}, j < {}, t < {} (local_n1 = "
                        "{}, local_1_start = a*{}; local_n2 = {}, local_2_start = b*{})", m, n, q, n / p0, q / p1, m, n / p0,
                        q / p1, n / p0, n / p0, q / p1, q / p1)};
  }
  return {fmt::format("distributed: {} MPI ranks, {} points each; {} all-to-all exchanges; NAME(y, x, comm) on every rank "
                      "of a communicator of {} ranks (docs/mpi.md)", r.ranks, r.local, exchanges, r.ranks),
          part("x", r.x_packet), part("y", r.y_packet)};
}

}  // namespace

std::string emit_mpi(const LoopProgram &program, const EmitOptions &options) {
  const RankLoops &r = ranks_of(program);
  std::set<std::string> includes{"#include <mpi.h>", "#include <new>", "#include <vector>"};
  std::vector<std::string> order{"#include <mpi.h>", "#include <new>", "#include <vector>"};
  if (r.slab_rows) includes.insert("#include <algorithm>"), order.insert(order.begin() + 1, "#include <algorithm>");
  std::string units, helpers;
  for (const RankLoops::Step &s : r.steps)
    if (!s.exchange) units += "\n" + step_unit(s.local, options, includes, order, helpers);
  std::string out;
  for (const std::string &h : options.header_lines) out += cpp_comment_lines(h);
  for (const std::string &h : distribution_lines(r)) out += cpp_comment_lines(h);
  out += "\n";
  for (const std::string &i : order) out += i + "\n";
  if (!helpers.empty()) out += "\n" + helpers;
  return out + units + "\n" + kernel_body(r, program.name(), options.precision);
}

std::string emit_mpi_header(const LoopProgram &program, const EmitOptions &options) {
  const RankLoops &r = ranks_of(program);
  if (!is_c_identifier(program.name()))
    throw std::invalid_argument(fmt::format("emit_mpi_header: function name '{}' is not a C identifier", program.name()));
  std::string out;
  for (const std::string &h : options.header_lines) out += cpp_comment_lines(h);
  for (const std::string &h : distribution_lines(r)) out += cpp_comment_lines(h);
  std::string guard = program.name() + "_H";
  for (char &c : guard) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (guard.rfind("SPLGEN_", 0) != 0) guard = "SPLGEN_" + guard;
  return out + fmt::format("\n#ifndef {0}\n#define {0}\n\n#include <mpi.h>\n\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n"
                           "{1};\n\n#ifdef __cplusplus\n}}  // extern \"C\"\n#endif\n\n#endif  // {0}\n",
                           guard, declaration(program.name(), options.precision));
}

}  // namespace splgen::backends
