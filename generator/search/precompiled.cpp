#include "generator/search/precompiled.h"

#include <fstream>

#include "generator/measure/compile.h"

namespace splgen::search {

std::string kernel_headers() {
  // <immintrin.h> only: with <cmath>, <complex>, <map> and <vector> (what the C++ backend may
  // also include) the header took 3.7 s instead of 1.8 s to precompile and a 4-point unit 0.2 s
  // instead of 0.1 s to compile (CPU time, g++ 12, Zen 3); units that need those parse them.
  return "#if defined(__x86_64__) || defined(__i386__)\n#include <immintrin.h>\n#endif\n";
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
  if (measure::run_command(command).first != 0) return "";
  // A compiler that made the file but refuses it in a unit (clang errs where g++ falls back to
  // the text) would compile every unit twice: one empty unit tries it first.
  const std::string probe = dir + "/splgen_kernel_headers_probe.cpp";
  std::ofstream(probe) << "\n";
  std::string check = compiler.empty() ? measure::default_compiler() : compiler;
  check += " -fPIC -Wall -Wextra -Werror";
  if (!flags.empty()) (check += ' ') += flags;
  check += " -fsyntax-only -include " + measure::shell_quote(header) + " " + measure::shell_quote(probe);
  return measure::run_command(check).first == 0 ? header : "";
}

}  // namespace splgen::search
