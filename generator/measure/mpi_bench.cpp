#include "generator/measure/mpi_bench.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "generator/driver/pipeline.h"
#include "generator/ir/print.h"
#include "generator/measure/compile.h"
#include "generator/measure/machine.h"

namespace splgen::measure {

namespace {

// Open MPI refuses to start as root without these; --oversubscribe: more ranks than cores.
constexpr const char *kMpirun = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe";

std::vector<int64_t> dims_of(const Spl &spec) {
  if (spec->kind == SplKind::DFT) return {spec->a};
  if (spec->kind == SplKind::DFTnd) return spec->perm;
  throw FormulaError("bench --target mpi: times DFT(n) and DFT(n1 x n2 ...) specs; not " + print(spec));
}

int fftw_sign(const Spl &spec) {
  if (spec->b == 1) return -1;
  if (spec->b == spec->rows - 1) return 1;
  throw FormulaError("bench --target mpi: FFTW-MPI has forward and backward transforms only; not " + print(spec));
}

// The sequential kernel of a rank's points (the model's node speed): the same ISA, precision and
// direction, the plain cpp target; above the sequential size limit too (2^26 on 2 ranks).
driver::Compilation node_kernel(int64_t points, const MpiBenchOptions &o) {
  driver::GenOptions g;
  g.precision = o.precision, g.isa = o.isa, g.inverse = o.inverse, g.size_limits = false;
  g.name = "splgen_bench_node";
  return driver::run_pipeline(fmt::format("DFT({})", points), g);
}

MpiBenchRow run_one(const std::string &spec_text, const MpiBenchOptions &o, const TempDir &dir) {
  driver::GenOptions g;
  g.target = "mpi", g.ranks = o.ranks, g.precision = o.precision, g.isa = o.isa, g.inverse = o.inverse;
  g.decomposition = o.decomposition, g.grid = o.grid, g.overlap = o.overlap;
  g.name = "splgen_bench_kernel";
  driver::Compilation c = driver::run_pipeline(spec_text, g);
  std::string dims;
  for (int64_t d : dims_of(c.spec)) dims += (dims.empty() ? "" : ",") + std::to_string(d);
  const std::string grid = c.distributed && c.distributed->grid[0] > 0
                               ? fmt::format("{},{}", c.distributed->grid[0], c.distributed->grid[1]) : "0,0";
  const std::string kernel = dir.write("kernel.cpp", c.source), program = dir.write("bench.cpp", mpi_bench_program());
  const std::string node = dir.write("node.cpp", node_kernel(c.spec->rows / o.ranks, o).source);
  const bool single = o.precision == Precision::Float;
  const std::string binary = dir.file("bench");
  const std::string compile = fmt::format(
      "mpicxx -std=c++17 {} -DOMPI_SKIP_MPICXX=1 -DKERNEL=splgen_bench_kernel -DSPLGEN_FLOAT={} -DDIMS={} -DGRID={} -DROW_BLOCK={} "
      "-DSIGN={} -DNODE=splgen_bench_node -DREPS={} -DMIN_SECONDS={} {} {} {} -o {} {}",
      o.flags, single ? 1 : 0, dims, grid, c.distributed ? c.distributed->row_block : 0, fftw_sign(c.spec), o.repetitions,
      o.min_sample_seconds, shell_quote(kernel), shell_quote(node), shell_quote(program), shell_quote(binary),
      single ? "-lfftw3f_mpi -lfftw3f -lm" : "-lfftw3_mpi -lfftw3 -lm");
  auto [status, output] = run_command(compile);
  if (status != 0) throw CompileError(compile, status, output);
  auto [code, out] = run_command(fmt::format("{} -np {} {}", kMpirun, o.ranks, shell_quote(binary)));
  MpiBenchRow row{spec_text, c.spec->rows, c.distributed ? c.distributed->exchanges() : 0, 0, 0, 0};
  if (grid != "0,0") row.spec += fmt::format(" pencil {}x{}", c.distributed->grid[0], c.distributed->grid[1]);
  if (o.overlap > 1) row.spec += fmt::format(" overlap {}", o.overlap);
  if (c.distributed && c.distributed->slab_rows) row.spec += " uneven";
  std::size_t at = out.find("RESULT ");
  if (code != 0 || at == std::string::npos) {  // the program's ERROR line, else mpirun's first line
    std::size_t from = out.find("ERROR");
    if (from == std::string::npos) from = 0;
    throw std::runtime_error(fmt::format("bench --target mpi: {} on {} ranks failed: {}", spec_text, o.ranks,
                                         out.substr(from, out.find('\n', from) - from)));
  }
  std::istringstream(out.substr(at + 7)) >> row.splgen_ns >> row.fftw_ns >> row.error >> row.exchange_ns >> row.node_ns >>
      row.copy_ns;
  return row;
}

}  // namespace

double MpiBenchRow::node_gflops(int ranks) const {
  const double n = double(points / ranks);
  return 5 * n * std::log2(n) / node_ns;
}

double MpiBenchRow::copy_gbytes(int ranks, Precision precision) const {
  return 2 * (precision == Precision::Float ? 8.0 : 16.0) * double(points / ranks) / copy_ns;
}

double MpiBenchRow::exchange_gbytes(int ranks, Precision precision) const {
  const double bytes = (precision == Precision::Float ? 8.0 : 16.0) * double(points) / ranks * (ranks - 1) / ranks;
  return bytes / exchange_ns;
}

std::vector<MpiBenchRow> run_mpi_bench(const MpiBenchOptions &o, const std::function<void(const std::string &)> &progress) {
  if (!have_program("mpicxx") || !have_program("mpirun"))
    throw std::runtime_error("bench --target mpi needs mpicxx and mpirun (Debian: openmpi-bin, libopenmpi-dev, "
                             "libfftw3-mpi-dev; scripts/setup.sh installs them)");
  std::vector<MpiBenchRow> rows;
  for (const std::string &spec : o.specs) {
    progress(fmt::format("{} on {} ranks ... ", spec, o.ranks));
    TempDir dir("splgen-mpi-bench");
    rows.push_back(run_one(spec, o, dir));
    progress(fmt::format("{:.2f}x\n", rows.back().fftw_ns / rows.back().splgen_ns));
  }
  return rows;
}

std::string format_mpi_table(const MpiBenchOptions &o, const std::vector<MpiBenchRow> &rows) {
  std::string out = fmt::format("# {} ranks (mpirun on this machine: {}), {}, --isa {}; FFTW-MPI FFTW_MEASURE, interleaved, "
                                "medians of the slowest rank\n", o.ranks, cpu_model(),
                                o.precision == Precision::Float ? "float" : "double", isa_name(o.isa));
  out += fmt::format("{:<32} {:>10} {:>9} {:>14} {:>14} {:>8} {:>9} {:>10} {:>12} {:>9}\n", "spec", "n", "exchanges",
                     "splgen Gflop/s", "FFTW-MPI Gflop/s", "ratio", "error", "a2a GB/s", "node Gflop/s", "copy GB/s");
  for (const MpiBenchRow &r : rows) {
    const double flops = 5.0 * double(r.points) * std::log2(double(r.points));
    out += fmt::format("{:<32} {:>10} {:>9} {:>14.2f} {:>14.2f} {:>7.2f}x {:>9.2e} {:>10.2f} {:>12.2f} {:>9.2f}\n", r.spec,
                       r.points, r.exchanges, flops / r.splgen_ns, flops / r.fftw_ns, r.fftw_ns / r.splgen_ns, r.error,
                       r.exchange_gbytes(o.ranks, o.precision), r.node_gflops(o.ranks), r.copy_gbytes(o.ranks, o.precision));
  }
  return out;
}

}  // namespace splgen::measure
