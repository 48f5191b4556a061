#include "generator/driver/streaming.h"

#include <fmt/format.h>

#include "generator/ir/divisors.h"
#include "generator/ir/print.h"

namespace splgen::driver {

bool every_pass_streamed(const Sigma &s) {
  auto streamed = [](const Sigma &f) { return f->kind == SigmaKind::Sum && f->mode == SumMode::Stream; };
  if (s->kind != SigmaKind::Compose) return streamed(s);
  for (const Sigma &f : s->children)
    if (!streamed(f)) return false;
  return true;
}

Spl stream_for_local_memory(const Spl &spec, const GenOptions &options) {
  if (options.local_memory <= 0) throw FormulaError("--stream picks s from --local-memory BYTES: give it");
  if (spec->kind == SplKind::Tagged) throw FormulaError(fmt::format("--stream: the spec has a tag already ({})", print(spec)));
  GenOptions o = options;
  o.stream = false;
  std::string why;
  for (int64_t s : divisors_of(spec->rows)) {
    if (s < 2) continue;  // stream(1)[A] moves it whole: more local memory than any split
    Spl tagged = make_tagged(Tag{TagKind::Stream, {s}}, spec);
    try {
      Compilation c = start(tagged, o);
      run_until(c, Stage::Loops);
      return tagged;
    } catch (const FormulaError &e) {
      why = e.what();  // too small for this s, or no rule streams it: the next s
    }
  }
  throw FormulaError(fmt::format("--stream: no stream(s)[{}] fits --local-memory {} (the last s tried: {})", print(spec),
                                 options.local_memory, why));
}

}  // namespace splgen::driver
