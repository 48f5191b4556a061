#include "generator/cli/command_output.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "generator/cli/command_error.h"

namespace splgen::cli {

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw CommandError(kExitOutput, fmt::format("cannot open '{}' for writing: {}", path, std::strerror(errno)));
  out.write(text.data(), std::streamsize(text.size()));
  out.close();
  if (!out) throw CommandError(kExitOutput, fmt::format("cannot write '{}'", path));
}

void check_stdout() {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
    throw CommandError(kExitOutput, "cannot write to standard output");
}

std::string format_time(double ns) {
  if (!(ns > 0)) return "-";
  if (ns < 1e3) return fmt::format("{:.1f} ns", ns);
  if (ns < 1e6) return fmt::format("{:.2f} us", ns / 1e3);
  return fmt::format("{:.2f} ms", ns / 1e6);
}

}  // namespace splgen::cli
