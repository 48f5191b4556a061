#include "generator/driver/scale_model.h"

#include <cmath>

namespace splgen::driver {

double pseudo_flops(const Sigma &s) {
  switch (s->kind) {  // per-kind count
    case SigmaKind::Sum: return double(s->mode == SumMode::Parallel ? 1 : s->var.extent) * pseudo_flops(s->children.front());
    case SigmaKind::Compose:
    case SigmaKind::SumList: {
      double f = 0;
      for (const Sigma &c : s->children) f += pseudo_flops(c);
      return f;
    }
    case SigmaKind::Kernel: {
      const double m = double(s->source->rows);
      return m > 1 ? 5 * m * std::log2(m) : 0;
    }
    case SigmaKind::Diag: return 6.0 * double(s->rows);
    case SigmaKind::Gather:
    case SigmaKind::Scatter: return 0;
  }
  return 0;
}

Prediction predict(const std::string &spec, GenOptions options, int ranks, const Machine &machine) {
  options.ranks = ranks;
  options.size_limits = false;  // no code is made
  Compilation c = start(spec, options);
  run_until(c, Stage::Merge);
  const lower::RankProgram &p = *c.distributed;
  const double bytes = (options.precision == Precision::Float ? 8.0 : 16.0) * double(p.local);
  Prediction out;
  out.ranks = ranks, out.grid = p.grid;
  for (const lower::RankStep &step : p.steps) {
    StepTime t{step.exchange, 0};
    if (step.exchange) {
      const double g = step.group.size ? step.group.size : ranks;  // a pencil grid's row or column, or all
      t.seconds = (g - 1) * machine.latency_us * 1e-6 + bytes * (g - 1) / g / (machine.link_gbytes * 1e9);
      out.exchange += t.seconds;
    } else {
      const double flops = pseudo_flops(step.local) * step.chunks;  // a chunked step's Sigma-SPL is one chunk's
      t.seconds = flops > 0 ? flops / (machine.node_gflops * 1e9) : 2 * bytes / (machine.memory_gbytes * 1e9);
      out.compute += t.seconds;
    }
    out.steps.push_back(t);
  }
  out.total = out.compute + out.exchange;
  return out;
}

}  // namespace splgen::driver
