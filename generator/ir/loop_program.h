// The loop program: the last stage before a backend prints source. It is the kernel's loop IR,
// and, for a kernel that is one DFT codelet on a vector target, the complex straight-line form
// a backend prints instead (generator/lower/complex_codelet.h). docs/design.md, "Data flow".
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "generator/ir/complex_codelet.h"
#include "generator/ir/loops.h"

namespace splgen {

struct LoopProgram {
  Function loops;                         // the loop IR (its dense meaning is the formula's)
  std::optional<ComplexCodelet> codelet;  // set: the kernel is this codelet, printed as such
  const std::string &name() const { return loops.name; }
};

// The program's meaning: the codelet's when there is one, else the loop IR's.
std::vector<cplx> interpret(const LoopProgram &p, const std::vector<cplx> &x);
Matrix to_dense(const LoopProgram &p);

// What --dump-after loops prints: the form a backend prints (the codelet when there is one).
std::string to_string(const LoopProgram &p);

}  // namespace splgen
