// splgen's kernels against FFTW3, size by size (docs/design.md, "Measuring"): each kernel is
// generated, compiled into a shared object and loaded; FFTW plans of the same precision are
// made in this process; all are checked against a long-double reference once, then timed
// interleaved (timer.h). `splgen bench` prints the result (report.h); the search reuses it.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/measure/fftw.h"
#include "generator/target/target.h"

namespace splgen::measure {

// FFTW_PATIENT planning takes minutes beyond this size; larger sizes are compared with
// FFTW_MEASURE only.
constexpr std::int64_t kMaxPatientSize = std::int64_t(1) << 16;

struct BenchOptions {
  std::string spec;                  // one spec ("DFT(1024)"); empty: "KIND(n)" for each of sizes
  std::string kind = "DFT";          // KIND for sizes: DFT, or a real transform (RDFT, DCT2 ...; docs/transforms.md)
  std::vector<std::int64_t> sizes;
  Precision precision = Precision::Double;
  Isa isa = Isa::Scalar;
  bool inverse = false;
  std::vector<std::string> rule_files;
  bool prefer_rules = false;          // driver::GenOptions: the files' rules first wherever one applies
  std::vector<std::string> only_rules;  //   and a closed set of breakdown rules
  // Time the kernels made with the rule files (and the selection above) against the default
  // kernel, made without them (column "splgen default"), and FFTW: bench --compare default.
  bool compare_default = false;
  int64_t codelet_max = 0, top_codelet_max = 0;  // expansion knobs of the isa kernel (driver::GenOptions)
  bool masked_remainders = false;                 // of the isa kernel too
  bool scalar_baseline = true;       // also time the scalar backend (when isa is not Scalar)
  bool patient = true;               // also time FFTW_PATIENT plans, up to kMaxPatientSize
  int repetitions = 0;               // 0: default_repetitions(n)
  double min_sample_seconds = 5e-4;  // how long one timed sample runs at least
  std::string compiler;              // empty: default_compiler() ($CXX, else c++)
  std::string flags = "-O3 -march=native";
  // A hook for the --isa kernel's generation options (bench --wisdom puts the searched plan
  // there): called with the spec and the options; when set and default_baseline, the default
  // kernel of the isa is timed too (column "splgen default").
  std::function<driver::GenOptions(const std::string &spec, driver::GenOptions options)> tune;
  bool default_baseline = false;
  // > 1: the kernel runs this many workers (driver::GenOptions::threads) and is timed against
  // FFTW with as many threads and against splgen's own 1-thread kernel (docs/threads.md).
  int threads = 1;
  Threading threading = Threading::OpenMP;
  // A streamed spec in place (tiled(k)[DFT(n)] --in-place, docs/streaming.md): splgen's NAME(xy)
  // against FFTW_MEASURE out of place and in place.
  bool in_place = false;
};

// One timed implementation: id for machines ("splgen_avx2", "fftw_measure"), label for people
// ("splgen avx2", "FFTW_MEASURE"); a splgen kernel of an isa, or an FFTW plan of an effort.
struct Implementation {
  std::string id, label;
  bool splgen = true;
  Isa isa = Isa::Scalar;
  FftwEffort effort = FftwEffort::Measure;
  bool tuned = false;  // generated with BenchOptions::tune
  int threads = 1;     // workers of the kernel, or FFTW's plan_with_nthreads
  bool rules = true;   // generated with BenchOptions::rule_files (and their selection)
  DmaEngine dma = DmaEngine::Thread;  // streamed kernels (stream, tiled, cubic tags): the engine of NAME(y, x)
  // Not a transform: the data copied x -> y once per pass of the streamed kernel (memcpy), the
  // bandwidth floor of a kernel that reads and writes all of it each pass (issue 15).
  bool copy = false;
  // bench with a layout (bench_layout.h): the same batch contiguous, interleaved, out of place.
  bool contiguous = false;
  // In place: splgen's NAME(xy) (GenOptions::io.in_place), FFTW's plan with x == y.
  bool in_place = false;
  // WHT, which FFTW lacks: the straightforward radix-2 butterfly loop (log2 n passes of n/2
  // butterflies), compiled beside the kernel with the same compiler and flags.
  bool radix2_loop = false;
};

struct BenchRow {
  std::int64_t n = 0;
  std::string spec;            // what was generated, e.g. "DFT(1024)"
  int repetitions = 0;
  std::vector<double> ns;      // median time per transform, per implementation; NaN: not run
  std::vector<double> error;   // relative RMS error against the long-double reference; NaN: not run
  // WHT: the first kernel's additions (its loop program, count_operations) over the radix-2
  // bound n log2 n; NaN for the other kinds.
  double adds_over_bound = std::numeric_limits<double>::quiet_NaN();
};

struct BenchResult {
  // What the run was, for reports: spec ("DFT(n)" for --sizes), direction, isa, precision,
  // CPU, compiler and its version, flags, date, splgen version.
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<Implementation> implementations;
  std::vector<BenchRow> rows;

  int index(const std::string &id) const;  // of the implementation; -1 if not in this run
  std::string meta_value(const std::string &key) const;  // "" if absent
};

// Pseudo-Gflop/s as in benchFFT: 5 n log2(n) / t(ns). NaN for NaN times.
double pseudo_gflops(std::int64_t n, double ns);

// Repetitions when the options leave it to us: many for small sizes, fewer where a sample
// is one long transform.
int default_repetitions(std::int64_t n);

// Whether a spec streams its data through a local memory in passes: a stream(s), tiled(k) or
// cubic(k) tag at its top (docs/streaming.md).
bool streamed_spec(const std::string &spec);

// The implementations a run with these options times, in column order:
// splgen (isa), splgen scalar, FFTW_MEASURE, FFTW_PATIENT; with threads > 1: splgen (isa) with
// the threads, the same with 1 thread, FFTW_MEASURE and FFTW_PATIENT with the threads; with
// compare_default: splgen (isa) with the rules, splgen default, FFTW_MEASURE, FFTW_PATIENT;
// for a streamed spec: splgen (isa) with the copy-thread engine, the same with the synchronous
// engine, FFTW_MEASURE, the bandwidth floor ("memcpy floor": passes x one copy of the data);
// in place, the two splgen kernels in place and FFTW_MEASURE in place after the out-of-place one.
std::vector<Implementation> bench_implementations(const BenchOptions &options);

// The metadata of a run (spec, direction, isa, precision, cpu, compiler and its version,
// flags, FFTW's version, date, splgen's version, min_time_ms), in report order.
std::vector<std::pair<std::string, std::string>> bench_meta(const BenchOptions &options, const std::string &spec,
                                                           bool inverse);

// Called with pieces of progress text; a piece ending in '\n' ends a size's line.
using BenchProgress = std::function<void(const std::string &text)>;

// Runs the whole comparison. Bad specs throw parse::ParseError / FormulaError; a kernel that does not
// compile throws std::runtime_error with the compiler's command line and output.
BenchResult run_bench(const BenchOptions &options, const BenchProgress &progress = {});

}  // namespace splgen::measure
