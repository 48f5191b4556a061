// The real and trigonometric transforms (docs/transforms.md): one SplKind (RealTransform),
// the transform in SplNode::b, and one table of their names and shapes that the parsers,
// printers and the kernel signature read. Real data lives in the complex IR as complex
// vectors whose imaginary parts are zero ("real embedding"); a real input is read through
// Re(), a real output is Re() of what the formula computes, so these nodes are real-linear,
// not complex-linear, and their dense meaning is a widely linear pair (generator/ir/dense.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace splgen {

// FFTW's names: RDFT = r2c (forward), IRDFT = c2r (backward, unnormalised), DCTk/DSTk =
// REDFT10/01/11 and RODFT10/01/11 for k = 2/3/4; WHT is the Walsh-Hadamard transform.
enum class RealKind { RDFT, IRDFT, WHT, DCT2, DCT3, DCT4, DST2, DST3, DST4 };

struct RealKindInfo {
  RealKind kind;
  const char *name;   // the keyword
  const char *fftw;   // FFTW's name of the same transform (r2r kind or interface)
  bool real_in, real_out;
};

inline constexpr RealKindInfo kRealKinds[] = {
    {RealKind::RDFT, "RDFT", "r2c", true, false},
    {RealKind::IRDFT, "IRDFT", "c2r", false, true},
    {RealKind::WHT, "WHT", "-", true, true},
    {RealKind::DCT2, "DCT2", "REDFT10", true, true},
    {RealKind::DCT3, "DCT3", "REDFT01", true, true},
    {RealKind::DCT4, "DCT4", "REDFT11", true, true},
    {RealKind::DST2, "DST2", "RODFT10", true, true},
    {RealKind::DST3, "DST3", "RODFT01", true, true},
    {RealKind::DST4, "DST4", "RODFT11", true, true},
};

constexpr bool real_kind_table_in_order() {
  for (std::size_t i = 0; i < std::size(kRealKinds); ++i)
    if (static_cast<std::size_t>(kRealKinds[i].kind) != i) return false;
  return true;
}
static_assert(real_kind_table_in_order(), "kRealKinds lists every RealKind once, in order");

constexpr const RealKindInfo &real_kind_info(RealKind k) { return kRealKinds[static_cast<std::size_t>(k)]; }
constexpr const char *real_kind_name(RealKind k) { return real_kind_info(k).name; }

// Rows and columns of the transform of size n, in complex elements of the embedding: RDFT(n)
// is (n/2+1) x n, IRDFT(n) n x (n/2+1), the others n x n.
constexpr int64_t real_kind_rows(RealKind k, int64_t n) { return k == RealKind::RDFT ? n / 2 + 1 : n; }
constexpr int64_t real_kind_cols(RealKind k, int64_t n) { return k == RealKind::IRDFT ? n / 2 + 1 : n; }

}  // namespace splgen
