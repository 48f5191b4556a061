// Output files written whole or not at all (docs/design.md, "Output files"). Every file splgen
// writes (gen -o and --header, bench --csv/--json/--plot, wisdom files) goes through here: the
// text is written to a temporary file in the same directory, flushed to the disk (fsync), and
// renamed over the path. A full disk, a failed write or a killed process leaves the old file as
// it was; a reader never sees half a file. The outputs of one command are committed together,
// after every one of them was written.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace splgen::support {

// A file that could not be written: what() is "cannot write 'PATH': REASON".
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Files to replace together. add() writes each to its temporary; commit() renames them all
// into place. Without commit() (an error, an exception) the temporaries are removed and no
// path is touched. A path that exists and is not a regular file (/dev/null, a FIFO, a
// terminal) is written directly at commit(), as no rename could replace it.
class AtomicFiles {
 public:
  AtomicFiles() = default;
  AtomicFiles(const AtomicFiles &) = delete;
  AtomicFiles &operator=(const AtomicFiles &) = delete;
  ~AtomicFiles();

  void add(const std::string &path, const std::string &text);  // throws WriteError
  void commit();                                                // throws WriteError

 private:
  struct Pending {
    std::string path;  // where it goes (a symbolic link is followed)
    std::string temp;  // empty: written directly at commit()
    std::string text;  // for a direct write only
  };
  std::vector<Pending> pending_;
};

// One file, whole or not at all: AtomicFiles with one add() and commit().
void write_file_atomically(const std::string &path, const std::string &text);

// Throws WriteError unless a file can be created in PATH's directory (it creates and removes
// one there): for commands that work long before they write, so a typo costs no time.
void check_can_write(const std::string &path);

}  // namespace splgen::support
