#include "generator/driver/threads.h"

#include <fmt/format.h>

#include "generator/ir/print.h"
#include "generator/rewrite/engine.h"

namespace splgen::driver {

Spl threaded_spec(const Spl &spec, int threads, int packet, Precision precision, std::vector<std::string> &notes) {
  if (threads <= 1 || spec->kind == SplKind::Tagged) return spec;
  if (spec->rows < kMinThreadedPoints) {
    notes.push_back(fmt::format("--threads {}: {} has fewer than {} points; one thread (threads cannot pay here)",
                                threads, print(spec), kMinThreadedPoints));
    return spec;
  }
  return make_tagged(Tag{TagKind::Smp, {threads, packet > 0 ? packet : cache_line_complex(precision)}}, spec);
}

bool has_tag(const Spl &f, TagKind kind) {
  if (f->kind == SplKind::Tagged && f->tag.kind == kind) return true;
  for (const Spl &c : f->children)
    if (has_tag(c, kind)) return true;
  return false;
}

std::vector<const Rule *> smp_formula_rules(const std::vector<const Rule *> &rules) {
  std::vector<const Rule *> out;
  for (const Rule *r : rules)
    if (r->lhs.kind == SplKind::Tagged && r->lhs.tag == TagKind::Smp && !rewrite::is_sigma_term(r->rhs)) out.push_back(r);
  return out;
}

int smp_workers(const Spl &f) {
  if (f->kind == SplKind::Tagged && f->tag.kind == TagKind::Smp) return int(f->tag.params.at(0));
  for (const Spl &c : f->children)
    if (int p = smp_workers(c); p > 1) return p;
  return 1;
}

namespace {
bool parallel_in(const Stmt &s) {
  if (s->kind == StmtKind::For) return s->parallel || parallel_in(s->loop_body);
  if (s->kind != StmtKind::Block) return false;
  for (const Stmt &t : s->body)
    if (parallel_in(t)) return true;
  return false;
}
}  // namespace

bool has_parallel_loop(const Function &f) { return f.body && parallel_in(f.body); }

}  // namespace splgen::driver
