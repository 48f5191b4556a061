// The text of a parallel region in generated C++ (docs/threads.md): one region per kernel
// call, its workers sharing out the parallel loops of the body in contiguous blocks of
// iterations, a barrier between stages. OpenMP (`#pragma omp parallel`, the default) or the
// thread team of runtime/thread_team.h; the two differ only in these pieces of text.
#pragma once
#include <string>

#include "generator/target/target.h"

namespace splgen::backends {

struct RegionText {
  std::string include;  // the #include line the region needs
  std::string open;     // opens the region; declares `worker` and `workers` (longs) inside
  std::string barrier;  // a barrier statement inside the region
  std::string close;    // closes the region
};

// `workers`: the team size the kernel asks for; `indent`: of the open/close lines;
// `attribute`: the kernel's target attribute (the team's lambda needs it too: GCC does not
// pass a function's target ISA on to lambdas inside it).
RegionText region_text(Threading threading, int workers, const std::string &indent, const std::string &attribute);

// The bounds of worker `worker`'s block of a parallel loop of `extent` iterations.
std::string block_begin(int64_t extent);
std::string block_end(int64_t extent);

}  // namespace splgen::backends
