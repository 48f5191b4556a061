// splgen bench --target cuda (docs/cuda.md): GPU kernels against cuFFT on the same card. Each
// spec's kernel is generated (`gen --target cuda`), compiled with nvcc beside a timing program
// (cuda_bench_program.cpp's text) and run; that program times the kernel and a cufftPlanMany of
// the same dims, batch and sign with cudaEvents, interleaved, and reports the medians, the
// errors against cuFFT and a long-double reference, and the card's copy bandwidth.
// The GPU machine may not run splgen itself: `keep` writes each spec's files and a script that
// builds and runs them there (`no_run`: only that).
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator/ir/gpu_knobs.h"
#include "generator/target/target.h"

namespace splgen::measure {

// No nvcc, or no GPU (the program's "no CUDA device" line): this machine's lack, not splgen's fault.
struct CudaUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A file of --keep DIR could not be written.
struct CudaKeepError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The GPU parameters of a kernel: the expansion's codelet size (its radix; 0: the default) and
// the GPU form's knobs (gpu_knobs.h).
struct CudaVariant {
  int64_t codelet_max = 0;
  GpuKnobs knobs;
  // "codelet=16,block=128,...": what search prints and run_all.sh announces (KNOBS lines)
  std::string label() const;
  bool operator==(const CudaVariant &) const = default;
};
// A label back (std::invalid_argument for another text).
CudaVariant parse_cuda_variant(const std::string &label);

struct CudaBenchOptions {
  std::vector<std::string> specs;  // "DFT(1024)", "DFT(64 x 64)"
  CudaVariant kernel;              // every spec's kernel (bench: --codelet-max, --gpu-knobs, --arch)
  // search --target cuda: specs[0]'s kernel once per variant, in this order, instead. A variant
  // that does not build or run gets a row with its failure; the others go on.
  std::vector<CudaVariant> variants;
  double budget_seconds = 0;  // with variants: none is started after this long (0: no bound)
  int jobs = 0;               // nvcc runs at once (0: the cores)
  int64_t batch = 1;               // 0: auto_batch
  Precision precision = Precision::Double;
  bool inverse = false;
  int repetitions = 11;
  double min_sample_seconds = 0.02;
  std::string arch = "native";  // nvcc -arch
  std::string keep;             // non-empty: DIR/<index>/ per spec and DIR/run_all.sh, kept
  bool no_run = false;          // with keep: write the files only (no nvcc needed)
};

// --batch auto: the fewest transforms of `points` whose x and y together fill at least 256 MiB
// of device memory, so that the data are far beyond the card's L2 (50 MiB on an H200) and the
// timing sees memory, not cache; at most splgen's size limit for GPU kernels (2^26 points).
inline constexpr int64_t kAutoBatchBytes = int64_t(256) << 20;
int64_t auto_batch(int64_t points, Precision precision);

struct CudaBenchRow {
  std::string spec;
  int64_t points = 0, batch = 1;      // of one transform; transforms per call
  double splgen_ns = 0, cufft_ns = 0;  // medians, per call (the whole batch)
  double error = 0;                    // relative RMS of splgen's y against cuFFT's
  double error_reference = 0;          // of its first transform against the reference; NaN if skipped
  double copy_gbytes = 0;              // device-to-device cudaMemcpy, bytes read + written per ns
  double vkfft_ns = 0;                 // VkFFT's median where the program was built with it (0: not)
  double vkfft_error = 0;              // of VkFFT's y against cuFFT's
  std::string vkfft_failure;           // "VKFFT ERROR <what>": why VkFFT has no time
  std::string variant;                 // with variants: the kernel's label
  std::string failure;                 // with variants: why it has no time (then the rest is unset)
  double gbytes(Precision precision) const;  // the kernel's: x read and y written once per call
};

struct CudaBenchResult {
  std::string gpu;  // the program's "GPU <name>" (of the first spec)
  std::vector<CudaBenchRow> rows;
  std::vector<std::string> kept;  // with keep: the scripts written, run_all.sh last
};

// The (spec, variant) pairs that `options` times, in order: each spec with options.kernel, or
// specs[0] with each variant.
std::vector<std::pair<std::string, CudaVariant>> cuda_bench_jobs(const CudaBenchOptions &options);

// The lines the timing program prints, parsed into `row` and `gpu`; std::runtime_error with its
// ERROR line (else its first line) when it failed, CudaUnavailable when it found no GPU.
void parse_cuda_output(const std::string &output, int status, CudaBenchRow &row, std::string &gpu);

// The table's rows from what DIR/run_all.sh printed (`bench --target cuda --results FILE`):
// each "SPEC <index> <spec> batch <B> <precision> <direction>" line (and "KNOBS <label>" after
// it, for a search's variants) and the program's lines after it; `options` gets their precision and direction. std::runtime_error (one line) for a
// text that is not such output, a spec whose program failed, or mixed precisions or directions.
CudaBenchResult read_cuda_results(const std::string &text, CudaBenchOptions &options);

// Throws FormulaError for a spec cuFFT does not compute, CompileError, CudaUnavailable,
// CudaKeepError, or std::runtime_error (one line) when the program fails otherwise.
CudaBenchResult run_cuda_bench(const CudaBenchOptions &options, const std::function<void(const std::string &)> &progress);

// The table (Gflop/s = 5 N log2 N batch / ns; the ratio is cuFFT's time over splgen's; where
// VkFFT was timed, its Gflop/s and its time over splgen's too).
std::string format_cuda_table(const CudaBenchOptions &options, const CudaBenchResult &result);

// The timing program's source (its macros: KERNEL, SPLGEN_FLOAT, RANK, N1 [N2 N3], BATCH, SIGN, REPS, MIN_SECONDS).
const std::string &cuda_bench_program();

// VkFFT's header (Debian's libvkfft-dev) where this machine has it, else "": the timing program
// is then built with it, and --keep copies it beside the scripts (DIR/vkfft/vkFFT.h).
std::string find_vkfft_header();

// nvcc on PATH, else /usr/local/cuda/bin/nvcc; "" when neither exists.
std::string find_nvcc();

}  // namespace splgen::measure
