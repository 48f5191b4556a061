// Enough of CUDA to run splgen's .cu kernels on the CPU (tests/kernels/cuda_kernel_test.cpp):
// the printed code itself, its launch geometry, thread and block indices, dynamic shared memory
// and barriers, checked on machines without a GPU. Each block's threads are std::threads that
// meet at __syncthreads(); a kernel without barriers runs its threads one after another. The
// test rewrites `K<<<grid, block, bytes, stream>>>(args)` into emulated_launch(...) and the
// extern shared array into this block's memory before compiling. Device pointers are host
// pointers here. Not for speed: small sizes only.
#pragma once
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct double2 {
  double x, y;
};
struct float2 {
  float x, y;
};
typedef int cudaError_t;
typedef void *cudaStream_t;
typedef void *cudaMemPool_t;
constexpr cudaError_t cudaSuccess = 0;
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold };

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict

inline thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
inline thread_local char *emulated_shared = nullptr;

// A reusable barrier for one block's threads (C++17: no std::barrier).
class EmulatedBarrier {
 public:
  explicit EmulatedBarrier(unsigned count) : count_(count) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const unsigned generation = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0, ++generation_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return generation != generation_; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  unsigned count_, arrived_ = 0, generation_ = 0;
};
inline thread_local EmulatedBarrier *emulated_barrier = nullptr;
inline void __syncthreads() { emulated_barrier->wait(); }

inline void sincospi(double x, double *s, double *c) {
  const double pi = 3.14159265358979323846264338327950288;
  *s = std::sin(pi * x), *c = std::cos(pi * x);
}

inline cudaError_t cudaGetLastError() { return cudaSuccess; }
template <class K>
cudaError_t cudaFuncSetAttribute(K, cudaFuncAttribute, int) { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) { return *d = 0, cudaSuccess; }
inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int) { return *p = nullptr, cudaSuccess; }
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void *) { return cudaSuccess; }
inline cudaError_t cudaMallocAsync(void **p, unsigned long long bytes, cudaStream_t) {
  *p = std::malloc(bytes);
  return *p ? cudaSuccess : 2;
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) { return std::free(p), cudaSuccess; }

// Runs kernel() as grid x block threads; `barriers`: the kernel calls __syncthreads(), so a
// block's threads run at once (else one after another).
inline void emulated_launch(dim3 grid, dim3 block, long long shared_bytes, bool barriers, const std::function<void()> &kernel) {
  const unsigned threads = block.x * block.y;
  for (unsigned b = 0; b < grid.x; ++b) {
    std::vector<char> shared(std::size_t(shared_bytes) + 16);
    EmulatedBarrier barrier(threads);
    auto run = [&](unsigned t) {
      gridDim = grid, blockDim = block, blockIdx = dim3(b, 0, 0), threadIdx = dim3(t % block.x, t / block.x, 0);
      emulated_shared = shared.data(), emulated_barrier = &barrier;
      kernel();
    };
    if (!barriers) {
      for (unsigned t = 0; t < threads; ++t) run(t);
      continue;
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(run, t);
    for (std::thread &t : pool) t.join();
  }
}
