#include "generator/kernel/compile.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace splgen::kernel {

std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

std::pair<int, std::string> run_command(const std::string &command) {
  std::FILE *pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  std::string output;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  int status = ::pclose(pipe);
  int code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return {code, output};
}

std::string default_compiler() {
  const char *cxx = std::getenv("CXX");
  return cxx && *cxx ? cxx : "c++";
}

bool have_program(const std::string &name) {
  std::string command = "command -v ";
  (command += shell_quote(name)) += " >/dev/null";
  return run_command(command).first == 0;
}

CompileError::CompileError(const std::string &command_, int status, const std::string &output_)
    : std::runtime_error("compilation failed (exit status " + std::to_string(status) + "): " + command_ + "\n" +
                         output_),
      command(command_),
      output(output_) {}

std::string compiler_version(const std::string &compiler) {
  auto [code, output] = run_command((compiler.empty() ? default_compiler() : compiler) + " --version");
  std::string first = output.substr(0, output.find('\n'));
  return code == 0 && !first.empty() ? first : "unknown";
}

std::string runtime_include_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "include";
    if (fs::is_regular_file(installed / "splgen" / "runtime" / "thread_team.h", ec)) return installed.lexically_normal().string();
  }
  return SPLGEN_RUNTIME_INCLUDE_DIR;
}

void keep_openmp_loaded() {
  static void *const gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
  if (!gomp) throw std::runtime_error("cannot load the OpenMP runtime libgomp.so.1 for threaded kernels");
}

std::string threading_flags(Threading threading) {
  if (threading == Threading::OpenMP) return "-fopenmp";
  return "-pthread -I" + shell_quote(runtime_include_dir());
}

std::string compile_shared_object(const std::vector<std::string> &source_files, const std::string &output_so,
                                  const std::string &compiler, const std::string &flags) {
  if (source_files.empty()) throw std::invalid_argument("compile_shared_object: no source files");
  std::string command = compiler.empty() ? default_compiler() : compiler;
  command += " -shared -fPIC -Wall -Wextra -Werror";
  if (!flags.empty()) (command += ' ') += flags;
  (command += " -o ") += shell_quote(output_so);
  for (const std::string &s : source_files) (command += ' ') += shell_quote(s);
  auto [code, output] = run_command(command);
  if (code != 0) throw CompileError(command, code, output);
  return output_so;
}

// ---- SharedObject ---------------------------------------------------------------------------

SharedObject::SharedObject(const std::string &path) : path_(path) {
  handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char *err = ::dlerror();
    throw std::runtime_error("dlopen " + path + ": " + (err ? err : "unknown error"));
  }
}

SharedObject::SharedObject(SharedObject &&other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

SharedObject &SharedObject::operator=(SharedObject &&other) noexcept {
  if (this != &other) {
    close();
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

SharedObject::~SharedObject() { close(); }

void SharedObject::close() {
  if (handle_) ::dlclose(handle_);
  handle_ = nullptr;
}

void *SharedObject::address(const std::string &name) const {
  if (!handle_) throw std::runtime_error("symbol " + name + ": shared object not open");
  ::dlerror();  // clear
  void *p = ::dlsym(handle_, name.c_str());
  const char *err = ::dlerror();
  if (err || !p) throw std::runtime_error("symbol " + name + " not found in " + path_ + (err ? std::string(": ") + err : ""));
  return p;
}

// ---- TempDir ----------------------------------------------------------------------------------

TempDir::TempDir(const std::string &prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  path_ = buf.data();
}

TempDir::TempDir(TempDir &&other) noexcept : path_(std::exchange(other.path_, {})) {}

TempDir &TempDir::operator=(TempDir &&other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::exchange(other.path_, {});
  }
  return *this;
}

TempDir::~TempDir() { remove(); }

void TempDir::remove() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  path_.clear();
}

std::string TempDir::write(const std::string &name, const std::string &contents) const {
  std::string p = file(name);
  std::ofstream out(p, std::ios::binary);
  out << contents;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + p);
  return p;
}

std::string CompileError::first_error() const {
  const std::size_t at = output.find("error");
  std::size_t begin = at == std::string::npos ? 0 : output.rfind('\n', at);
  begin = begin == std::string::npos || at == std::string::npos ? 0 : begin + 1;
  return output.substr(begin, output.find('\n', begin) - begin);
}

}  // namespace splgen::kernel
