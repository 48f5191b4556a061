// Threads (docs/threads.md): `--threads P` asks for smp(P, mu) around the spec, mu the cache
// line in complex elements; the smp rules (rules/smp.rules, Franchetti et al. SC'06) then
// make the expanded formula's stages parallel loops (Sum_par) before it is lowered.
#pragma once
#include <string>
#include <vector>

#include "generator/ir/loops.h"
#include "generator/ir/rule.h"
#include "generator/ir/spl.h"
#include "generator/target/target.h"

namespace splgen::driver {

// Tuning knob: specs with fewer points run on one thread. One parallel region and a barrier
// cost about 1-3 us with OpenMP on the 2-core Zen 3 (docs/threads.md, measured with bench
// --threads 2): below this size a second thread does not pay for them.
constexpr int64_t kMinThreadedPoints = int64_t(1) << 13;

// The formula to expand for `threads` workers: smp(threads, mu)[spec], or the spec itself when
// threads <= 1, the spec is tagged already, or it is too small (a line in `notes` says so).
// mu is `packet` complex values, or one cache line when packet is 0.
Spl threaded_spec(const Spl &spec, int threads, int packet, Precision precision, std::vector<std::string> &notes);

// Whether f contains a tag of this kind.
bool has_tag(const Spl &f, TagKind kind);

// The formula rules of rules/smp.rules (left side smp-tagged, SPL right side), in order.
std::vector<const Rule *> smp_formula_rules(const std::vector<const Rule *> &rules);

// p of the outermost smp(p, mu) tag in f; 1 when there is none.
int smp_workers(const Spl &f);

// Whether the body has a parallel loop (a Sum_par that became one).
bool has_parallel_loop(const Function &f);

}  // namespace splgen::driver
