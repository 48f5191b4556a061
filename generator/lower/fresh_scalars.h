// A copy of a loop statement whose scalars get new numbers: the scalars the copy assigns are
// renumbered from `next` on (and `next` advanced), reads of them follow, every other read is
// left alone. For code printed twice (the steady state and the epilogue of a streamed loop):
// with one number in both, each copy's scalars look read outside it and the vectorizer
// leaves its loops scalar (every streamed compute was scalar code before this).
#pragma once
#include "generator/ir/loops.h"

namespace splgen::lower {

Stmt fresh_scalars(const Stmt &s, int &next);

}  // namespace splgen::lower
