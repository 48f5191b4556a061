#include "backends/kernel_name.h"

namespace splgen::backends {

const std::set<std::string> &c_cpp_keywords() {
  static const std::set<std::string> k = {
      // C++20 ([lex.key]) and its alternative tokens ([lex.digraph])
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
      "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return",
      "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
      "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int",
      "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
      "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
      "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // C17 keywords that C++ lacks (the _Names are reserved anyway), and C23's new ones
      "restrict", "typeof", "typeof_unqual"};
  return k;
}

bool is_c_identifier(const std::string &s) {
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

std::string c_function_name_problem(const std::string &name) {
  const std::string quoted = "'" + name + "'";
  if (!is_c_identifier(name))
    return quoted + " is not a C identifier (letters, digits and '_', not starting with a digit)";
  if (c_cpp_keywords().count(name)) return quoted + " is a C or C++ keyword";
  if (name[0] == '_' || name.find("__") != std::string::npos)
    return quoted + " is reserved to the compiler and library (a leading '_' or a '__')";
  if (name == "main") return quoted + " is the program's entry point";
  return "";
}

}  // namespace splgen::backends
