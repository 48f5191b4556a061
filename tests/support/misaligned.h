// Memory at a given byte offset from a 64-byte boundary: kernels must accept any pointer malloc
// could return, and offsets 8 and 16 break every vector alignment.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace splgen::test {

template <class T>
struct Misaligned {
  std::unique_ptr<T[]> storage;
  T *data;
  Misaligned(std::size_t count, std::size_t offset_bytes) : storage(new T[count + 32]) {
    auto address = reinterpret_cast<std::uintptr_t>(storage.get());
    data = reinterpret_cast<T *>((address + 63) / 64 * 64 + offset_bytes);
  }
};

}  // namespace splgen::test
