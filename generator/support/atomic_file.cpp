#include "generator/support/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace splgen::support {

namespace {

WriteError write_error(const std::string &path, int err) {
  return WriteError(fmt::format("cannot write '{}': {}", path, std::strerror(err)));
}

std::string directory_of(const std::string &path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// Writes all of TEXT to FD; false with errno set when the system refuses.
bool write_all(int fd, const std::string &text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += std::size_t(n);
  }
  return true;
}

// A new file beside PATH (PATH.tmp.PID, or with a counter if a killed process left that name),
// created with the permissions a new PATH would get (0666 less the umask).
std::pair<int, std::string> create_temporary(const std::string &path) {
  for (int attempt = 0;; ++attempt) {
    std::string temp = fmt::format("{}.tmp.{}{}", path, ::getpid(), attempt ? fmt::format(".{}", attempt) : "");
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return {fd, temp};
    if (errno != EEXIST || attempt >= 100) throw write_error(path, errno);
  }
}

// Makes the renames durable: the directory entries are on the disk too. Some file systems
// cannot sync a directory; the data itself is synced already.
void sync_directory(const std::string &dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

AtomicFiles::~AtomicFiles() {
  for (const Pending &p : pending_)
    if (!p.temp.empty()) ::unlink(p.temp.c_str());
}

void AtomicFiles::add(const std::string &path_as_given, const std::string &text) {
  std::string path = path_as_given;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {  // replace the file it names
    std::error_code ec;
    path = std::filesystem::weakly_canonical(path, ec).string();
    if (ec) throw WriteError(fmt::format("cannot write '{}': {}", path_as_given, ec.message()));
  }
  struct stat old {};
  bool exists = ::stat(path.c_str(), &old) == 0;
  if (exists && S_ISDIR(old.st_mode)) throw write_error(path_as_given, EISDIR);
  if (exists && !S_ISREG(old.st_mode)) {  // a device or a pipe: nothing to rename over
    pending_.push_back({path, "", text});
    return;
  }
  auto [fd, temp] = create_temporary(path);
  pending_.push_back({path, temp, ""});
  bool ok = write_all(fd, text) && (!exists || ::fchmod(fd, old.st_mode & 07777) == 0) && ::fsync(fd) == 0;
  int err = errno;
  if (::close(fd) != 0 && ok) ok = false, err = errno;
  if (!ok) throw write_error(path_as_given, err);  // the destructor removes the temporary
}

void AtomicFiles::commit() {
  // Direct writes first: they are the ones that can still fail (/dev/full), a rename hardly.
  for (Pending &p : pending_) {
    if (!p.temp.empty()) continue;
    int fd = ::open(p.path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    bool ok = fd >= 0 && write_all(fd, p.text);
    int err = errno;
    if (fd >= 0 && ::close(fd) != 0 && ok) ok = false, err = errno;
    if (!ok) throw write_error(p.path, err);
  }
  for (Pending &p : pending_) {
    if (p.temp.empty()) continue;
    if (::rename(p.temp.c_str(), p.path.c_str()) != 0) throw write_error(p.path, errno);
    p.temp.clear();
    sync_directory(directory_of(p.path));
  }
  pending_.clear();
}

void write_file_atomically(const std::string &path, const std::string &text) {
  AtomicFiles files;
  files.add(path, text);
  files.commit();
}

void check_can_write(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw write_error(path, EISDIR);
    if (!S_ISREG(st.st_mode)) return;  // written directly (a device, a pipe)
  }
  std::string probe = fmt::format("{}/.splgen-probe.{}", directory_of(path), ::getpid());
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 && errno != EEXIST) throw write_error(path, errno);
  if (fd >= 0) {
    ::close(fd);
    ::unlink(probe.c_str());
  }
}

}  // namespace splgen::support
