// The names a kernel printed by the C++ backend may not take (--name): besides C's rules
// (backends/kernel_name.h), the names its code uses at global or namespace scope, and those of
// the headers it includes, which an extern "C" function of that name would clash with.
#pragma once
#include <string>

namespace splgen::backends {

// "" when NAME can name the kernel, else why not (one line).
std::string cpp_kernel_name_problem(const std::string &name);

}  // namespace splgen::backends
