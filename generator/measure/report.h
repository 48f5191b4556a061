// A benchmark's result for people (a table) and for machines (CSV, JSON); the plot is plot.h.
// Speeds are pseudo-Gflop/s (bench.h); a ratio is splgen's speed over FFTW's (above 1: splgen
// is faster); errors are relative RMS errors against the long-double reference.
#pragma once
#include <string>

#include "generator/measure/bench.h"

namespace splgen::measure {

// A title line, a header line and one line per size: n, Gflop/s per implementation ("-" where
// not run), splgen (isa) over each FFTW plan, and splgen's (isa) error.
std::string format_table(const BenchResult &result);

// A header line and one record per size: n, spec, repetitions, then per implementation ID
// ID_ns, ID_gflops, ID_error, then ratio_vs_ID per FFTW plan, then the metadata but the spec (the same
// in every record, so files from several runs can be concatenated). Empty fields where not run.
std::string format_csv(const BenchResult &result);

// {"meta": {...}, "implementations": [{"id", "label"}...], "rows": [{"n", "spec",
// "repetitions", "ns": {ID: ...}, "gflops": {...}, "error": {...}, "ratio": {baseline ID: ...}}...]};
// null where not run.
std::string format_json(const BenchResult &result);

// The ratio of the first implementation's speed (splgen, isa) to that of implementation i:
// ns[i] / ns[0]; NaN when either was not run.
double speed_ratio(const BenchRow &row, int i);

// The implementations splgen is compared with: the default kernel (bench --wisdom, --compare
// default), then the FFTW plans of the run, in order.
// The column of splgen's own 1-thread kernel in a run with threads (speed-up is against it); -1 if none.
int one_thread_baseline(const BenchResult &result);
std::vector<int> baselines(const BenchResult &result);

}  // namespace splgen::measure
