#include "generator/lower/prepare_for_printing.h"

#include "generator/lower/remove_dead_code.h"
#include "generator/lower/scope_declarations.h"

namespace splgen::lower {

Function prepare_for_printing(const Function &f) { return remove_dead_code(scope_declarations(f)); }

}  // namespace splgen::lower
