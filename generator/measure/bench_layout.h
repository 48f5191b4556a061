// bench with a layout (docs/transforms.md, "Layouts"): splgen's kernel with FFTW's
// advanced-interface strides, in place or in split format, timed in one run, interleaved,
// against the same batch contiguous, interleaved and out of place (what the layout costs),
// and FFTW_MEASURE's guru plan of the same layout and of the contiguous batch.
#pragma once
#include "generator/driver/io_layout.h"
#include "generator/measure/bench.h"

namespace splgen::measure {

// The columns: splgen ISA with the layout, splgen ISA contiguous, FFTW_MEASURE with the
// layout, FFTW_MEASURE contiguous.
std::vector<Implementation> layout_bench_implementations(const BenchOptions &options);

// Complex DFTs only (DFT(n), DFT(a x b ...)): FormulaError for other specs, and for the
// options this bench does not take (threads, rules comparison, tuning).
BenchResult run_layout_bench(const BenchOptions &options, const driver::IoLayoutOptions &io,
                             const BenchProgress &progress = {});

}  // namespace splgen::measure
