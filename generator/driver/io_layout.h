// Where a kernel's x and y live (docs/transforms.md, "Layouts"): FFTW's advanced interface
// (howmany transforms, element j of transform b at b*dist + j*stride, or in an embedding
// array, inembed/onembed), in place (one buffer) and split format (separate real and imaginary
// arrays). The batch is I(howmany) (x) spec; the strides are index functions composed into the
// first and last stages' addressing (no copy).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generator/ir/spl.h"
#include "generator/lower/sigma_to_loops.h"

namespace splgen::driver {

struct IoLayoutOptions {
  int64_t batch = 1;                          // howmany
  int64_t istride = 1, ostride = 1;           // elements (complex, or real on a real side)
  std::optional<int64_t> idist, odist;        // unset: the transform's size times the stride
  // FFTW's inembed/onembed: the dimensions of the arrays the transforms are subarrays of
  // (element (i_0 .. i_d-1) at stride * sum_k i_k prod_{l>k} embed_l); empty: dense.
  std::vector<int64_t> inembed, onembed;
  bool in_place = false;                      // NAME(xy): y overwrites x
  bool split = false;                         // NAME(yr, yi, xr, xi)
  bool plain() const {  // one contiguous interleaved transform, out of place
    return batch == 1 && !strided() && !in_place && !split;
  }
  bool strided() const {
    return istride != 1 || ostride != 1 || idist || odist || !inembed.empty() || !onembed.empty();
  }
};

// "64 x 50" (the dimension syntax of DFT(64 x 48)) as {64, 50}; FormulaError (one line,
// naming the text) for anything else or a dimension below 1.
std::vector<int64_t> parse_embed(const std::string &text);

struct GenOptions;

// One side of one transform as the kernel addresses it: element j of transform b at
// b*dist + at(j), counted in reals on a real side and in complex numbers on a complex one.
// Unset distances are the contiguous ones (the size of the array, the embedding's where there
// is one, times the stride); for a real transform in place, FFTW's padded layout: the complex
// side's n/2+1 times its stride (or half the real side's distance, rounded up), the real side's
// twice the complex side's.
struct IoSide {
  int64_t n = 0, stride = 1, dist = 0;
  bool real = false;
  std::vector<int64_t> dims, embed;  // row-major; embed empty: dense (j*stride)
  // Where element j (row-major over dims) lies from its transform's first: stride times its
  // row-major index in the embedding array.
  int64_t at(int64_t j) const;
  int64_t extent() const { return at(n - 1) + 1; }  // the elements one transform spans
};
IoSide io_input_side(const Spl &one, const IoLayoutOptions &io);
IoSide io_output_side(const Spl &one, const IoLayoutOptions &io);

// The spec as a batch, I(batch) (x) spec (the spec itself for batch 1).
Spl batched_spec(const Spl &spec, const IoLayoutOptions &io);
// FormulaError (one line) for a layout this spec and these options cannot have: a batch below
// 1, a stride below 1, a negative distance, an embedding of the wrong rank or smaller than the
// transform, embeddings of real transforms and GPU kernels, two outputs on one element, in place with another
// output layout or a spec whose y and x differ in size (a real transform in place: transforms
// that share a real of the buffer, or a real side not packable), split with a real side, and
// the combinations not built yet (threads, streamed, block layouts). `spec` is one transform.
void check_io_layout(const Spl &spec, const GenOptions &options);
// The index functions of x and y for sigma_to_loops; `batched` is batched_spec(spec).
lower::IoLayout io_layout_functions(const Spl &batched, const IoLayoutOptions &io);
// "batch 1000, x[b*256 + j], y[b + j*1000], interleaved complex, out-of-place": the header
// comment's account of the layout; `batched` is batched_spec(spec).
std::string describe_io_layout(const Spl &batched, const IoLayoutOptions &io);
// The transform inside a batch (the spec itself when it is none).
Spl one_transform(const Spl &batched, const IoLayoutOptions &io);

// The vector widths the batch `spec` = I(b) (x) A runs across (lower/vectorise_batch.h),
// widest first; empty where it stays vectorised inside each transform. The rule
// (docs/transforms.md, "Batches vectorised across the batch"): a vector ISA, b at least the
// widest width nu, A complex on both sides and interleaved (split data are not vectorised),
// one thread, no tags; and either A one codelet (n <= kCodeletMax) with the batch's x and y in
// kAcrossBatchMaxBytes, or one side of the layout with adjacent transforms closer than a
// transform's own elements (idist < istride or odist < ostride: the lanes' elements adjacent)
// and n nu <= kAcrossBatchMaxInterleaved. A contiguous batch of a split A loses across
// (1000 x DFT(64): AVX2 0.81x FFTW against 0.92x inside, AVX-512 0.72x against 1.40x; Xeon).
std::vector<int> batch_vector_widths(const Spl &spec, const GenOptions &options);
// The L2 of the Xeon measured (2 MiB a core). Beyond it the codelet across nu transforms waits
// on memory more than the vector loops inside each: 10^5 x DFT(16), AVX-512 double, 0.92x and
// 1.02x FFTW across against 1.34x and 1.86x inside; in it 1000 x DFT(16): 1.02x against 0.64x.
inline constexpr int64_t kAcrossBatchMaxBytes = int64_t(2) << 20;
// A's stages then run with intermediates of n nu complex elements: in L1 (32 KB of doubles).
// 1000 x DFT(256) written --ostride 1000 --odist 1: AVX2 1.47x FFTW against 1.14x inside.
inline constexpr int64_t kAcrossBatchMaxInterleaved = 2048;

}  // namespace splgen::driver
