// Removes what cannot affect the output: stores are live; a variable is live when a live
// statement reads it, and then every assignment to it is live. Dead assignments go, loops left
// without a statement go, and hoisted scalars nothing reads any more go from
// Function::hoisted_scalars (so printed code has no unused variables).
// Variables are those of scope_declarations (which must have run: it decides them on the
// whole function, dead code included, so removing code changes no declaration).
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

Function remove_dead_code(const Function &f);

}  // namespace splgen::lower
