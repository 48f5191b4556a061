// splgen runtime: a file as the external memory of the DMA engines (<splgen/runtime/dma.h>):
// blocks move with pread/pwrite, through a second descriptor opened with O_DIRECT where the
// file system allows it and the block, its offset and the local buffer are aligned to the
// file's direct-I/O alignment (statx, else kDirectAlignment); otherwise through the page cache.
// A whole block list moves in one system call where it can (docs/streaming.md, "Out of core"):
// contiguous blocks as one pread/pwrite; aligned strided blocks as one Linux AIO submission of
// all of them (direct, so the device serves them in parallel); other strided lists (small or
// unaligned blocks) by memcpy through a shared mapping of the file, after one fstat (measured
// on 512 B rows in the page cache: pread per block 0.26 s per 256 MiB, a buffered AIO
// submission per list 0.45 s, the mapping 0.02-0.04 s). Once one transfer went through the
// page cache, all later ones do: a direct transfer after buffered writes makes the kernel
// flush the range first, and the mapping must not go stale. POSIX (Linux for O_DIRECT and
// AIO). Installed as <splgen/runtime/dma_file.h>.
//
//   splgen::runtime::file_store in("data.bin", splgen::runtime::file_store::read_only);
//   splgen::runtime::file_store out("out.bin", splgen::runtime::file_store::create, bytes);
//
// Errors are std::runtime_error with one line naming the file: one that cannot be opened or
// created (with the system's reason), a read past its end ("too short"), a failed write.
#pragma once
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <mutex>
#include <string>
#include <vector>

#include "dma.h"

namespace splgen::runtime {

class file_store final : public external_store {
 public:
  static constexpr std::uint64_t kDirectAlignment = 4096;
  enum mode { read_only, read_write, create };

  // create: the file is made (or truncated) and sized to `bytes`; otherwise it must exist.
  file_store(const std::string &path, mode m, std::uint64_t bytes = 0)
      : path_(path), temp_(m == create ? path + ".tmp." + std::to_string(::getpid()) : path), mode_(m) {
    int flags = m == read_only ? O_RDONLY : m == read_write ? O_RDWR : O_RDWR | O_CREAT | O_TRUNC;
    fd_ = ::open(temp_.c_str(), flags | O_CLOEXEC, 0644);
    if (fd_ < 0) fail(m == read_only ? "cannot open" : "cannot open for writing");
    if (m == create && ::ftruncate(fd_, off_t(bytes)) != 0) {
      int e = errno;
      ::close(fd_), ::unlink(temp_.c_str());
      errno = e;
      fail("cannot size");
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("cannot stat");
    if (m != create && !S_ISREG(st.st_mode)) {
      ::close(fd_);
      throw std::runtime_error(path + ": not a regular file");
    }
    size_ = std::uint64_t(st.st_size);
#ifdef O_DIRECT
    direct_fd_ = ::open(temp_.c_str(), (m == read_only ? O_RDONLY : O_RDWR) | O_DIRECT | O_CLOEXEC);
#endif
#if defined(STATX_DIOALIGN) && defined(AT_EMPTY_PATH)
    struct statx sx {};
    if (direct_fd_ >= 0 && ::statx(direct_fd_, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
        (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_mem_align > 0 && sx.stx_dio_offset_align > 0)
      align_ = std::max<std::uint64_t>(sx.stx_dio_mem_align, sx.stx_dio_offset_align);
#endif
  }
  file_store(const file_store &) = delete;
  file_store &operator=(const file_store &) = delete;
  ~file_store() override {
#ifdef __linux__
    if (aio_ != 0) ::syscall(SYS_io_destroy, aio_);
#endif
    if (map_ != nullptr) ::munmap(map_, std::size_t(size_));
    if (direct_fd_ >= 0) ::close(direct_fd_);
    if (fd_ >= 0) ::close(fd_);
    if (mode_ == create && !committed_ && fd_ >= 0) ::unlink(temp_.c_str());
  }

  std::uint64_t size() const override { return size_; }
  bool direct_available() const { return direct_fd_ >= 0; }
  std::uint64_t direct_alignment() const { return align_; }
  std::uint64_t direct_transfers() const { return direct_transfers_; }
  // System calls that moved data (pread, pwrite, AIO submissions): tests and bench see whether
  // a list moved in one.
  std::uint64_t system_calls() const { return calls_; }
  // Stop using O_DIRECT (e.g. for a data set the page cache holds); later transfers are buffered.
  void use_page_cache() { drop_direct(); }

  void read(void *local, std::uint64_t offset, std::uint64_t bytes) override {
    if (offset + bytes > size_)
      throw std::runtime_error(path_ + ": too short: needs " + std::to_string(offset + bytes) + " bytes, has " +
                               std::to_string(size_));
    auto *p = static_cast<char *>(local);
    const std::uint64_t whole = bytes;
    int fd = pick(local, offset, bytes);
    while (bytes > 0) {
      ssize_t n = ::pread(fd, p, std::size_t(bytes), off_t(offset));
      ++calls_;
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EINVAL && fd == direct_fd_) {  // O_DIRECT refused after all
        fd = drop_direct();
        continue;
      }
      if (n < 0) fail("read failed");
      if (n == 0) throw std::runtime_error(path_ + ": too short: ended at byte " + std::to_string(offset));
      p += n, offset += std::uint64_t(n), bytes -= std::uint64_t(n);
    }
    if (fd == direct_fd_ && whole > 0) ++direct_transfers_;
  }

  void write(std::uint64_t offset, const void *local, std::uint64_t bytes) override {
    if (mode_ == read_only) throw std::logic_error(path_ + ": put into a file opened read-only");
    auto *p = static_cast<const char *>(local);
    const std::uint64_t whole = bytes;
    int fd = pick(local, offset, bytes);
    while (bytes > 0) {
      ssize_t n = ::pwrite(fd, p, std::size_t(bytes), off_t(offset));
      ++calls_;
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EINVAL && fd == direct_fd_) {
        fd = drop_direct();
        continue;
      }
      if (n <= 0) fail("write failed");
      p += n, offset += std::uint64_t(n), bytes -= std::uint64_t(n);
    }
    if (fd == direct_fd_ && whole > 0) ++direct_transfers_;
  }

  void read_list(void *local, const block_list &list) override {
    auto *p = static_cast<unsigned char *>(local);
    if (list.count == 1 || list.stride == list.block_bytes) return read(p, list.offset, list.bytes());
    if (list_direct(p, list)) return direct_list(true, p, list);
    unsigned char *m = mapped(list);
    for (std::uint64_t i = 0; i < list.count; ++i)
      std::memcpy(p + i * list.block_bytes, m + list.offset + i * list.stride, std::size_t(list.block_bytes));
  }
  void write_list(const block_list &list, const void *local) override {
    auto *p = static_cast<unsigned char *>(const_cast<void *>(local));
    if (mode_ == read_only) throw std::logic_error(path_ + ": put into a file opened read-only");
    if (list.count == 1 || list.stride == list.block_bytes) return write(list.offset, p, list.bytes());
    if (list_direct(p, list)) return direct_list(false, p, list);
    unsigned char *m = mapped(list);
    for (std::uint64_t i = 0; i < list.count; ++i)
      std::memcpy(m + list.offset + i * list.stride, p + i * list.block_bytes, std::size_t(list.block_bytes));
  }

  // The data written so far on the device (fdatasync).
  void sync() {
    if (::fdatasync(fd_) != 0) fail("cannot sync");
  }

  // create mode: the data go to PATH.tmp.PID; commit() renames it over PATH (after fsync), so
  // a run that fails or is abandoned never leaves a half-written file in place of a good one.
  void commit() {
    if (mode_ != create || committed_) return;
    if (::fsync(fd_) != 0) fail("cannot sync");
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot rename the temporary file onto");
    committed_ = true;
  }

 private:
  [[noreturn]] void fail(const char *what) const {
    throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
  }
  // The O_DIRECT descriptor when everything is aligned (the kernel refuses it otherwise); a
  // transfer through the page cache ends direct transfers (see the top of the file).
  int pick(const void *local, std::uint64_t offset, std::uint64_t bytes) {
    bool aligned = reinterpret_cast<std::uintptr_t>(local) % align_ == 0 && offset % align_ == 0 && bytes % align_ == 0;
    if (direct_fd_ >= 0 && !aligned && bytes > 0) drop_direct();
    return direct_fd_ < 0 ? fd_ : direct_fd_;
  }
  bool list_direct(const void *local, const block_list &l) {
#ifdef __linux__
    return direct_fd_ >= 0 && l.block_bytes >= kMinDirectBlock && reinterpret_cast<std::uintptr_t>(local) % align_ == 0 &&
           l.offset % align_ == 0 && l.stride % align_ == 0 && l.block_bytes % align_ == 0;
#else
    (void)local, (void)l;
    return false;
#endif
  }
  // All blocks of an aligned list submitted at once (kBatch per io_submit), then reaped; a
  // refusal or short transfer falls back to the block-by-block path, which reports errors.
  void direct_list(bool get, unsigned char *p, const block_list &l) {
#ifdef __linux__
    std::lock_guard<std::mutex> lock(aio_mutex_);
    if (aio_ == 0 && ::syscall(SYS_io_setup, long(kBatch), &aio_) != 0) aio_ = 0;
    for (std::uint64_t first = 0; first < l.count; first += kBatch) {
      const std::uint64_t n = std::min<std::uint64_t>(kBatch, l.count - first);
      bool ok = aio_ != 0;
      if (ok) {
        cbs_.assign(std::size_t(n), iocb{});
        ptrs_.resize(std::size_t(n));
        for (std::uint64_t i = 0; i < n; ++i) {
          iocb &cb = cbs_[std::size_t(i)];
          cb.aio_fildes = std::uint32_t(direct_fd_);
          cb.aio_lio_opcode = get ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE;
          cb.aio_buf = std::uint64_t(reinterpret_cast<std::uintptr_t>(p + (first + i) * l.block_bytes));
          cb.aio_nbytes = l.block_bytes;
          cb.aio_offset = std::int64_t(l.offset + (first + i) * l.stride);
          ptrs_[std::size_t(i)] = &cb;
        }
        long submitted = ::syscall(SYS_io_submit, aio_, long(n), ptrs_.data());
        ++calls_;
        long reaped = 0;
        events_.resize(std::size_t(n));
        while (submitted > 0 && reaped < submitted) {
          long r = ::syscall(SYS_io_getevents, aio_, 1L, submitted - reaped, events_.data(), nullptr);
          if (r < 0 && errno == EINTR) continue;
          if (r < 0) break;
          for (long e = 0; e < r; ++e) ok = ok && events_[std::size_t(e)].res == std::int64_t(l.block_bytes);
          reaped += r;
        }
        ok = ok && submitted == long(n) && reaped == submitted;
        if (ok) direct_transfers_ += n;
      }
      if (!ok)  // redo the batch one block at a time: exact errors ("too short", errno)
        for (std::uint64_t i = first; i < first + n; ++i) {
          if (get) read(p + i * l.block_bytes, l.offset + i * l.stride, l.block_bytes);
          else write(l.offset + i * l.stride, p + i * l.block_bytes, l.block_bytes);
        }
    }
#else
    (void)get, (void)p, (void)l;
#endif
  }
  // The file mapped shared (page cache, coherent with pread/pwrite) for strided lists of small
  // blocks: memcpy per block instead of a system call per block (measured 6-15x faster for
  // 512 B - 2 KiB rows in the page cache). One fstat per list first: a file that shrank is a
  // "too short" error, not a SIGBUS (unless it shrinks during the copy).
  unsigned char *mapped(const block_list &l) {
    drop_direct();
    struct stat st {};
    ++calls_;
    if (::fstat(fd_, &st) != 0) fail("cannot stat");
    if (std::uint64_t(st.st_size) < l.end())
      throw std::runtime_error(path_ + ": too short: needs " + std::to_string(l.end()) + " bytes, has " +
                               std::to_string(st.st_size));
    if (map_ == nullptr) {
      void *m = ::mmap(nullptr, std::size_t(size_), mode_ == read_only ? PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
      if (m == MAP_FAILED) fail("cannot map");
      map_ = static_cast<unsigned char *>(m);
    }
    return map_;
  }
  int drop_direct() {
    if (direct_fd_ >= 0) ::close(direct_fd_);
    direct_fd_ = -1;
    return fd_;
  }
  static constexpr std::uint64_t kBatch = 256;
  // Smaller direct blocks are bound by the device's operations per second: page cache instead.
  static constexpr std::uint64_t kMinDirectBlock = 4096;
  std::string path_, temp_;
  mode mode_;
  bool committed_ = false;
  int fd_ = -1, direct_fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t direct_transfers_ = 0, calls_ = 0, align_ = kDirectAlignment;
  unsigned char *map_ = nullptr;
#ifdef __linux__
  std::mutex aio_mutex_;
  aio_context_t aio_ = 0;
  std::vector<iocb> cbs_;
  std::vector<iocb *> ptrs_;
  std::vector<io_event> events_;
#endif
};

}  // namespace splgen::runtime
