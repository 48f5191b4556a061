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
// and imaginary parts (split: a printing matter, marked on the complex buffers).
// A real transform in place (FFTW's padded r2c/c2r layout): x and y are two views of one
// buffer, its real side counted in reals, its complex side in complex numbers.
// x_packed / y_packed: the layout of a real side read (written) packed, as m complex values
// per transform of 2m reals (packed_io.h); null where the side cannot be (a stride other than
// 1, an odd distance). In place, in complex numbers of the one buffer.
struct IoLayout {
  IndexFn x, y;
  IndexFn x_packed, y_packed;
  bool in_place = false, split = false;
};

// FormulaError (one line) when streamed blocks do not fit the local memory.
Function sigma_to_loops(const Sigma &s, const std::string &name, const StreamOptions &stream = {}, RealIo io = {},
                        const IoLayout &layout = {});

}  // namespace splgen::lower
