#include "generator/target/target.h"

namespace splgen {

const std::vector<std::string> &isa_names() {
  static const std::vector<std::string> names = {"scalar", "sse2", "avx2", "avx512", "native"};
  return names;
}

const std::string &isa_name(Isa isa) { return isa_names()[std::size_t(isa)]; }

std::optional<Isa> parse_isa(const std::string &name) {
  if (name == "native") return host_best_isa();
  for (int i = 0; i < 4; ++i)
    if (isa_names()[std::size_t(i)] == name) return Isa(i);
  return std::nullopt;
}

std::vector<int> vector_widths(Isa isa, Precision precision) {
  int per_128 = precision == Precision::Double ? 2 : 4;
  switch (isa) {
    case Isa::Scalar: return {};
    case Isa::Sse2: return {per_128};
    case Isa::Avx2: return {2 * per_128, per_128};
    case Isa::Avx512: return {4 * per_128, 2 * per_128, per_128};
  }
  return {};
}

int masked_vector_width(Isa isa, Precision precision) {
  return isa == Isa::Avx512 ? vector_widths(isa, precision).front() : 0;
}

VectorGroupCosts vector_group_costs(Isa isa) {
  VectorGroupCosts c;
  if (isa != Isa::Avx512) return c;  // SSE2, AVX2: the greedy split (not measured otherwise)
  // A vector group does a scalar iteration's instructions on whole registers plus the
  // transposes of its loads and stores (interleaved <-> split complex): 1.2 at 128 bits, 1.3
  // at 256; a 512-bit one is two 256-bit halves on Zen 4 (double-pumped), 2.6, so 8 lanes tie
  // with 4 + 4 and the tie keeps the wider group. A lone scalar iteration stays scalar (1 <
  // any group): replacing it by an overlapping group was 0.7-0.8x at float DFT(40) and
  // DFT(1000) (extent 5 = 4 + 4 over 1..4). A last group overlapping earlier iterations is
  // allowed up to 256 bits: float DFT(60) (15 = 8 + 8 over 7..14, not 8 + 4 + 3 scalar)
  // 0.93 -> 1.16-1.24x FFTW, double DFT(60) (8 + 4 + 4 over 11..14, not 8 + 4 + 2 + 1)
  // 1.06 -> 1.09-1.12x, float DFT(48) (6 = 4 + 4 over 2..5) 0.72 -> 0.75x; at 512 bits
  // (double 60 as 8 + 8 over 7..14) it was 0.74-0.97x against 1.06-1.12x (stores of a whole
  // zmm over half-written lines). AMD EPYC Zen 4, FFTW 3.3.10 with AVX-512 codelets,
  // interleaved A/B, medians of 3 runs.
  c.scalar = 1.0, c.v128 = 1.2, c.v256 = 1.3, c.v512 = 2.6;
  c.overlap_max_bits = 256;
  return c;
}

const std::string &threading_name(Threading t) {
  static const std::string openmp = "openmp", team = "team", spmd = "spmd";
  return t == Threading::OpenMP ? openmp : t == Threading::Team ? team : spmd;
}

std::optional<Threading> parse_threading(const std::string &name) {
  if (name == "openmp") return Threading::OpenMP;
  if (name == "team") return Threading::Team;
  return std::nullopt;
}

const std::string &dma_engine_name(DmaEngine e) {
  static const std::string thread = "thread", sync = "sync";
  return e == DmaEngine::Thread ? thread : sync;
}

std::optional<DmaEngine> parse_dma_engine(const std::string &name) {
  if (name == "thread") return DmaEngine::Thread;
  if (name == "sync") return DmaEngine::Sync;
  return std::nullopt;
}

int cache_line_complex(Precision precision) {
  constexpr int kCacheLineBytes = 64;
  return kCacheLineBytes / (precision == Precision::Float ? 8 : 16);
}

bool has_fma(Isa isa) { return isa == Isa::Avx2 || isa == Isa::Avx512; }

bool host_supports(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  switch (isa) {
    case Isa::Scalar: return true;
    case Isa::Sse2: return __builtin_cpu_supports("sse2");
    case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::Avx512: return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return isa == Isa::Scalar;
#endif
}

Isa host_best_isa() {
  for (Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Sse2})
    if (host_supports(isa)) return isa;
  return Isa::Scalar;
}

}  // namespace splgen
