// The passes every printer of the loop IR needs after the lowering (emit_cpp refuses a
// function that has not been through them): scope_declarations, then remove_dead_code.
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

Function prepare_for_printing(const Function &f);

}  // namespace splgen::lower
