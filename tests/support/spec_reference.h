// y = spec x in long double with FFTW's fftwl, for the specs the kernel tests generate:
// DFT(n), DFT(a x b ...), I(b) (x) DFT(n), DFT(m) (x) I(n), through a tag (smp, stream).
#pragma once
#include <fftw3.h>

#include <complex>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::test {

inline std::vector<std::complex<long double>> spec_reference(const Spl &spec, std::vector<std::complex<long double>> x,
                                                             int sign) {
  if (spec->kind == SplKind::Tagged) return spec_reference(spec->children.front(), std::move(x), sign);
  std::vector<std::complex<long double>> y(x.size());
  auto *in = reinterpret_cast<fftwl_complex *>(x.data());
  auto *out = reinterpret_cast<fftwl_complex *>(y.data());
  fftwl_plan plan = nullptr;
  if (spec->kind == SplKind::Tensor && spec->children[0]->kind == SplKind::Identity) {
    int batch = int(spec->children[0]->a), n = int(spec->children[1]->a);
    plan = fftwl_plan_many_dft(1, &n, batch, in, nullptr, 1, n, out, nullptr, 1, n, sign, FFTW_ESTIMATE);
  } else if (spec->kind == SplKind::Tensor) {  // A (x) I(n): n interleaved DFTs at stride n
    int m = int(spec->children[0]->a), n = int(spec->children[1]->a);
    plan = fftwl_plan_many_dft(1, &m, n, in, nullptr, n, 1, out, nullptr, n, 1, sign, FFTW_ESTIMATE);
  } else {
    std::vector<int> dims;
    if (spec->kind == SplKind::DFT) dims = {int(spec->a)};
    if (spec->kind == SplKind::DFTnd)
      for (int64_t d : spec->perm) dims.push_back(int(d));
    plan = fftwl_plan_dft(int(dims.size()), dims.data(), in, out, sign, FFTW_ESTIMATE);
  }
  fftwl_execute(plan);
  fftwl_destroy_plan(plan);
  return y;
}

}  // namespace splgen::test
