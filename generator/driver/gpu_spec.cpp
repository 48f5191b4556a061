#include "generator/driver/gpu_spec.h"

namespace splgen::driver {

namespace {

// The largest divisor of n in (1, limit], or 0.
int64_t largest_divisor(int64_t n, int64_t limit) {
  for (int64_t d = std::min(limit, n - 1); d > 1; --d)
    if (n % d == 0) return d;
  return 0;
}

Spl four_step(int64_t n, int64_t root, int64_t factor_max) {
  if (n <= factor_max) return make_dft(n, root);
  const int64_t k = largest_divisor(n, factor_max);
  if (k == 0) return make_dft(n, root);
  const int64_t m = n / k;
  return make_compose({make_tensor({four_step(m, root, factor_max), make_identity(k)}), make_twiddle(n, k, root),
                       make_tensor({make_identity(m), make_dft(k, root)}), make_stride(n, m)});
}

}  // namespace

Spl gpu_spec(const Spl &spec, int64_t factor_max) {
  if (spec->kind == SplKind::DFT) return four_step(spec->a, spec->b, factor_max);
  if (spec->kind == SplKind::Tensor && spec->children.size() == 2 && spec->children[0]->kind == SplKind::Identity &&
      spec->children[1]->kind == SplKind::DFT)
    return make_tensor({spec->children[0], gpu_spec(spec->children[1], factor_max)});
  return spec;
}

}  // namespace splgen::driver
