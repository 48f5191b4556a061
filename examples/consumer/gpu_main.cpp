// The CUDA transform of the consumer example (CONSUMER_CUDA): 16 DFTs of CONSUMER_SIZE points
// on the GPU against a naive DFT on the host. Exit 77 (skipped) where there is no GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "fft_gpu.h"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("fft_gpu: no GPU, not run");
    return 77;
  }
  const int n = CONSUMER_SIZE, batch = 16;
  std::vector<double2> x(std::size_t(n) * batch), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = make_double2(std::sin(0.37 * double(i)), std::cos(1.3 * double(i)));
  double2 *dx = nullptr, *dy = nullptr;
  const std::size_t bytes = x.size() * sizeof(double2);
  if (cudaMalloc(&dx, bytes) != cudaSuccess || cudaMalloc(&dy, bytes) != cudaSuccess) return 1;
  cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  if (const int e = fft_gpu(dy, dx, nullptr)) {
    std::printf("fft_gpu: error %d\n", e);
    return 1;
  }
  cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost);
  double worst = 0;
  const double pi = 3.14159265358979323846;
  for (int b = 0; b < batch; b += 5)
    for (int k = 0; k < n; k += 7) {
      std::complex<double> want = 0;
      for (int j = 0; j < n; ++j)
        want += std::complex<double>(x[b * n + j].x, x[b * n + j].y) * std::polar(1.0, -2 * pi * double(j) * k / n);
      worst = std::max(worst, std::abs(std::complex<double>(y[b * n + k].x, y[b * n + k].y) - want));
    }
  std::printf("fft_gpu: max error %.2e: %s\n", worst, worst < 1e-9 * n ? "ok" : "WRONG");
  cudaFree(dx), cudaFree(dy);
  return worst < 1e-9 * n ? 0 : 1;
}
