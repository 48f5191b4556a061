#include "generator/ir/complex_codelet.h"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

namespace splgen {

std::vector<cplx> interpret(const ComplexCodelet &c, const std::vector<cplx> &x) {
  if (int64_t(x.size()) != c.n) throw std::invalid_argument("interpret: input size differs from the codelet's");
  std::map<int, cplx> v;
  using Op = ComplexCodelet::Op;
  for (const ComplexCodelet::Node &nd : c.nodes) {
    cplx a = nd.a >= 0 ? v.at(nd.a) : cplx{}, b = nd.b >= 0 ? v.at(nd.b) : cplx{};
    switch (nd.op) {  // the meaning of each operation: one case each
      case Op::Load: v[nd.id] = x.at(std::size_t(nd.index)); break;
      case Op::Add: v[nd.id] = a + b; break;
      case Op::Sub: v[nd.id] = a - b; break;
      case Op::Neg: v[nd.id] = -a; break;
      case Op::Scale: v[nd.id] = nd.c0 * a; break;
      case Op::MulI: v[nd.id] = cplx(0, 1) * a; break;
      case Op::MulMinusI: v[nd.id] = cplx(0, -1) * a; break;
      case Op::MulConst: v[nd.id] = a * cplx(nd.c0, nd.c1); break;
    }
  }
  std::vector<cplx> y;
  for (int id : c.outputs) y.push_back(v.at(id));
  return y;
}

std::string to_string(const ComplexCodelet &c, const std::string &name) {
  using Op = ComplexCodelet::Op;
  std::string out = fmt::format("complex codelet {}: DFT({}, {}), one vector per complex value\n", name, c.n, c.k);
  for (const ComplexCodelet::Node &nd : c.nodes) {
    std::string a = fmt::format("v{}", nd.a), b = fmt::format("v{}", nd.b), e;
    switch (nd.op) {
      case Op::Load: e = fmt::format("x[{}]", nd.index); break;
      case Op::Add: e = a + " + " + b; break;
      case Op::Sub: e = a + " - " + b; break;
      case Op::Neg: e = "-" + a; break;
      case Op::Scale: e = fmt::format("{} * {}", nd.c0, a); break;
      case Op::MulI: e = "i * " + a; break;
      case Op::MulMinusI: e = "-i * " + a; break;
      case Op::MulConst: e = fmt::format("{} * ({} + {}i)", a, nd.c0, nd.c1); break;
    }
    out += fmt::format("  v{} = {}\n", nd.id, e);
  }
  for (std::size_t j = 0; j < c.outputs.size(); ++j) out += fmt::format("  y[{}] = v{}\n", j, c.outputs[j]);
  return out;
}

}  // namespace splgen
