// What a kernel does per transform, counted on its loop program (splgen rules stats): real
// additions and subtractions, real multiplications, loads and stores of real values (each
// statement counted once per iteration of the loops around it, vector lanes one by one), and
// passes over memory: the values stored over the values of the result, so a kernel that
// writes each complex output once per stage, as loop-merged Cooley-Tukey does, makes one pass
// per stage. Negations are not counted: the printers fold them into the adds.
// An analysis, not a pass: the program is not changed.
#pragma once
#include <cstdint>

#include "generator/ir/loops.h"

namespace splgen::lower {

struct OperationCount {
  int64_t adds = 0, muls = 0, loads = 0, stores = 0;
  double passes = 0;  // stores / (2 rows): complex outputs written, per output
};

OperationCount count_operations(const Function &f);

}  // namespace splgen::lower
