#include "backends/cpp/kernel_names.h"

#include <set>

#include "backends/kernel_name.h"

namespace splgen::backends {

namespace {

bool digits_from(const std::string &s, std::size_t from) {
  if (from >= s.size()) return false;
  for (std::size_t i = from; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool starts_with(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

// Names of the emitter (cpp_backend.cpp, complex_codelet.cpp, simd/): constants KP<digits>...
// and KN<digits>..., index tables lut<n>, tables and temporaries tab<n>/tmp<n>, scalars s<n>,
// loop variables i<n>, the arguments x and y, and the vector helpers splgen_load*/store*/transpose*.
bool emitter_name(const std::string &s) {
  if ((starts_with(s, "KP") || starts_with(s, "KN")) && s.size() > 2 && s[2] >= '0' && s[2] <= '9') return true;
  for (const char *p : {"lut", "tab", "tmp"})
    if (starts_with(s, p) && s.size() > 3 && s[3] >= '0' && s[3] <= '9') return true;
  if ((s[0] == 's' || s[0] == 'i') && digits_from(s, 1)) return true;
  if (s == "x" || s == "y") return true;
  for (const char *p : {"splgen_load", "splgen_store", "splgen_transpose"})
    if (starts_with(s, p)) return true;
  return false;
}

// Global names of what generated code includes or names: the namespaces std and splgen
// (runtime/thread_team.h), OpenMP's omp_*, and the C library functions <cmath>, <vector> and
// <immintrin.h> declare at global scope on glibc (an extern "C" kernel of that name conflicts).
bool header_name(const std::string &s) {
  static const std::set<std::string> names = {
      "std", "splgen", "NULL", "errno", "assert",
      // <math.h>
      "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "erf",
      "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "frexp", "hypot",
      "ilogb", "ldexp", "lgamma", "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint", "lround",
      "modf", "nan", "nearbyint", "nextafter", "nexttoward", "pow", "remainder", "remquo", "rint", "round",
      "scalbln", "scalbn", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc", "signbit", "isnan", "isinf",
      "isfinite", "isnormal", "fpclassify",
      // <stdlib.h>, <string.h> (through <vector>)
      "abort", "abs", "aligned_alloc", "atexit", "atof", "atoi", "atol", "atoll", "bsearch", "calloc", "div",
      "exit", "free", "getenv", "labs", "ldiv", "llabs", "malloc", "memchr", "memcmp", "memcpy", "memmove",
      "memset", "posix_memalign", "qsort", "quick_exit", "rand", "realloc", "srand", "strcmp", "strcpy",
      "strlen", "strncmp", "strncpy", "strtod", "strtof", "strtol", "strtold", "strtoll", "strtoul", "system"};
  return names.count(s) || starts_with(s, "omp_");
}

}  // namespace

std::string cpp_kernel_name_problem(const std::string &name) {
  if (std::string why = c_function_name_problem(name); !why.empty()) return why;
  if (emitter_name(name))
    return "'" + name + "' is a name of the generated code itself (constants KP.../KN..., tables, scalars s<n>, "
           "loop variables i<n>, x, y, vector helpers)";
  if (header_name(name)) return "'" + name + "' is a name the generated code's headers or runtime declare";
  return "";
}

}  // namespace splgen::backends
