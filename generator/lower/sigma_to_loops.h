// Sigma-SPL -> loop IR. Gathers and scatters become the addressing of the innermost
// kernel loads and stores (index functions composed down the loop nest); Diag factors next
// to a kernel are multiplied into its loads or stores; compositions of stages write
// intermediates into the output when the later stages can run in place, else into local
// temporaries; small DFT kernels are unrolled codelets, large prime ones O(n^2) loops.
#pragma once
#include <string>

#include "generator/ir/loops.h"
#include "generator/ir/sigma.h"

namespace splgen::lower {

// How Sum_stream loops are lowered (docs/streaming.md). Off: as plain loops (same matrix).
// On: multibuffered DMA loops (stream_loop in sigma_to_loops.cpp): `buffers` chunks in
// flight, local buffers checked against local_memory bytes (0: no limit).
struct StreamOptions {
  bool dma = false;
  int buffers = 2;
  int64_t local_memory = 0;
  int64_t real_bytes = 8;  // bytes of one real number (double 8, float 4)
};

// Whether x / y hold real numbers (a real transform's kernel; docs/transforms.md): loads of
// their imaginary parts are 0, stores of them are left out.
struct RealIo {
  bool input = false, output = false;
};

// Where x and y live (docs/transforms.md, "Layouts"): index functions from the logical element
// to the position in memory (null: contiguous), folded into the first and last stages'
// addressing; one buffer for both (in place: x is read through y); separate arrays of real
// and imaginary parts (split: a printing matter, marked on the buffers).
struct IoLayout {
  IndexFn x, y;
  bool in_place = false, split = false;
};

// FormulaError (one line) when streamed blocks do not fit the local memory.
Function sigma_to_loops(const Sigma &s, const std::string &name, const StreamOptions &stream = {}, RealIo io = {},
                        const IoLayout &layout = {});

}  // namespace splgen::lower
