// How the values of a Diag built by Rader's or Bluestein's rule (generator/rewrite/functions.cpp)
// are computed, so that a backend can compute a large table in the kernel on first use instead
// of printing it as literals (backends/cpp/computed_diag.h): DFT(262139) was 43 MB of source,
// most of it its Bluestein chirp and kernel spectrum.
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace splgen {

// Diags of more entries than this are computed by the kernel on first use, and by the
// generator only when asked for (LazyDiagValues). It is the bound of the printed twiddle tables
// (backends/cpp/cpp_backend.cpp, kMaxPrintedTable): below it the literals are at most about
// 180 KB of source and the kernel's first call computes nothing; above, printing grows by about
// 45 bytes per entry (DFT(262139): 43 MB, 1.8 s of `gen`), while the kernel computes the table
// once in O(n log n) long double operations.
constexpr int64_t kMaxPrintedDiag = 4096;

struct DiagRecipe {
  enum class Kind {
    None,
    // entry l < n: w_2n^(k l^2) (@chirp(n, k))
    Chirp,
    // entry r < M: (DFT(M) b)_r / M, b_j = b_(M-j) = w_2n^(-k j^2) for j < n, else 0 (@chirp_fft(n, M, k))
    ChirpSpectrum,
    // entry i < p - 2: d_(i+1), d = DFT(p-1) c / (p-1), c_j = w_p^(k g^j), g = the least
    // primitive root mod p (the diagonal part of @rader_diag(p, k), p = n)
    RaderSpectrum,
  };
  Kind kind = Kind::None;
  int64_t n = 0, M = 0, k = 0, g = 0;
};

inline bool operator==(const DiagRecipe &x, const DiagRecipe &y) {
  return x.kind == y.kind && x.n == y.n && x.M == y.M && x.k == y.k && x.g == y.g;
}

// Entries of the whole Diag a recipe describes.
int64_t diag_size(const DiagRecipe &r);

// The values of a Diag above kMaxPrintedDiag, computed on the first get() (thread-safe): only
// what needs every entry (dense matrices, apply(), interpret(): verify and the tests) asks for
// them. Computing them at every `gen` was 75% of the 3.7 s of DFT(524287), for tables the
// kernel computes itself.
class LazyDiagValues {
 public:
  explicit LazyDiagValues(std::function<std::vector<std::complex<double>>()> compute) : compute_(std::move(compute)) {}
  const std::vector<std::complex<double>> &get() const {
    std::call_once(once_, [this] { values_ = compute_(); });
    return values_;
  }

 private:
  std::function<std::vector<std::complex<double>>()> compute_;
  mutable std::once_flag once_;
  mutable std::vector<std::complex<double>> values_;
};

}  // namespace splgen
