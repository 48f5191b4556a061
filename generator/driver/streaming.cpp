#include "generator/driver/streaming.h"

namespace splgen::driver {

bool every_pass_streamed(const Sigma &s) {
  auto streamed = [](const Sigma &f) { return f->kind == SigmaKind::Sum && f->mode == SumMode::Stream; };
  if (s->kind != SigmaKind::Compose) return streamed(s);
  for (const Sigma &f : s->children)
    if (!streamed(f)) return false;
  return true;
}

}  // namespace splgen::driver
