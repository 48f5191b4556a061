#include "backends/cpp/complex_codelet.h"

#include <fmt/format.h>

#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "generator/lower/dft_algorithms.h"

namespace splgen {

namespace {

enum class Op { Load, Add, Sub, Neg, Scale, MulI, MulMinusI, MulConst };

// One complex value: x[index] (Load), a op b, or c0 * a (Scale), a * (c0 + i c1) (MulConst).
struct Node {
  Op op;
  int a = -1, b = -1;
  int64_t index = 0;
  double c0 = 0, c1 = 0;
};

// The DAG of complex values, structurally equal nodes shared; the algebra of dft_algorithms.h.
class ComplexDag {
 public:
  using Value = int;
  std::vector<Node> nodes;

  int load(int64_t i) { return make({Op::Load, -1, -1, i}); }
  int add(int x, int y) {
    if (nodes[std::size_t(y)].op == Op::Neg) return sub(x, nodes[std::size_t(y)].a);
    if (nodes[std::size_t(x)].op == Op::Neg) return sub(y, nodes[std::size_t(x)].a);
    return make({Op::Add, std::min(x, y), std::max(x, y)});
  }
  int sub(int x, int y) {
    if (nodes[std::size_t(y)].op == Op::Neg) return add(x, nodes[std::size_t(y)].a);
    return make({Op::Sub, x, y});
  }
  int neg(int x) { return nodes[std::size_t(x)].op == Op::Neg ? nodes[std::size_t(x)].a : make({Op::Neg, x}); }
  int scale(int x, double c) {
    if (c == 1) return x;
    if (c == -1) return neg(x);
    if (c < 0) return neg(make({Op::Scale, x, -1, 0, -c}));  // constants kept positive
    return make({Op::Scale, x, -1, 0, c});
  }
  int mul_i(int x) { return make({Op::MulI, x}); }
  int add_i(int a, int b) { return add(a, mul_i(b)); }
  int sub_i(int a, int b) { return sub(a, mul_i(b)); }
  int mul_root(int x, int64_t n, int64_t e) {
    e = mod64(e, n);
    int64_t g = gcd64(e, n), num = e / g, den = n / g;  // w_n^e = exp(-2 pi i num/den)
    if (den == 1) return x;
    if (den == 2) return neg(x);
    if (den == 4) return num == 1 ? make({Op::MulMinusI, x}) : mul_i(x);
    cplx w = root_of_unity(n, e);
    return make({Op::MulConst, x, -1, 0, w.real(), w.imag()});
  }

 private:
  std::map<std::tuple<int, int, int, int64_t, double, double>, int> unique_;

  int make(Node n) {
    auto key = std::make_tuple(int(n.op), n.a, n.b, n.index, n.c0, n.c1);
    if (auto it = unique_.find(key); it != unique_.end()) return it->second;
    nodes.push_back(n);
    return unique_[key] = int(nodes.size()) - 1;
  }
};

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

std::string emit_complex_codelet(int64_t n, int64_t k, const std::string &name, const CppEmitOptions &options) {
  if (n < 1) throw std::invalid_argument("emit_complex_codelet: size must be positive");
  const Spelling &sp = options.precision == Precision::Float ? kFloat : kDouble;
  ComplexDag dag;
  std::vector<int> x;
  for (int64_t i = 0; i < n; ++i) x.push_back(dag.load(i));
  std::vector<int> y = dft_algorithms::dft(x, k, dag);

  // Only the nodes the outputs use, in creation (dependency) order.
  std::vector<bool> live(dag.nodes.size(), false);
  for (int v : y) live[std::size_t(v)] = true;
  for (std::size_t i = dag.nodes.size(); i-- > 0;)
    if (live[i]) {
      const Node &nd = dag.nodes[i];
      if (nd.a >= 0) live[std::size_t(nd.a)] = true;
      if (nd.b >= 0) live[std::size_t(nd.b)] = true;
    }

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
  for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
    if (!live[i]) continue;
    const Node &nd = dag.nodes[i];
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
    body += fmt::format("  const {} {} = {};\n", sp.type, v(int(i)), e);
  }
  for (int64_t j = 0; j < n; ++j) body += fmt::format("  {};\n", sp.store(j, v(y[std::size_t(j)])));

  std::string out;
  for (const std::string &h : options.header_lines) out += cpp_comment_lines(h);
  out += "// one 128-bit vector per complex value (backends/cpp/complex_codelet.h)\n\n#include <immintrin.h>\n\n";
  out += fmt::format("extern \"C\" {};\n\n", kernel_declaration(name, options.precision, options.isa));
  out += fmt::format("extern \"C\" {} {{\n", kernel_declaration(name, options.precision, options.isa));
  out += constant_lines;
  out += body;
  out += "}\n";
  return out;
}

}  // namespace splgen
