// Decides where each scalar of a loop-IR function is declared, for printers with C-like block
// scoping: every Assign gets its ScalarDecl, and Function::hoisted_scalars lists the scalars
// that some access reaches outside the scope of any declaring assignment (they are declared
// once at the top of the function, initialised to 0, and only assigned).
// A For body is a scope; a Block is not. A declaring assignment (Assign::declare) of a scalar
// not visible in an enclosing scope starts a new variable: ConstLocal when it is that
// variable's only assignment, else Local. Run it before remove_dead_code.
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

Function scope_declarations(const Function &f);

}  // namespace splgen::lower
