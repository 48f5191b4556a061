#include "generator/lower/complex_codelet.h"

#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "generator/lower/dft_algorithms.h"

namespace splgen::lower {

namespace {

using Op = ComplexCodelet::Op;

// One complex value (its id is its place in ComplexDag::nodes).
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

}  // namespace

ComplexCodelet lower_complex_codelet(int64_t n, int64_t k) {
  if (n < 1) throw std::invalid_argument("lower_complex_codelet: size must be positive");
  ComplexDag dag;
  std::vector<int> x;
  for (int64_t i = 0; i < n; ++i) x.push_back(dag.load(i));
  ComplexCodelet c;
  c.n = n;
  c.k = k;
  c.outputs = dft_algorithms::dft(x, k, dag);

  std::vector<bool> live(dag.nodes.size(), false);
  for (int v : c.outputs) live[std::size_t(v)] = true;
  for (std::size_t i = dag.nodes.size(); i-- > 0;)
    if (live[i]) {
      const Node &nd = dag.nodes[i];
      if (nd.a >= 0) live[std::size_t(nd.a)] = true;
      if (nd.b >= 0) live[std::size_t(nd.b)] = true;
    }
  for (std::size_t i = 0; i < dag.nodes.size(); ++i)
    if (live[i]) {
      const Node &nd = dag.nodes[i];
      c.nodes.push_back({nd.op, int(i), nd.a, nd.b, nd.index, nd.c0, nd.c1});
    }
  return c;
}

}  // namespace splgen::lower
