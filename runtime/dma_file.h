// splgen runtime: a file as the external memory of the DMA engines (<splgen/runtime/dma.h>):
// blocks move with pread/pwrite, through a second descriptor opened with O_DIRECT where the
// file system allows it and the block, its offset and the local buffer are aligned to
// kDirectAlignment; otherwise through the page cache. POSIX (Linux for O_DIRECT).
// Installed as <splgen/runtime/dma_file.h>.
//
//   splgen::runtime::file_store in("data.bin", splgen::runtime::file_store::read_only);
//   splgen::runtime::file_store out("out.bin", splgen::runtime::file_store::create, bytes);
//
// Errors are std::runtime_error with one line naming the file: one that cannot be opened or
// created (with the system's reason), a read past its end ("too short"), a failed write.
#pragma once
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

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
  }
  file_store(const file_store &) = delete;
  file_store &operator=(const file_store &) = delete;
  ~file_store() override {
    if (direct_fd_ >= 0) ::close(direct_fd_);
    if (fd_ >= 0) ::close(fd_);
    if (mode_ == create && !committed_ && fd_ >= 0) ::unlink(temp_.c_str());
  }

  std::uint64_t size() const override { return size_; }
  bool direct_available() const { return direct_fd_ >= 0; }
  std::uint64_t direct_transfers() const { return direct_transfers_; }

  void read(void *local, std::uint64_t offset, std::uint64_t bytes) override {
    if (offset + bytes > size_)
      throw std::runtime_error(path_ + ": too short: needs " + std::to_string(offset + bytes) + " bytes, has " +
                               std::to_string(size_));
    auto *p = static_cast<char *>(local);
    const std::uint64_t whole = bytes;
    int fd = pick(local, offset, bytes);
    while (bytes > 0) {
      ssize_t n = ::pread(fd, p, std::size_t(bytes), off_t(offset));
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
  // The O_DIRECT descriptor when everything is aligned (the kernel refuses it otherwise).
  int pick(const void *local, std::uint64_t offset, std::uint64_t bytes) {
    bool aligned = reinterpret_cast<std::uintptr_t>(local) % kDirectAlignment == 0 && offset % kDirectAlignment == 0 &&
                   bytes % kDirectAlignment == 0;
    return direct_fd_ < 0 || !aligned ? fd_ : direct_fd_;
  }
  int drop_direct() {
    ::close(direct_fd_);
    direct_fd_ = -1;
    return fd_;
  }
  std::string path_, temp_;
  mode mode_;
  bool committed_ = false;
  int fd_ = -1, direct_fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t direct_transfers_ = 0;
};

}  // namespace splgen::runtime
