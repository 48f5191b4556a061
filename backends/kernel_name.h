// Which names a generated kernel's C function may take (--name; docs/cli.md, "splgen gen"):
// the checks every backend shares. A backend adds the names its own code uses
// (Backend::kernel_name_problem).
#pragma once
#include <set>
#include <string>

namespace splgen::backends {

// The keywords of C (C17) and C++ (C++20), with C++'s alternative tokens (and, or ...).
const std::set<std::string> &c_cpp_keywords();
// Letters, digits and '_', not starting with a digit.
bool is_c_identifier(const std::string &s);

// Why NAME cannot name an extern "C" function at global scope, or "" when it can: it must be
// a C identifier, not a keyword, and not reserved to the implementation (C17 7.1.3, C++20
// [lex.name]: a leading '_' at global scope, "__" anywhere), nor main.
std::string c_function_name_problem(const std::string &name);

}  // namespace splgen::backends
