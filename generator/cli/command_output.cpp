#include "generator/cli/command_output.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "generator/cli/command_error.h"
#include "generator/support/atomic_file.h"

namespace splgen::cli {

void write_files(const std::vector<std::pair<std::string, std::string>> &files) {
  try {
    support::AtomicFiles out;
    for (const auto &[path, text] : files) out.add(path, text);
    out.commit();
  } catch (const support::WriteError &e) {
    throw CommandError(kExitOutput, e.what());
  }
}

void write_file(const std::string &path, const std::string &text) { write_files({{path, text}}); }

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>> &outputs) {
  namespace fs = std::filesystem;
  auto where = [](const std::string &path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::path(path).lexically_normal() : p;
  };
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const std::string &a = outputs[i].second, &b = outputs[j].second;
      if (a.empty() || b.empty() || a == "-" || b == "-" || where(a) != where(b)) continue;
      throw CommandError(kExitUsage, fmt::format("{} and {} name the same file '{}'", outputs[i].first,
                                                 outputs[j].first, b));
    }
}

void check_writable(const std::string &option, const std::string &path) {
  if (path.empty() || path == "-") return;
  try {
    support::check_can_write(path);
  } catch (const support::WriteError &e) {
    throw CommandError(kExitOutput, fmt::format("{}: {}", option, e.what()));
  }
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
