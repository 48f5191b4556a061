// Compile generated C++ into a shared object, load it, look up kernels: what bench, search,
// selftest and the tests share. It needs no FFTW3, so a generator-only build has it too
// (splgen selftest; docs/design.md, "Layers").
//
//   splgen::kernel::TempDir dir;
//   std::string so = splgen::kernel::compile_shared_object({dir.write("k.cpp", source)}, dir.file("k.so"));
//   splgen::kernel::SharedObject lib(so);
//   auto *kernel = lib.symbol<void(double *, const double *)>("splgen_dft16");
#pragma once
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "generator/target/target.h"

namespace splgen::kernel {

// What compile_shared_object throws: what() holds the command line and the compiler's output.
struct CompileError : std::runtime_error {
  std::string command, output;
  CompileError(const std::string &command, int status, const std::string &output);
  // The compiler's first line that says "error" (else its first line): the useful part.
  std::string first_error() const;
};

// Compiles the sources into a shared object with
//   COMPILER -shared -fPIC -Wall -Wextra -Werror FLAGS -o OUTPUT_SO SOURCES...
// COMPILER defaults to $CXX, else "c++" (it may carry arguments, e.g. "ccache g++"); FLAGS is
// inserted as written (split on spaces by the shell). Returns output_so; throws CompileError.
std::string compile_shared_object(const std::vector<std::string> &source_files, const std::string &output_so,
                                  const std::string &compiler = "", const std::string &flags = "-O2");

// The directory holding splgen/runtime/*.h for generated code that includes them: PREFIX/include
// for an installed splgen, else the build tree's include/ (a link to runtime/).
std::string runtime_include_dir();

// Compiler flags a kernel with parallel loops needs: -fopenmp, or -pthread and the runtime's
// include directory for the thread team.
std::string threading_flags(Threading threading);

// Loads the OpenMP runtime (libgomp) for good. A shared object of OpenMP kernels pulls it in
// when loaded; unloading the kernels would unload it under its idle pool threads (a crash).
// Call before loading such kernels; throws std::runtime_error if it cannot be loaded.
void keep_openmp_loaded();

// Runs a shell command; its exit status and its stdout and stderr together.
std::pair<int, std::string> run_command(const std::string &command);

// s quoted for /bin/sh: 'it'\''s'.
std::string shell_quote(const std::string &s);

// The compiler compile_shared_object uses when none is given: $CXX, else "c++".
std::string default_compiler();

// True when `command -v NAME` finds the program (for skipping tests that need g++ / clang++).
bool have_program(const std::string &name);

// The first line of `COMPILER --version` ("c++ (Debian 12.2.0-14) 12.2.0"); "unknown" if it fails.
std::string compiler_version(const std::string &compiler = "");

// A dlopen()ed shared object (RTLD_NOW | RTLD_LOCAL), closed at destruction. Move-only.
class SharedObject {
 public:
  explicit SharedObject(const std::string &path);  // throws std::runtime_error with dlerror()
  SharedObject(SharedObject &&other) noexcept;
  SharedObject &operator=(SharedObject &&other) noexcept;
  SharedObject(const SharedObject &) = delete;
  SharedObject &operator=(const SharedObject &) = delete;
  ~SharedObject();

  // The symbol's address; throws std::runtime_error if it is missing.
  void *address(const std::string &name) const;

  // symbol<void(double *, const double *)>("kernel"): a typed function (or object) pointer.
  template <class F>
  F *symbol(const std::string &name) const {
    void *p = address(name);
    F *typed;
    static_assert(sizeof(typed) == sizeof(p));
    std::memcpy(&typed, &p, sizeof p);  // object pointer -> function pointer, without a cast warning
    return typed;
  }

  const std::string &path() const { return path_; }

 private:
  void close();
  void *handle_ = nullptr;
  std::string path_;
};

// A fresh directory (mkdtemp under the system temporary directory), removed with its
// contents at destruction. Move-only.
class TempDir {
 public:
  explicit TempDir(const std::string &prefix = "splgen");
  TempDir(TempDir &&other) noexcept;
  TempDir &operator=(TempDir &&other) noexcept;
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir();

  const std::filesystem::path &path() const { return path_; }
  std::string file(const std::string &name) const { return (path_ / name).string(); }  // path inside, not created
  std::string write(const std::string &name, const std::string &contents) const;      // writes a file, returns its path

 private:
  void remove();
  std::filesystem::path path_;
};

}  // namespace splgen::kernel
