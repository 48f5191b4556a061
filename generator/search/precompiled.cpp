#include "generator/search/precompiled.h"

#include <fstream>

#include "generator/measure/compile.h"

namespace splgen::search {

std::string kernel_headers() {
  // What backends/cpp/cpp_backend.cpp may include; more than a unit needs is harmless.
  return "#include <cmath>\n#include <complex>\n#include <limits>\n#include <map>\n#include <utility>\n"
         "#include <vector>\n#if defined(__x86_64__) || defined(__i386__)\n#include <immintrin.h>\n#endif\n";
}

std::string precompile_kernel_headers(const std::string &dir, const std::string &compiler, const std::string &flags) {
  const std::string header = dir + "/splgen_kernel_headers.h";
  {
    std::ofstream out(header);
    out << kernel_headers();
    if (!out) return "";
  }
  // The flags of compile_shared_object, so that the compiler accepts the precompiled header.
  std::string command = compiler.empty() ? measure::default_compiler() : compiler;
  command += " -x c++-header -fPIC -Wall -Wextra -Werror";
  if (!flags.empty()) (command += ' ') += flags;
  command += " -o " + measure::shell_quote(header + ".gch") + " " + measure::shell_quote(header);
  return measure::run_command(command).first == 0 ? header : "";
}

}  // namespace splgen::search
