// Storage on a 64-byte boundary: every implementation a benchmark times gets the same alignment.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace splgen::measure {

template <class T>
class AlignedBuffer {
 public:
  explicit AlignedBuffer(std::size_t count)
      : data_(static_cast<T *>(std::aligned_alloc(64, (count * sizeof(T) + 63) / 64 * 64))) {
    if (!data_) throw std::bad_alloc();
  }
  T *get() const { return data_.get(); }

 private:
  struct Free {
    void operator()(T *p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
};

}  // namespace splgen::measure
