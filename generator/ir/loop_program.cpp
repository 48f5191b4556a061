#include "generator/ir/loop_program.h"

namespace splgen {

std::vector<cplx> interpret(const LoopProgram &p, const std::vector<cplx> &x) {
  return p.codelet ? interpret(*p.codelet, x) : interpret(p.loops, x);
}

Matrix to_dense(const LoopProgram &p) {
  if (!p.codelet) return to_dense(p.loops);
  return probe_matrix(p.codelet->n, p.codelet->n, [&](const std::vector<cplx> &e) { return interpret(*p.codelet, e); });
}

std::string to_string(const LoopProgram &p) { return p.codelet ? to_string(*p.codelet, p.name()) : to_string(p.loops); }

}  // namespace splgen
