// The program `splgen bench --target cuda` compiles with nvcc beside each kernel (cuda_bench.h).
// It prints "GPU <name>", then "RESULT <splgen ns> <cufft ns> <rel rms vs cuFFT> <rel rms vs
// reference> <copy GB/s>", or "ERROR <one line>" and exits 1. Times are per call (the whole batch).
// Built with -DSPLGEN_VKFFT=1 (VkFFT's CUDA back end, Debian's libvkfft-dev), it times VkFFT's
// plan of the same transform too, interleaved with the others, and prints "VKFFT <ns> <rel rms
// vs cuFFT>" before RESULT, or "VKFFT ERROR <what>" (the rest goes on without it).
#include "generator/measure/cuda_bench.h"

namespace splgen::measure {

const std::string &cuda_bench_program() {
  static const std::string text = R"prog(
#include <cuda_runtime.h>
#include <cufft.h>
#if SPLGEN_VKFFT
#define VKFFT_BACKEND 1
#include <vkFFT.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if SPLGEN_FLOAT
typedef float real;
typedef float2 cplx;
#define CUFFT_TYPE CUFFT_C2C
#define CUFFT_EXEC cufftExecC2C
#else
typedef double real;
typedef double2 cplx;
#define CUFFT_TYPE CUFFT_Z2Z
#define CUFFT_EXEC cufftExecZ2Z
#endif

#ifndef N2
#define N2 1
#endif
#ifndef N3
#define N3 1
#endif

extern "C" int KERNEL(cplx *y, const cplx *x, cudaStream_t stream);

// The O(n^2) reference costs n (n1 + n2 + ...) long-double products: above this it is skipped (nan).
static const long long kReferenceMax = 1LL << 14;
static const long double kPi = 3.141592653589793238462643383279502884L;

static void fail(const char *what, const char *why) {
  std::printf("ERROR %s: %s\n", what, why);
  std::exit(1);
}
static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) fail(what, cudaGetErrorString(e));
}
static void check_fft(cufftResult r, const char *what) {
  char why[32];
  std::snprintf(why, sizeof why, "cufftResult %d", int(r));
  if (r != CUFFT_SUCCESS) fail(what, why);
}

// x's value g: splitmix64 of g, in [-1, 1).
static double value(unsigned long long g) {
  g += 0x9e3779b97f4a7c15ULL;
  g = (g ^ (g >> 30)) * 0xbf58476d1ce4e5b9ULL;
  g = (g ^ (g >> 27)) * 0x94d049bb133111ebULL;
  return double((g ^ (g >> 31)) >> 11) * 0x1.0p-52 - 1;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// sqrt(sum |a - b|^2 / sum |b|^2) over `count` complex values.
static double relative_rms(const cplx *a, const cplx *b, size_t count) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < count; ++i) {
    const double dr = double(a[i].x) - b[i].x, di = double(a[i].y) - b[i].y;
    diff += dr * dr + di * di, norm += double(b[i].x) * b[i].x + double(b[i].y) * b[i].y;
  }
  return std::sqrt(diff / norm);
}

// The transform of one row-major array in long double, dimension by dimension, each a direct
// DFT whose twiddle index j k is reduced mod n exactly.
static std::vector<long double> reference(const cplx *x, const long long *dims, int rank, long long total) {
  std::vector<long double> a(2 * total), row;
  for (long long i = 0; i < total; ++i) a[2 * i] = x[i].x, a[2 * i + 1] = x[i].y;
  long long inner = total;
  for (int d = 0; d < rank; ++d) {
    const long long n = dims[d], outer = total / inner;
    inner /= n;
    std::vector<long double> w(2 * n);
    for (long long k = 0; k < n; ++k)
      w[2 * k] = cosl(2 * kPi * k / n), w[2 * k + 1] = SIGN * sinl(2 * kPi * k / n);
    row.assign(2 * n, 0);
    for (long long o = 0; o < outer; ++o)
      for (long long i = 0; i < inner; ++i) {
        long double *base = a.data() + 2 * (o * n * inner + i);
        for (long long k = 0; k < n; ++k) {
          long double re = 0, im = 0;
          for (long long j = 0; j < n; ++j) {
            const long double *t = &w[2 * (j * k % n)], *v = base + 2 * j * inner;
            re += v[0] * t[0] - v[1] * t[1], im += v[0] * t[1] + v[1] * t[0];
          }
          row[2 * k] = re, row[2 * k + 1] = im;
        }
        for (long long k = 0; k < n; ++k) base[2 * k * inner] = row[2 * k], base[2 * k * inner + 1] = row[2 * k + 1];
      }
  }
  return a;
}

static double reference_error(const cplx *y, const cplx *x, const long long *dims, int rank, long long total) {
  if (total > kReferenceMax) return NAN;
  std::vector<long double> r = reference(x, dims, rank, total);
  long double diff = 0, norm = 0;
  for (long long i = 0; i < total; ++i) {
    const long double dr = y[i].x - r[2 * i], di = y[i].y - r[2 * i + 1];
    diff += dr * dr + di * di, norm += r[2 * i] * r[2 * i] + r[2 * i + 1] * r[2 * i + 1];
  }
  return double(sqrtl(diff / norm));
}

#if SPLGEN_VKFFT
// VkFFT's plan of the transform, out of place (x in, its own y out), on `stream`. A failure is
// kept in `why`, not fatal: the comparison is then without VkFFT.
struct VkFft {
  VkFFTApplication app = {};
  VkFFTLaunchParams launch = {};
  CUdevice device = 0;
  cudaStream_t stream_copy;
  uint64_t buffer_bytes, input_bytes;
  void *in, *out = 0;
  cplx *y = 0;
  std::string why;
  double error = NAN;
  bool planned = false;
  VkFft(const long long *dims, int rank, long long batch, size_t bytes, cplx *x, cudaStream_t stream)
      : stream_copy(stream), buffer_bytes(bytes), input_bytes(bytes), in(x) {
    if (cudaMalloc(&y, bytes) != cudaSuccess) { why = "cudaMalloc"; return; }
    out = y;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS) { why = "cuInit/cuDeviceGet"; return; }
    VkFFTConfiguration c = {};
    c.FFTdim = uint64_t(rank);
    for (int d = 0; d < rank; ++d) c.size[d] = uint64_t(dims[rank - 1 - d]);  // VkFFT's first is the fastest
    c.numberBatches = uint64_t(batch);
    c.device = &device;
    c.stream = &stream_copy, c.num_streams = 1;
    c.doublePrecision = SPLGEN_FLOAT ? 0 : 1;
    c.bufferSize = &buffer_bytes, c.buffer = &out;
    c.isInputFormatted = 1, c.inputBufferSize = &input_bytes, c.inputBuffer = &in;
    const VkFFTResult r = initializeVkFFT(&app, c);
    if (r != VKFFT_SUCCESS) { why = "initializeVkFFT: VkFFTResult " + std::to_string(int(r)); return; }
    planned = true;
    launch.buffer = &out, launch.inputBuffer = &in;
  }
  ~VkFft() {
    if (planned) deleteVkFFT(&app);
    if (y) cudaFree(y);
  }
  bool ok() const { return planned && why.empty(); }
  void run() {  // VkFFT's direction: -1 forward, 1 inverse (unnormalised)
    const VkFFTResult r = VkFFTAppend(&app, SIGN < 0 ? -1 : 1, &launch);
    if (r != VKFFT_SUCCESS) fail("VkFFTAppend", std::to_string(int(r)).c_str());
  }
};
#endif

static cudaEvent_t start_event, stop_event;

// Seconds per call of `run`, over `calls` calls on `stream` between two events.
template <class F>
static double sample(F run, long calls, cudaStream_t stream) {
  check(cudaEventRecord(start_event, stream), "cudaEventRecord");
  for (long i = 0; i < calls; ++i) run();
  check(cudaEventRecord(stop_event, stream), "cudaEventRecord");
  check(cudaEventSynchronize(stop_event), "timed launches");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start_event, stop_event), "cudaEventElapsedTime");
  return ms * 1e-3 / double(calls);
}

// Calls per sample: the fewest power of two for which a sample of `run` lasts MIN_SECONDS.
template <class F>
static long calibrate(F run, cudaStream_t stream) {
  long calls = 1;
  while (calls < (1L << 24) && sample(run, calls, stream) * double(calls) < MIN_SECONDS) calls *= 2;
  return calls;
}

int main() {
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "no CUDA device (cudaGetDeviceCount)");
  if (devices == 0) fail("no CUDA device", "cudaGetDeviceCount found none");
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("GPU %s\n", prop.name);
  long long dims[] = {N1, N2, N3};  // nvcc splits -D values at commas: one macro per dimension
  const int rank = RANK;
  long long n = 1;
  for (long long d : dims) n *= d;
  const long long batch = BATCH;
  if (batch > 0x7fffffffLL) fail("cufftPlanMany", "the batch is above 2^31 - 1");
  const size_t count = size_t(n) * size_t(batch), bytes = count * sizeof(cplx);
  std::vector<cplx> host(count), ours(count), theirs(count);
  for (size_t i = 0; i < count; ++i) host[i].x = real(value(2 * i)), host[i].y = real(value(2 * i + 1));
  cplx *x = 0, *y = 0, *y_cufft = 0;
  check(cudaMalloc(&x, bytes), "cudaMalloc"), check(cudaMalloc(&y, bytes), "cudaMalloc");
  check(cudaMalloc(&y_cufft, bytes), "cudaMalloc");
  check(cudaMemcpy(x, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  check(cudaEventCreate(&start_event), "cudaEventCreate"), check(cudaEventCreate(&stop_event), "cudaEventCreate");
  int cufft_dims[3] = {int(dims[0]), int(dims[1]), int(dims[2])};
  cufftHandle plan;
  check_fft(cufftPlanMany(&plan, rank, cufft_dims, 0, 1, int(n), 0, 1, int(n), CUFFT_TYPE, int(batch)), "cufftPlanMany");
  check_fft(cufftSetStream(plan, stream), "cufftSetStream");

  int failed = 0;  // the kernel's first non-zero return, checked after each batch of launches
  auto run_ours = [&] {
    const int e = KERNEL(y, x, stream);
    if (e != 0 && failed == 0) failed = e;
  };
  auto run_theirs = [&] { check_fft(CUFFT_EXEC(plan, x, y_cufft, SIGN), "cufftExec"); };
  run_ours();
  check(cudaStreamSynchronize(stream), "the kernel");
  if (failed) check(cudaError_t(failed), "the kernel's launch");
  run_theirs();
  check(cudaStreamSynchronize(stream), "cuFFT");
  check(cudaMemcpy(ours.data(), y, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
  check(cudaMemcpy(theirs.data(), y_cufft, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
  const double error = relative_rms(ours.data(), theirs.data(), count);
  const double error_reference = reference_error(ours.data(), host.data(), dims, rank, n);

#if SPLGEN_VKFFT
  VkFft vk(dims, rank, batch, bytes, x, stream);
  auto run_vk = [&] { vk.run(); };
  if (vk.ok()) {
    run_vk();
    check(cudaStreamSynchronize(stream), "VkFFT");
    std::vector<cplx> v(count);
    check(cudaMemcpy(v.data(), vk.y, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
    vk.error = relative_rms(v.data(), theirs.data(), count);
  }
  const long calls_vk = vk.ok() ? calibrate(run_vk, stream) : 0;
  std::vector<double> t_vk;
#endif
  // Each calibrated alone: one count for both would make the slower one's samples last for ever.
  const long calls_ours = calibrate(run_ours, stream), calls_theirs = calibrate(run_theirs, stream);
  std::vector<double> t_ours, t_theirs, t_copy;
  for (int r = 0; r < REPS; ++r) {  // interleaved: a burst of noise hits both alike
    t_ours.push_back(sample(run_ours, calls_ours, stream));
    t_theirs.push_back(sample(run_theirs, calls_theirs, stream));
#if SPLGEN_VKFFT
    if (vk.ok()) t_vk.push_back(sample(run_vk, calls_vk, stream));
#endif
  }
#if SPLGEN_VKFFT
  if (vk.ok()) std::printf("VKFFT %.6g %.3g\n", median(t_vk) * 1e9, vk.error);
  else std::printf("VKFFT ERROR %s\n", vk.why.c_str());
#endif
  if (failed) check(cudaError_t(failed), "the kernel's launch");
  // The card's copy bandwidth (read + write), the bound of a kernel that passes over its data once.
  auto copy = [&] { check(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync"); };
  const long copies = calibrate(copy, stream);
  for (int r = 0; r < REPS; ++r) t_copy.push_back(sample(copy, copies, stream));
  std::printf("RESULT %.6g %.6g %.3g %.3g %.6g\n", median(t_ours) * 1e9, median(t_theirs) * 1e9, error, error_reference,
              2.0 * double(bytes) / median(t_copy) * 1e-9);
  cufftDestroy(plan);
  cudaFree(x), cudaFree(y), cudaFree(y_cufft);
  return 0;
}
)prog";
  return text;
}

}  // namespace splgen::measure
