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
