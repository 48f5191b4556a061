// Hash combining for the IR nodes' structural hashes (SplNode, SigmaNode, IndexFn).
#pragma once
#include <cstddef>

namespace splgen {

inline void hash_mix(std::size_t &h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

}  // namespace splgen
