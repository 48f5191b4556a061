// splgen runtime: explicit block transfers between a large external memory and a small local
// memory (the machine model of docs/streaming.md; Chellappa, Franchetti & Pueschel, "Computer
// generation of fast Fourier transforms for the Cell Broadband Engine", ICS 2009, sec. 3.2:
// DMA get/put of blocks and block lists, each with a tag, completed by wait(tag)).
// Header-only, C++17, the standard library only. Installed as <splgen/runtime/dma.h>.
//
//   splgen::runtime::memory_store ext(x, bytes);            // or file_store (dma_file.h)
//   splgen::runtime::copy_thread_engine dma;                // or sync_engine
//   dma.get(0, local, ext, splgen::runtime::block_list{offset, stride, count, block_bytes});
//   ... compute on other local buffers ...
//   dma.wait(0);                                            // local now holds the blocks
//
// A block list is `count` blocks of `block_bytes`, the i-th at external byte offset
// `offset + i * stride`, packed one after another in local memory (a Cell DMA list with
// equal elements). Every engine counts what it was asked to move (transfer_stats).
#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace splgen::runtime {

// `count` blocks of `block_bytes`; block i at external byte offset `offset + i * stride`.
struct block_list {
  std::uint64_t offset = 0;
  std::uint64_t stride = 0;
  std::uint64_t count = 1;
  std::uint64_t block_bytes = 0;
  std::uint64_t bytes() const { return count * block_bytes; }
  std::uint64_t end() const { return count == 0 ? offset : offset + (count - 1) * stride + block_bytes; }
};

// A block list from signed sizes (what generated code computes with `long`).
inline block_list make_block_list(std::int64_t offset, std::int64_t stride, std::int64_t count, std::int64_t block_bytes) {
  if (offset < 0 || stride < 0 || count < 0 || block_bytes < 0) throw std::invalid_argument("splgen dma: a negative block list");
  return block_list{std::uint64_t(offset), std::uint64_t(stride), std::uint64_t(count), std::uint64_t(block_bytes)};
}

// What an engine was asked to move: blocks (one per element of a block list), bytes, and
// the smallest block (0 before the first transfer).
struct transfer_stats {
  std::uint64_t gets = 0, puts = 0;          // blocks
  std::uint64_t bytes_in = 0, bytes_out = 0;  // external -> local, local -> external
  std::uint64_t smallest_block = 0;
  std::uint64_t transfers() const { return gets + puts; }
  std::uint64_t bytes() const { return bytes_in + bytes_out; }
};

// The external memory: main memory or a file (dma_file.h). Reads and writes of whole blocks;
// a block outside the store is a std::out_of_range naming it.
class external_store {
 public:
  virtual ~external_store() = default;
  virtual std::uint64_t size() const = 0;
  virtual void read(void *local, std::uint64_t offset, std::uint64_t bytes) = 0;
  virtual void write(std::uint64_t offset, const void *local, std::uint64_t bytes) = 0;
  // A whole block list, packed in local memory; a store overrides these to move a list with
  // fewer calls than one per block (file_store: one system call per list where it can).
  virtual void read_list(void *local, const block_list &list) {
    auto *p = static_cast<unsigned char *>(local);
    if (list.count > 1 && list.stride == list.block_bytes) return read(p, list.offset, list.bytes());  // one block
    for (std::uint64_t i = 0; i < list.count; ++i) read(p + i * list.block_bytes, list.offset + i * list.stride, list.block_bytes);
  }
  virtual void write_list(const block_list &list, const void *local) {
    auto *p = static_cast<const unsigned char *>(local);
    if (list.count > 1 && list.stride == list.block_bytes) return write(list.offset, p, list.bytes());
    for (std::uint64_t i = 0; i < list.count; ++i) write(list.offset + i * list.stride, p + i * list.block_bytes, list.block_bytes);
  }
  // Lets the store refuse a whole list before any of it moves (a failed get leaves nothing half done).
  void check(const block_list &list, const char *what) const {
    if (list.count == 0 || list.block_bytes == 0) return;
    if (list.count > 1 && list.stride < list.block_bytes)
      throw std::invalid_argument(std::string("splgen dma: ") + what + ": overlapping blocks (stride " +
                                  std::to_string(list.stride) + " < block " + std::to_string(list.block_bytes) + ")");
    if (list.end() > size() || list.end() < list.offset)
      throw std::out_of_range(std::string("splgen dma: ") + what + " of bytes [" + std::to_string(list.offset) + ", " +
                              std::to_string(list.end()) + ") outside the external store of " +
                              std::to_string(size()) + " bytes");
  }
};

// Main memory: `bytes` at `base`. A store made from a const pointer refuses writes.
class memory_store final : public external_store {
 public:
  memory_store(void *base, std::uint64_t bytes) : base_(static_cast<unsigned char *>(base)), size_(bytes) {}
  memory_store(const void *base, std::uint64_t bytes)
      : base_(static_cast<unsigned char *>(const_cast<void *>(base))), size_(bytes), read_only_(true) {}
  std::uint64_t size() const override { return size_; }
  void read(void *local, std::uint64_t offset, std::uint64_t bytes) override {
    std::memcpy(local, base_ + offset, std::size_t(bytes));
  }
  void write(std::uint64_t offset, const void *local, std::uint64_t bytes) override {
    if (read_only_) throw std::logic_error("splgen dma: put into a read-only memory store");
    std::memcpy(base_ + offset, local, std::size_t(bytes));
  }

 private:
  unsigned char *base_;
  std::uint64_t size_;
  bool read_only_ = false;
};

// The DMA engine interface: asynchronous get/put of block lists with a tag; wait(tag) returns
// when every transfer issued with that tag is complete (at once if there is none) and
// rethrows the first error one of them met. Local buffers and the store must stay alive and
// untouched by the caller until the wait.
class dma_engine {
 public:
  virtual ~dma_engine() = default;
  void get(int tag, void *local, external_store &store, const block_list &list) {
    store.check(list, "get");
    count(list, stats_.gets, stats_.bytes_in);
    start(Job{true, tag, static_cast<unsigned char *>(local), &store, list});
  }
  void put(int tag, external_store &store, const block_list &list, const void *local) {
    store.check(list, "put");
    count(list, stats_.puts, stats_.bytes_out);
    start(Job{false, tag, static_cast<unsigned char *>(const_cast<void *>(local)), &store, list});
  }
  virtual void wait(int tag) = 0;
  virtual void wait_all() = 0;
  const transfer_stats &stats() const { return stats_; }
  void reset_stats() { stats_ = transfer_stats{}; }

 protected:
  struct Job {
    bool get;
    int tag;
    unsigned char *local;
    external_store *store;
    block_list list;
  };
  virtual void start(const Job &job) = 0;
  static void run(const Job &j) {
    if (j.list.count == 0 || j.list.block_bytes == 0) return;
    if (j.get) j.store->read_list(j.local, j.list);
    else j.store->write_list(j.list, j.local);
  }

 private:
  void count(const block_list &list, std::uint64_t &blocks, std::uint64_t &bytes) {
    if (list.count == 0 || list.block_bytes == 0) return;
    blocks += list.count;
    bytes += list.bytes();
    if (stats_.smallest_block == 0 || list.block_bytes < stats_.smallest_block) stats_.smallest_block = list.block_bytes;
  }
  transfer_stats stats_;
};

// Every transfer done when issued, on the calling thread (no overlap): the baseline the
// multibuffered kernels are compared with. An error is reported by the wait for its tag.
class sync_engine final : public dma_engine {
 public:
  void wait(int tag) override {
    auto it = errors_.find(tag);
    if (it == errors_.end()) return;
    std::exception_ptr e = it->second;
    errors_.erase(it);
    std::rethrow_exception(e);
  }
  void wait_all() override {
    while (!errors_.empty()) wait(errors_.begin()->first);
  }

 private:
  void start(const Job &job) override {
    try {
      run(job);
    } catch (...) {
      errors_.emplace(job.tag, std::current_exception());
    }
  }
  std::map<int, std::exception_ptr> errors_;
};

// Transfers done in issue order by one copy thread of the engine, while the caller computes
// (true overlap). One engine per calling thread; the copy thread lives as long as the engine.
class copy_thread_engine final : public dma_engine {
 public:
  copy_thread_engine() : thread_([this] { serve(); }) {}
  copy_thread_engine(const copy_thread_engine &) = delete;
  copy_thread_engine &operator=(const copy_thread_engine &) = delete;
  ~copy_thread_engine() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_.notify_one();
    thread_.join();
  }
  void wait(int tag) override {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_[tag] == 0; });
    rethrow(lock, tag);
  }
  void wait_all() override {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return queue_.empty() && busy_ == 0; });
    while (!errors_.empty()) rethrow(lock, errors_.begin()->first);
  }

 private:
  void start(const Job &job) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(job);
      ++pending_[job.tag];
    }
    work_.notify_one();
  }
  void rethrow(std::unique_lock<std::mutex> &, int tag) {
    auto it = errors_.find(tag);
    if (it == errors_.end()) return;
    std::exception_ptr e = it->second;
    errors_.erase(it);
    std::rethrow_exception(e);
  }
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      Job job = queue_.front();
      queue_.pop_front();
      ++busy_;
      lock.unlock();
      std::exception_ptr error;
      try {
        run(job);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      --busy_;
      if (error && !errors_.count(job.tag)) errors_.emplace(job.tag, error);
      --pending_[job.tag];
      done_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<Job> queue_;
  std::map<int, long> pending_;
  std::map<int, std::exception_ptr> errors_;
  int busy_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: started after the members it uses
};

// The engine a generated kernel uses when it is not given one: one per calling thread and
// kind, kept between calls (the copy thread is started once).
template <class Engine>
Engine &thread_default_engine() {
  static thread_local Engine engine;
  return engine;
}

}  // namespace splgen::runtime
