#include "backends/cpp/complex_codelet.h"

#include <fmt/format.h>

#include <map>

namespace splgen::backends {

namespace {

// The intrinsics of one precision: a complex double is a whole __m128d, a complex float the
// low half of an __m128 (64-bit loads and stores; the high half is a copy that is never stored).
struct Spelling {
  const char *type, *add, *sub, *mul, *xor_, *set1;
  std::string load(int64_t i) const;
  std::string store(int64_t i, const std::string &v) const;
  std::string swap(const std::string &v) const;
  std::string pair(const std::string &lo, const std::string &hi) const;  // (lo, hi) in every pair of lanes
  bool is_float;
};

std::string Spelling::load(int64_t i) const {
  return is_float ? fmt::format("_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double *>(x + {})))", 2 * i)
                  : fmt::format("_mm_loadu_pd(x + {})", 2 * i);
}
std::string Spelling::store(int64_t i, const std::string &v) const {
  return is_float ? fmt::format("_mm_store_sd(reinterpret_cast<double *>(y + {}), _mm_castps_pd({}))", 2 * i, v)
                  : fmt::format("_mm_storeu_pd(y + {}, {})", 2 * i, v);
}
std::string Spelling::swap(const std::string &v) const {
  return is_float ? fmt::format("_mm_shuffle_ps({0}, {0}, 0xB1)", v) : fmt::format("_mm_shuffle_pd({0}, {0}, 1)", v);
}
std::string Spelling::pair(const std::string &lo, const std::string &hi) const {
  return is_float ? fmt::format("_mm_setr_ps({0}, {1}, {0}, {1})", lo, hi) : fmt::format("_mm_setr_pd({}, {})", lo, hi);
}

const Spelling kDouble{"__m128d", "_mm_add_pd", "_mm_sub_pd", "_mm_mul_pd", "_mm_xor_pd", "_mm_set1_pd", false};
const Spelling kFloat{"__m128", "_mm_add_ps", "_mm_sub_ps", "_mm_mul_ps", "_mm_xor_ps", "_mm_set1_ps", true};

}  // namespace

std::string emit_complex_codelet(const ComplexCodelet &codelet, const std::string &name, const CppEmitOptions &options) {
  using Op = ComplexCodelet::Op;
  const Spelling &sp = options.precision == Precision::Float ? kFloat : kDouble;
  auto lit = [&](double v) { return cpp_real_literal(v, options.precision); };
  std::map<std::string, std::string> constants;  // spelled value -> name
  std::string constant_lines;                      // in order of first use: the same bytes every run
  auto constant = [&](const std::string &value) {
    auto [it, added] = constants.emplace(value, fmt::format("k{}", constants.size()));
    if (added) constant_lines += fmt::format("  const {} {} = {};\n", sp.type, it->second, value);
    return it->second;
  };
  std::string body;
  auto v = [](int id) { return fmt::format("v{}", id); };
  for (const ComplexCodelet::Node &nd : codelet.nodes) {
    std::string a = nd.a >= 0 ? v(nd.a) : "", b = nd.b >= 0 ? v(nd.b) : "", e;
    switch (nd.op) {
      case Op::Load: e = sp.load(nd.index); break;
      case Op::Add: e = fmt::format("{}({}, {})", sp.add, a, b); break;
      case Op::Sub: e = fmt::format("{}({}, {})", sp.sub, a, b); break;
      case Op::Neg: e = fmt::format("{}({}, {})", sp.xor_, a, constant(sp.pair(lit(-0.0), lit(-0.0)))); break;
      case Op::Scale: e = fmt::format("{}({}, {})", sp.mul, a, constant(fmt::format("{}({})", sp.set1, lit(nd.c0)))); break;
      case Op::MulI:  // i (a + ib) = -b + ia
        e = fmt::format("{}({}, {})", sp.xor_, sp.swap(a), constant(sp.pair(lit(-0.0), lit(0.0))));
        break;
      case Op::MulMinusI:  // -i (a + ib) = b - ia
        e = fmt::format("{}({}, {})", sp.xor_, sp.swap(a), constant(sp.pair(lit(0.0), lit(-0.0))));
        break;
      case Op::MulConst:  // (a + ib)(c + is) = (a c - b s) + i (a s + b c)
        e = fmt::format("{}({}({}, {}), {}({}, {}))", sp.add, sp.mul, a, constant(fmt::format("{}({})", sp.set1, lit(nd.c0))),
                        sp.mul, sp.swap(a), constant(sp.pair(lit(-nd.c1), lit(nd.c1))));
        break;
    }
    body += fmt::format("  const {} {} = {};\n", sp.type, v(nd.id), e);
  }
  for (std::size_t j = 0; j < codelet.outputs.size(); ++j) body += fmt::format("  {};\n", sp.store(int64_t(j), v(codelet.outputs[j])));

  std::string out;
  for (const std::string &h : options.header_lines) out += cpp_comment_lines(h);
  out += "// one 128-bit vector per complex value (backends/cpp/complex_codelet.h)\n\n#include <immintrin.h>\n\n";
  const std::string declaration = kernel_declaration(name, options.precision, options.isa, options.in_place);
  out += fmt::format("extern \"C\" {};\n\n", declaration);
  out += fmt::format("extern \"C\" {} {{\n", declaration);
  // In place: every load comes before the first store (the outputs are stored last).
  if (options.in_place) out += fmt::format("  const {0} *const x = xy;\n  {0} *const y = xy;\n", sp.is_float ? "float" : "double");
  out += constant_lines;
  out += body;
  out += "}\n";
  return out;
}

}  // namespace splgen::backends
