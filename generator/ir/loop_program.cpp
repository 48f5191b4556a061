#include "generator/ir/loop_program.h"

namespace splgen {

std::vector<cplx> interpret(const LoopProgram &p, const std::vector<cplx> &x) {
  return p.codelet ? interpret(*p.codelet, x) : interpret(p.loops, x);
}

Matrix to_dense(const LoopProgram &p) {
  if (!p.codelet) return to_dense(p.loops);
  Matrix m(p.codelet->n, p.codelet->n);
  for (int64_t c = 0; c < p.codelet->n; ++c) {
    std::vector<cplx> e(std::size_t(p.codelet->n), cplx{});
    e[std::size_t(c)] = 1;
    std::vector<cplx> y = interpret(*p.codelet, e);
    for (int64_t r = 0; r < p.codelet->n; ++r) m.at(r, c) = y[std::size_t(r)];
  }
  return m;
}

std::string to_string(const LoopProgram &p) { return p.codelet ? to_string(*p.codelet, p.name()) : to_string(p.loops); }

}  // namespace splgen
