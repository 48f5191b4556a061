#include "generator/driver/pipeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tuple>

#include "backends/registry.h"
#include "generator/driver/builtin_backends.h"
#include "generator/driver/gpu_spec.h"
#include "generator/driver/ranks.h"
#include "generator/driver/size_limits.h"
#include "generator/driver/streaming.h"
#include "generator/driver/threads.h"
#include "generator/expand/ruletree.h"
#include "generator/ir/print.h"
#include "generator/lower/complex_codelet.h"
#include "generator/lower/gpu_kernels.h"
#include "generator/lower/inplace_passes.h"
#include "generator/lower/layout_passes.h"
#include "generator/lower/lower_with_rules.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/contiguous_runs.h"
#include "generator/lower/prepare_for_printing.h"
#include "generator/lower/schedule_registers.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/lower/uneven_slabs.h"
#include "generator/lower/vectorise_batch.h"
#include "generator/lower/vectorize_loops.h"
#include "generator/parse/formula_parser.h"
#include "generator/prove/checker.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen::driver {

const std::vector<std::string> &pipeline_stages() {
  static const std::vector<std::string> stages = {"spl", "expand", "sigma", "merge", "loops", "code"};
  return stages;
}

Stage parse_stage(const std::string &name) {
  const std::vector<std::string> &names = pipeline_stages();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return Stage(i);
  throw std::invalid_argument("unknown stage '" + name + "' (one of spl, expand::expand, sigma, merge, loops, code, all)");
}

std::string default_kernel_name(const Spl &batched, const GenOptions &options) {
  if (!options.io.plain()) {  // splgen_dft256_b1000_inplace
    GenOptions plain = options;
    plain.io = {};
    const IoLayoutOptions &io = options.io;
    return default_kernel_name(one_transform(batched, io), plain) + (io.batch > 1 ? fmt::format("_b{}", io.batch) : "") +
           (io.strided() ? "_strided" : "") + (io.in_place ? "_inplace" : "") + (io.split ? "_split" : "");
  }
  const Spl &spec = batched;
  std::string suffix = options.precision == Precision::Float ? "f" : "";
  if (options.layout != lower::DataLayout::Natural)
    return fmt::format("splgen_kernel{}x{}_{:016x}_{}{}", spec->rows, spec->cols, spec->hash,
                       options.layout == lower::DataLayout::Block  ? "block"
                       : options.layout == lower::DataLayout::ToBlock ? "to_block"
                                                                      : "from_block",
                       suffix);
  if (spec->kind == SplKind::DFT) {
    if (spec->b == 1 || spec->a <= 2) return fmt::format("splgen_dft{}{}", spec->a, suffix);
    if (spec->b == spec->a - 1) return fmt::format("splgen_idft{}{}", spec->a, suffix);
    return fmt::format("splgen_dft{}_k{}{}", spec->a, spec->b, suffix);
  }
  if (spec->kind == SplKind::RealTransform) {  // splgen_rdft1024, splgen_dct2_64
    std::string name = real_kind_name(real_kind(spec));
    for (char &ch : name) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return fmt::format("splgen_{}{}{}{}", name, std::isdigit(static_cast<unsigned char>(name.back())) ? "_" : "",
                       fmt::join(real_transform_dims(spec), "x"), suffix);  // splgen_rdft64x64
  }
  return fmt::format("splgen_kernel{}x{}_{:016x}{}", spec->rows, spec->cols, spec->hash, suffix);
}

namespace {

// Comment lines of about 100 characters, broken at spaces, so long formulas stay readable.
void add_wrapped(std::vector<std::string> &lines, const std::string &label, const std::string &text) {
  std::string line = label;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (line.size() + word.size() > 100 && line.size() > 4) {
      lines.push_back(line);
      line = "    ";
    }
    line += word + (end < text.size() ? " " : "");
    start = end + 1;
  }
  lines.push_back(line);
}

}  // namespace

expand::ExpandOptions default_expand_options(Isa isa, Precision precision) {
  expand::ExpandOptions o;
  std::vector<int> widths = vector_widths(isa, precision);
  if (!widths.empty()) {
    // A spec up to 32 points is one codelet with one vector per complex value, except 16, 24
    // and 32, whose vector loops (4 or 8 lanes over the children of a split) are faster.
    // Measured on Zen 3, AVX2 against the split: 13 2.3x, 15 2x, 20 1.1-1.15x, 10 2.2x, 12 1.6x
    // (double; against the scalar codelet the old default used up to 12 points); 16 0.75-0.9x,
    // 32 0.6-0.75x, 24 0.85-1.0x.
    o.top_codelet_max = expand::ExpansionKnobs::kCodeletMax;
    o.top_split_multiple = expand::ExpansionKnobs::kVectorSpecSplitMultiple;
    o.codelet_max = expand::ExpansionKnobs::kCodeletMax;
    o.vector_target = true;
    // 256 bits at most: a 512-bit group costs two 256-bit ones on Zen 4 (VectorGroupCosts),
    // and DFT(1000) float as 50 x 20 (256-bit columns) was 1.45x 25 x 40 there (stop 31).
    o.vector_lanes = std::min(widths.front(), precision == Precision::Double ? 4 : 8);
    o.vector_registers = isa == Isa::Avx512 ? 32 : 16;
  }
  return o;
}

expand::ExpandOptions expand_options(const GenOptions &options) {
  expand::ExpandOptions o = default_expand_options(options.isa, options.precision);
  if (options.codelet_max > 0) o.codelet_max = options.codelet_max;
  if (options.top_codelet_max > 0) {  // the user's limit, whatever the size
    o.top_codelet_max = options.top_codelet_max;
    o.top_split_multiple = 0;
  }
  return o;
}

std::vector<int> allowed_vector_widths(const GenOptions &options) {
  std::vector<int> widths;
  for (int w : vector_widths(options.isa, options.precision))
    if (options.max_vector_width <= 0 || w <= options.max_vector_width) widths.push_back(w);
  return widths;
}

int allowed_masked_width(const GenOptions &options) {
  int w = options.masked_remainders ? masked_vector_width(options.isa, options.precision) : 0;
  return options.max_vector_width <= 0 || w <= options.max_vector_width ? w : 0;
}

namespace {

const backends::Backend &backend_of(const GenOptions &options) {
  register_builtin_backends();
  const backends::Backend *b = backends::find_backend(options.target);
  if (!b) {
    std::vector<std::string> names;  // sorted: the message does not depend on who registered first
    for (const backends::Backend *known : backends::registered_backends()) names.push_back(known->name());
    std::sort(names.begin(), names.end());
    throw FormulaError(fmt::format("unknown target '{}' (one of: {})", options.target, fmt::join(names, ", ")));
  }
  if (!b->accepts(options.isa, options.precision))
    throw FormulaError(fmt::format("target '{}' does not print {} kernels for --isa {}", options.target,
                                   options.precision == Precision::Float ? "float" : "double", isa_name(options.isa)));
  if (!options.name.empty())
    if (std::string why = b->kernel_name_problem(options.name); !why.empty()) throw FormulaError("--name: " + why);
  return *b;
}

}  // namespace

void prove_rules(const std::vector<const Rule *> &rules) {
  // Whether a rule holds depends on its text alone; a search generates hundreds of kernels
  // with one --rules file, each proving it again otherwise.
  static std::mutex mutex;
  static std::set<std::string> proved;
  for (const Rule *rule : rules) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (proved.count(rule->text)) continue;
    }
    prove::CheckResult check = prove::check_rule(*rule);
    if (!check.ok)
      throw FormulaError(fmt::format("{}:{}: rule {} does not hold: {}", rule->pos.file, rule->pos.line, rule->name,
                                     check.error.empty() ? "counterexample " + check.counterexample : check.error));
    std::lock_guard<std::mutex> lock(mutex);
    proved.insert(rule->text);
  }
}

rewrite::RuleLibrary rules_with_files(const std::vector<std::string> &files) {
  prove_environment_rules();
  rewrite::RuleLibrary library;
  for (const std::string &file : files) library.load(file);
  prove_rules(library.all());
  for (const RuleFile &f : expand::shipped_rules().files()) library.add_file(f);
  return library;
}

namespace {

// The built-in rules (proved by the test suite), by set, name and text.
std::set<std::tuple<std::string, std::string, std::string>> builtin_rule_texts() {
  std::set<std::tuple<std::string, std::string, std::string>> out;
  try {
    rewrite::RuleLibrary builtin;
    builtin.load(rewrite::builtin_rules_dir());
    for (const Rule *r : builtin.all()) out.insert({r->family, r->name, r->text});
  } catch (const std::exception &) {
    // no built-in rules here: every rule of $SPLGEN_RULES is proved
  }
  return out;
}

}  // namespace

void prove_environment_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (rewrite::rules_dir_from_environment().empty()) return;
    const auto builtin = builtin_rule_texts();
    std::vector<const Rule *> unproved;
    for (const Rule *r : expand::shipped_rules().all())
      if (!builtin.count({r->family, r->name, r->text})) unproved.push_back(r);
    prove_rules(unproved);
  });
}

namespace {

// The rules in force: --rules files, then the shipped rules (from $SPLGEN_RULES: proved
// too). Every rule that is not built in is proved before it is used (a false rule would
// generate wrong code).
void load_rules(Compilation &c) {
  prove_environment_rules();
  if (c.options.rule_files.empty()) return;
  c.library = rules_with_files(c.options.rule_files);
  c.user_files = c.library.files().size() - expand::shipped_rules().files().size();
}

const rewrite::RuleLibrary &rules_in_force(const Compilation &c) {
  return c.options.rule_files.empty() ? expand::shipped_rules() : c.library;
}

// The breakdown rules of the expansion: all of them, or the closed set of --only-rules (each
// name a breakdown rule in force, else a FormulaError naming it).
std::vector<const Rule *> selected_breakdown_rules(const Compilation &c) {
  std::vector<const Rule *> all = expand::breakdown_rules(rules_in_force(c));
  if (c.options.only_rules.empty()) return all;
  std::vector<const Rule *> out;
  for (const std::string &name : c.options.only_rules) {
    if (!rules_in_force(c).find(name))
      throw FormulaError(fmt::format("--only-rules: no rule is named '{}' (in the --rules files or the shipped rules; "
                                     "splgen rules list shows them)", name));
    std::size_t before = out.size();
    for (const Rule *r : all)
      if (r->name == name && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    if (out.size() == before)
      throw FormulaError(fmt::format("--only-rules: {} is not a breakdown rule (its left side is not a DFT, or its "
                                     "right side is not SPL)", name));
  }
  // In the order of the rules in force, as without --only-rules: ties go to the earlier rule.
  std::vector<const Rule *> ordered;
  for (const Rule *r : all)
    if (std::find(out.begin(), out.end(), r) != out.end()) ordered.push_back(r);
  return ordered;
}

// --prefer-rules: the rules of the --rules files (only their breakdown rules are choices).
std::vector<const Rule *> preferred_rules(const Compilation &c) {
  std::vector<const Rule *> out;
  if (!c.options.prefer_rules) return out;
  for (std::size_t i = 0; i < c.user_files; ++i)
    for (const Rule &r : c.library.files()[i].rules) out.push_back(&r);
  return out;
}

void check_rule_selection(const Compilation &c) {
  if (c.options.prefer_rules && c.options.rule_files.empty())
    throw FormulaError("--prefer-rules needs --rules FILE: it ranks the rules of those files first");
  selected_breakdown_rules(c);  // unknown names are refused before any work
}

// A plan replaces the default expansion: its DFT leaves are codelets where they can be, larger
// DFTs are expanded with the default choices. It must be a formula of the spec's shape.
expand::Expansion expand_plan(const Spl &spec, const Spl &plan, const std::vector<const Rule *> &rules,
                      const GenOptions &options) {
  if (plan->rows != spec->rows || plan->cols != spec->cols)
    throw FormulaError(fmt::format("the plan is {} x {}, the spec {} x {}: {}", plan->rows, plan->cols, spec->rows,
                                   spec->cols, print(plan)));
  expand::ExpandOptions o = default_expand_options(options.isa, options.precision);
  o.codelet_max = o.top_codelet_max = expand::ExpansionKnobs::kCodeletMax;
  o.top_split_multiple = 0;  // the plan says where its codelets are
  return expand::expand(plan, rules, o);
}

// Whether the target's backend implements the tag (Backend::consumed_tags).
bool consumes(const Compilation &c, TagKind kind) {
  std::vector<TagKind> consumed = backend_of(c.options).consumed_tags();
  return std::count(consumed.begin(), consumed.end(), kind) > 0;
}

// tiled(k)[DFT(n x n)] and cubic(k)[DFT(n x n x n)] for a backend that prints streamed loops:
// their passes stream whole tiles (cubes), lower/layout_passes.h.
bool block_layout_kernel(const Compilation &c) {
  return lower::is_block_layout_spec(c.spec) && consumes(c, TagKind::Stream);
}

// tiled(k)[DFT(n)] --in-place: the large 1D DFT in place (lower/inplace_passes.h).
bool inplace_kernel(const Compilation &c) {
  return c.options.io.in_place && block_layout_kernel(c) && c.spec->children.front()->kind == SplKind::DFT;
}

// A slab kernel whose ranks do not divide the sizes (lower/uneven_slabs.h): FFTW-MPI's default
// distribution, padded inside, MPI_Alltoallv exchanges.
bool uneven_slab_kernel(const Compilation &c) {
  return c.options.decomposition == lower::Decomposition::Slab &&
         lower::uneven_slabs(c.spec, c.options.ranks > 1 ? c.options.ranks : par_ranks(c.spec));
}

// A 1D DFT(N) on P ranks needs a split N = m n with P | m and P | n (P^2 | N): the par rules'
// stages and the 1D overlap kernel both exchange whole blocks of an m x n array. One line that
// says so, before the expansion looks for a split and finds none.
void check_1d_split(const Spl &spec, int ranks) {
  Spl inner = spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  if (inner->kind != SplKind::DFT || inner->a % (int64_t(ranks) * ranks) == 0) return;
  throw FormulaError(fmt::format("{} on {} ranks: a 1D kernel needs a split {} = m n with {} dividing both m and n ({}^2 = {} "
                                 "dividing {}), and there is none; uneven distributions are built for 2D and 3D slabs only "
                                 "(docs/mpi.md)", print(spec), ranks, inner->a, ranks, ranks, int64_t(ranks) * ranks, inner->a));
}

// A kernel whose ranks run the par tag's stages (docs/mpi.md); the flags that ask for one are
// refused where it cannot be.
bool distributed_kernel(const Compilation &c) {
  const bool par = par_ranks(c.spec) > 0 || c.options.ranks > 1;
  if (!consumes(c, TagKind::Par)) {
    if (c.options.ranks > 1)
      throw FormulaError(fmt::format("--ranks {}: target '{}' prints code for one process; --target mpi distributes "
                                     "(docs/mpi.md)", c.options.ranks, c.options.target));
    if (c.options.distribution != lower::Distribution::Block)
      throw FormulaError("--distribution: only for distributed kernels (--target mpi, docs/mpi.md)");
    if (c.options.decomposition != lower::Decomposition::Slab || c.options.grid[0] > 0 || c.options.overlap > 1)
      throw FormulaError("--decomposition pencil, --grid and --overlap: only for distributed kernels (--target mpi, docs/mpi.md)");
    return false;
  }
  if (!par)
    throw FormulaError(fmt::format("target '{}' needs a distributed spec: --ranks P or par(p, mu)[...] (docs/mpi.md)",
                                   c.options.target));
  if (c.options.threads > 1) throw FormulaError("--threads with --ranks: threads inside each rank are not built yet (docs/mpi.md)");
  check_distributable(c.spec);
  const int ranks = c.options.ranks > 1 ? c.options.ranks : par_ranks(c.spec);
  const bool uneven = uneven_slab_kernel(c);
  if (c.spec->rows % ranks && !uneven)
    throw FormulaError(fmt::format("{} ranks do not divide the {} points of {}: each rank holds an equal part (docs/mpi.md)",
                                   ranks, c.spec->rows, print(c.spec)));
  check_1d_split(c.spec, ranks);
  if (uneven && c.options.distribution != lower::Distribution::Block)
    throw FormulaError(fmt::format("--distribution cyclic: {} on {} ranks is an uneven slab kernel, in FFTW-MPI's block "
                                   "distribution only (docs/mpi.md)", print(c.spec), ranks));
  if (uneven && c.options.overlap > 1)
    throw FormulaError(fmt::format("--overlap {}: {} on {} ranks is an uneven slab kernel (the ranks do not divide m or a row "
                                   "of m), whose MPI_Alltoallv exchanges are not chunked yet (docs/mpi.md)",
                                   c.options.overlap, print(c.spec), ranks));
  if (c.options.grid[0] > 0 && c.options.decomposition != lower::Decomposition::Pencil)
    throw FormulaError("--grid p0xp1: the grid of --decomposition pencil (docs/mpi.md)");
  if (c.options.overlap > 1 && c.options.decomposition == lower::Decomposition::Slab &&
      c.options.distribution != lower::Distribution::Block)
    throw FormulaError(fmt::format("--overlap {} with --distribution cyclic: not built yet (docs/mpi.md)", c.options.overlap));
  if (c.options.decomposition == lower::Decomposition::Pencil) {
    if (c.options.distribution != lower::Distribution::Block)
      throw FormulaError("--decomposition pencil with --distribution cyclic: pencils have a distribution of their own (docs/mpi.md)");
    lower::pencil_grid(lower::pencil_dims(c.spec), ranks, c.options.grid);  // refuses what does not fit
  }
  return true;
}

// A kernel whose ranks' steps are built in code (lower/pencil_ranks.h), not from the par rules'
// stages: pencils, and slab and 1D kernels with --overlap (the Sum_par stages have no chunks).
bool steps_in_code_kernel(const Compilation &c) {
  return (c.options.decomposition == lower::Decomposition::Pencil || c.options.overlap > 1 || uneven_slab_kernel(c)) &&
         distributed_kernel(c);
}

// The n of the split DFT(N) = (DFT(m) (x) I(n)) T(N, n) (I(m) (x) DFT(n)) L(N, m) that the par
// rules take for the kernel without overlap (its twiddles T(N, n)); 0 when there is none. The
// 1D overlap kernel prefers it: the same stages, so --overlap K against 1 compares the chunks only.
int64_t par_split(const Compilation &c, int ranks) {
  std::function<int64_t(const Spl &)> find = [&](const Spl &f) -> int64_t {
    if (f->kind == SplKind::Twiddle && f->a == c.spec->rows) return f->b;
    for (const Spl &child : f->children)
      if (int64_t n = find(child)) return n;
    return 0;
  };
  try {
    return find(expand::expand(ranked_spec(c.spec, ranks), selected_breakdown_rules(c), expand_options(c.options)).formula);
  } catch (const FormulaError &) {  // no split the par rules distribute: the overlap kernel takes its own
    return 0;
  }
}

// A pencil, uneven slab, slab-overlap or 1D-overlap kernel's steps (lower/pencil_ranks.h), each stage's compute expanded as a spec.
lower::RankProgram run_steps_in_code(const Compilation &c) {
  const int ranks = c.options.ranks > 1 ? c.options.ranks : par_ranks(c.spec);
  const std::vector<const Rule *> breakdown = selected_breakdown_rules(c);
  const expand::ExpandOptions o = expand_options(c.options);
  const auto lower_compute = [&](const Spl &compute) {
    return lower::lower_to_sigma(expand::expand(compute, breakdown, o).formula);
  };
  Spl inner = c.spec;
  while (inner->kind == SplKind::Tagged) inner = inner->children.front();
  if (uneven_slab_kernel(c)) return lower::distribute_uneven_slabs(c.spec, ranks, lower_compute);
  if (c.options.decomposition == lower::Decomposition::Slab && inner->kind == SplKind::DFT)
    return lower::distribute_1d(c.spec, ranks, c.options.overlap, par_split(c, ranks), lower_compute);
  if (c.options.decomposition == lower::Decomposition::Slab)
    return lower::distribute_slabs(c.spec, ranks, c.options.overlap, lower_compute);
  return lower::distribute_pencils(c.spec, lower::pencil_grid(lower::pencil_dims(c.spec), ranks, c.options.grid),
                                   c.options.overlap, lower_compute);
}

expand::Expansion run_expand(Compilation &c) {
  distributed_kernel(c);  // refuses what cannot be before the expansion runs
  if (c.options.threads > 1 && !consumes(c, TagKind::Smp))
    throw FormulaError(fmt::format("--threads {}: target '{}' does not run CPU threads ({}; docs/threads.md)", c.options.threads,
                                   c.options.target, c.options.target == "cuda" ? "its threads are the GPU's, docs/cuda.md"
                                                                                : "--threads is for the cpp target"));
  if (!(c.options.gpu == GpuKnobs{}) && !backend_of(c.options).prints_gpu_programs())
    throw FormulaError(fmt::format("--arch and --gpu-knobs are for GPU targets (--target cuda), not '{}'", c.options.target));
  if (c.options.local_memory > 0 && !has_tag(c.spec, TagKind::Stream) && !block_layout_kernel(c))
    throw FormulaError("--local-memory is the local memory of streamed loops: the spec has no stream(s), tiled(k) or "
                       "cubic(k) tag (docs/streaming.md)");
  if (c.options.layout != lower::DataLayout::Natural && !block_layout_kernel(c))
    throw FormulaError(fmt::format("--layout {}: needs a tiled(k)[DFT(n x n)] or cubic(k)[DFT(n x n x n)] spec and a "
                                   "target that prints streamed loops (docs/streaming.md)",
                                   lower::layout_name(c.options.layout)));
  if (steps_in_code_kernel(c)) {  // each stage's compute is expanded when the stages are made
    expand::Expansion e;
    e.formula = c.spec;
    return e;
  }
  if (block_layout_kernel(c)) {  // each pass's compute is expanded when the passes are made
    if (inplace_kernel(c) && c.options.layout != lower::DataLayout::Natural)
      throw FormulaError(fmt::format("--in-place --layout {}: the in-place large 1D DFT takes and returns the natural "
                                     "layout (docs/streaming.md)", lower::layout_name(c.options.layout)));
    if (inplace_kernel(c)) lower::check_inplace(c.spec);
    else lower::check_block_layout(c.spec);
    expand::Expansion e;
    e.formula = c.spec;
    return e;
  }
  std::vector<const Rule *> breakdown = selected_breakdown_rules(c);
  Spl spec = ranked_spec(threaded_spec(c.spec, c.options.threads, c.options.smp_packet, c.options.precision, c.notes),
                         c.options.ranks);
  if (c.options.plan) {
    // With --threads the tag is smp(threads, smp_packet or a cache line); a plan that brings an
    // smp tag of its own (a threaded default plan, stored whole) brings only its formula.
    const Spl &formula = c.options.plan;
    const bool own_tag = formula->kind == SplKind::Tagged && formula->tag.kind == TagKind::Smp;
    Spl plan = spec == c.spec ? formula : make_tagged(spec->tag, own_tag ? formula->children[0] : formula);
    return expand_plan(c.spec, plan, breakdown, c.options);
  }
  if (backend_of(c.options).prints_gpu_programs())  // stages that fit a block's shared memory (gpu_spec.h)
    spec = gpu_spec(spec, c.options.gpu.factor_max);
  expand::ExpandOptions o = expand_options(c.options);
  // A batch run across (io_layout.h): DFT(n) up to the codelet size is one codelet, not split
  // for vector loops inside it (AVX-512 double, 1000 x DFT(16): 0.82x FFTW split, 1.00x one codelet).
  if (!batch_vector_widths(c.spec, c.options).empty() && c.options.top_codelet_max == 0) o.top_split_multiple = 0;
  o.preferred = preferred_rules(c);
  o.closed = !c.options.only_rules.empty();
  return expand::expand(spec, breakdown, o);
}

// The formula rules of the tags the backend implements rewrite the expanded formula (smp: its
// stages become Sum_par loops, rules/smp.rules; stream: a DFT's passes are streamed one by
// one, rules/stream.rules), the rules of --rules files first. The rules applied are recorded
// for the sigma dump.
Spl run_tag_rules(Compilation &c) {
  Spl f = c.expansion.formula;
  for (TagKind kind : {TagKind::Smp, TagKind::Stream, TagKind::Par}) {
    if (!has_tag(f, kind) || !consumes(c, kind)) continue;
    std::vector<const Rule *> applied;
    f = rewrite::rewrite_to_fixpoint(f, tag_formula_rules(rules_in_force(c).all(), kind), 10000, &applied);
    for (const Rule *r : applied)
      c.tag_rules.push_back(fmt::format("{} [{}]", r->name, expand::shown_source(fmt::format("{}:{}", r->pos.file, r->pos.line))));
  }
  return f;
}

// A block-layout kernel: its streamed passes, each pass's local compute expanded as a spec.
Sigma run_layout_passes(const Compilation &c) {
  const std::vector<const Rule *> breakdown = selected_breakdown_rules(c);
  const expand::ExpandOptions o = expand_options(c.options);
  auto lower_compute = [&](const Spl &compute, int first_var) {
    return lower::lower_to_sigma(expand::expand(compute, breakdown, o).formula, {}, first_var);
  };
  if (inplace_kernel(c)) return lower::inplace_passes(c.spec, lower_compute);
  return lower::layout_passes(c.spec, c.options.layout, lower_compute);
}

// Rules with Sigma-SPL right sides lower tagged parts, lower_to_sigma the rest.
Sigma run_lower(const Compilation &c, const Spl &f) {
  std::vector<const Rule *> lowering;  // rules with Sigma-SPL right sides for tagged formulas
  for (const Rule *rule : rules_in_force(c).all())
    if (rewrite::is_sigma_term(rule->rhs) && rule->lhs.kind == SplKind::Tagged) lowering.push_back(rule);
  if (!backend_of(c.options).prints_gpu_programs()) return lower::lower_with_rules(f, lowering);
  // GPU: no cache blocking, or blocks of GpuKnobs::columns columns of at most factor_max points each
  const GpuKnobs &k = c.options.gpu;
  return lower::lower_with_rules(f, lowering, k.columns > 0 ? lower::Blocking{k.factor_max * k.columns, k.columns, false}
                                                            : lower::Blocking{lower::kNoBlocking, 1, false});
}

// Copy loops split into runs of contiguous elements (lower/contiguous_runs.h), runs of at
// least one vector; not for GPU programs, whose threads lower_to_gpu lays out from the loops.
Function split_runs(const Compilation &c, const Function &f) {
  if (backend_of(c.options).prints_gpu_programs()) return f;
  const std::vector<int> widths = allowed_vector_widths(c.options);
  return lower::split_contiguous_runs(f, widths.empty() ? 2 : widths.front());
}

// The loop IR, and the complex form of a kernel that is one codelet on a vector target when
// the backend prints it (one vector per complex value beats the scalar codelet: 1.7x at 8).
LoopProgram run_loops(const Compilation &c) {
  std::string name = c.options.name.empty() ? default_kernel_name(c.spec, c.options) : c.options.name;
  LoopProgram p;
  if (c.distributed) {  // each local step as a kernel of its own (docs/mpi.md)
    p.ranks = rank_loops(*c.distributed, name, [&](const Sigma &step, const std::string &step_name) {
      return lower::prepare_for_printing(lower::schedule_for_registers(
          lower::vectorize_loops(split_runs(c, lower::sigma_to_loops(step, step_name)), allowed_vector_widths(c.options),
                                 allowed_masked_width(c.options), vector_group_costs(c.options.isa))));
    });
    p.loops.name = name, p.loops.rows = c.spec->rows, p.loops.cols = c.spec->cols;
    p.loops.body = make_block({});
    return p;
  }
  lower::StreamOptions stream{consumes(c, TagKind::Stream), c.options.dma_buffers,
                              c.options.local_memory, c.options.precision == Precision::Float ? 4 : 8};
  p.loops = lower::prepare_for_printing(lower::schedule_for_registers(
      lower::vectorize_loops(split_runs(c, lower::sigma_to_loops(c.merged, name, stream, {reads_real(c.spec), writes_real(c.spec)},
                                                                 io_layout_functions(c.spec, c.options.io))),
                             allowed_vector_widths(c.options), allowed_masked_width(c.options),
                             vector_group_costs(c.options.isa))));
  if (c.expansion.formula && has_parallel_loop(p.loops)) p.loops.workers = smp_workers(c.expansion.formula);
  if (stream.dma && c.expansion.formula && has_tag(c.expansion.formula, TagKind::Stream) && !every_pass_streamed(c.merged))
    throw FormulaError("stream(s): no rule of rules/stream.rules streams " +
                       std::string(p.loops.dma_tags == 0 ? "this formula" : "every pass of this formula") +
                       " (s must divide the sizes it splits; docs/streaming.md)");
  if (backend_of(c.options).prints_gpu_programs()) {  // thread blocks and shared memory (docs/cuda.md)
    GpuKnobs knobs = c.options.gpu;
    knobs.real_bytes = c.options.precision == Precision::Float ? 4 : 8;
    p.gpu = lower::lower_to_gpu(p.loops, knobs);
    return p;
  }
  const Spl &f = c.expansion.formula;
  const IoLayoutOptions &io = c.options.io;  // the codelet reads x[i] and writes y[i], or xy in place
  const bool codelet_layout = io.plain() || (io.in_place && io.batch == 1 && !io.strided() && !io.split);
  if (f && codelet_layout && backend_of(c.options).prints_complex_codelets() &&
      !vector_widths(c.options.isa, c.options.precision).empty() && f->kind == SplKind::DFT && is_codelet_size(f->a))
    p.codelet = lower::lower_complex_codelet(f->a, f->b);
  return p;
}

// The data layout of the kernel's y and x, for its header comment (docs/transforms.md).
std::string io_layout(const Spl &spec, const IoLayoutOptions &io) {
  if (!io.plain()) return describe_io_layout(spec, io);
  if (!reads_real(spec) && !writes_real(spec)) return "interleaved complex, out-of-place";
  auto side = [](int64_t n, bool real) {
    return real ? fmt::format("{} reals", n) : fmt::format("{} interleaved complex", n);
  };
  return fmt::format("y: {}, x: {}, out-of-place", side(spec->rows, writes_real(spec)), side(spec->cols, reads_real(spec)));
}

backends::EmitOptions emit_options(const Compilation &c) {
  backends::EmitOptions emit;
  emit.precision = c.options.precision;
  emit.isa = c.options.isa;
  emit.threading = c.options.threading;
  emit.dma = c.options.dma;
  emit.header_lines.push_back(fmt::format("generated by splgen {} -- do not edit", SPLGEN_VERSION));
  emit.header_lines.push_back(fmt::format("spec: {} ({}, {}, {})", print(c.spec),
                                          c.options.precision == Precision::Float ? "float" : "double",
                                          isa_name(c.options.isa), io_layout(c.spec, c.options.io)));
  if (c.program.loops.workers > 1)
    emit.header_lines.push_back(fmt::format("threads: {} workers ({}); safe to call from several threads at once",
                                            c.program.loops.workers, threading_name(c.options.threading)));
  if (c.program.loops.dma_tags > 0)
    emit.header_lines.push_back(fmt::format("streamed: {} bytes of local buffers, {} chunks in flight; NAME({}) uses the {} DMA engine",
                                            local_memory_bytes(c.program.loops, c.options.precision == Precision::Float ? 4 : 8),
                                            c.options.dma_buffers, c.program.loops.in_place ? "xy" : "y, x",
                                            dma_engine_name(c.options.dma)));
  if (inplace_kernel(c))
    emit.header_lines.push_back(fmt::format("in place: {} passes, the six-step algorithm with in-place transposes "
                                            "(docs/streaming.md, \"Large 1D in place\")", lower::inplace_shape(c.spec).passes()));
  else if (block_layout_kernel(c))
    emit.header_lines.push_back(fmt::format("data layout: {} (docs/streaming.md, \"Block data layouts\")",
                                            lower::layout_name(c.options.layout)));
  if (c.expansion.formula) add_wrapped(emit.header_lines, "formula: ", print_brief(c.expansion.formula));
  return emit;
}

void run_stage(Compilation &c, Stage stage) {
  switch (stage) {  // one case per stage, in order
    case Stage::Spec: break;
    case Stage::Expand:
      c.expansion = run_expand(c);
      c.notes.insert(c.notes.end(), c.expansion.notes.begin(), c.expansion.notes.end());
      break;
    case Stage::Sigma:
      if (steps_in_code_kernel(c)) {  // no Sigma-SPL of the whole: the ranks' steps (dumped instead)
        c.tagged = c.spec;
        c.distributed = run_steps_in_code(c);
        break;
      }
      if (block_layout_kernel(c)) {
        c.tagged = c.expansion.formula;
        c.sigma = run_layout_passes(c);
        break;
      }
      // a batch of small transforms: the vector lanes run different transforms (io_layout.h)
      c.tagged = lower::vectorise_batch(run_tag_rules(c), batch_vector_widths(c.spec, c.options));
      c.sigma = run_lower(c, c.tagged);
      break;
    case Stage::Merge:
      if (steps_in_code_kernel(c)) {
        c.distributed = merge_rank_steps(*c.distributed);
        break;
      }
      if (distributed_kernel(c)) {
        try {
          c.distributed = merge_rank_steps(lower::distribute_ranks(c.sigma, par_ranks(c.expansion.formula), c.options.distribution));
        } catch (const FormulaError &) {  // the expansion's reason, where it found no split for the ranks
          for (const std::string &note : c.notes)
            if (note.rfind("par(", 0) == 0) throw FormulaError(note + " (docs/mpi.md)");
          throw;
        }
        c.merged = c.sigma;
        break;
      }
      c.merged = lower::merge_loops(c.sigma);
      break;
    case Stage::Loops: c.program = run_loops(c); break;
    case Stage::Code: {
      const backends::Backend &backend = backend_of(c.options);
      backends::EmitOptions emit = emit_options(c);
      c.source = backend.emit(c.program, emit);
      c.header = backend.emit_header(c.program, emit);
      break;
    }
  }
  c.reached = stage;
}

Compilation entered(const Spl &spec, const GenOptions &options, Stage reached) {
  Compilation c;
  c.options = options;
  c.spec = spec;
  c.reached = reached;
  const std::vector<TagKind> consumed = backend_of(options).consumed_tags();  // an unknown target: an error before any work
  if (options.masked_remainders && masked_vector_width(options.isa, options.precision) == 0)
    throw FormulaError(fmt::format("--masked-remainders: only --isa avx512 has lane masks, not {}", isa_name(options.isa)));
  const bool distributed = std::count(consumed.begin(), consumed.end(), TagKind::Par) > 0;
  if (options.size_limits)  // refused at once rather than minutes later (size_limits.h); per rank if distributed
    check_size_limits(spec, distributed ? std::max(options.ranks, std::max(1, par_ranks(spec))) : 1, inplace_kernel(c),
                      backend_of(options).prints_gpu_programs());
  if (reached < Stage::Merge) {  // the expansion and the lowering use rules; later stages do not
    load_rules(c);
    check_rule_selection(c);
  }
  return c;
}

}  // namespace

Compilation start(const std::string &spec_text, const GenOptions &options) {
  Spl spec = parse::parse_formula(spec_text);
  if (options.inverse) {
    if (spec->kind != SplKind::DFT) throw FormulaError("--inverse needs a DFT(n) or DFT(n,k) spec");
    spec = make_dft(spec->a, -spec->b);
  }
  if (options.stream) spec = stream_for_local_memory(spec, options);
  check_io_layout(spec, options);
  spec = batched_spec(spec, options.io);
  Compilation c = entered(spec, options, Stage::Spec);
  c.spec_text = options.stream ? print(spec) : spec_text;
  return c;
}

Compilation start(const Spl &spec, const GenOptions &options) {
  Spl s = options.stream ? stream_for_local_memory(spec, options) : spec;
  check_io_layout(s, options);
  return entered(batched_spec(s, options.io), options, Stage::Spec);
}

Compilation start_at_formula(const Spl &spec, const Spl &formula, const GenOptions &options) {
  if (formula->rows != spec->rows || formula->cols != spec->cols)
    throw FormulaError(fmt::format("the formula is {} x {}, the spec {} x {}", formula->rows, formula->cols,
                                   spec->rows, spec->cols));
  Compilation c = entered(spec, options, Stage::Expand);
  c.expansion.formula = formula;
  return c;
}

Compilation start_at_sigma(const Spl &spec, const Sigma &sigma, const GenOptions &options) {
  if (sigma->rows != spec->rows || sigma->cols != spec->cols)
    throw FormulaError(fmt::format("the Sigma-SPL is {} x {}, the spec {} x {}", sigma->rows, sigma->cols,
                                   spec->rows, spec->cols));
  Compilation c = entered(spec, options, Stage::Merge);
  c.sigma = c.merged = sigma;
  return c;
}

Compilation start_at_loops(const Spl &spec, const LoopProgram &program, const GenOptions &options) {
  Compilation c = entered(spec, options, Stage::Loops);
  c.program = program;
  if (!c.program.loops.scalars_scoped) c.program.loops = lower::prepare_for_printing(c.program.loops);
  return c;
}

void run_until(Compilation &c, Stage last) {
  while (c.reached < last) run_stage(c, Stage(int(c.reached) + 1));
}

Compilation run_pipeline(const std::string &spec_text, const GenOptions &options) {
  Compilation c = start(spec_text, options);
  run_until(c, Stage::Code);
  return c;
}

std::string dump_stage(const Compilation &c, Stage stage) {
  if (c.reached < stage) throw std::invalid_argument("dump_stage: the stage '" + pipeline_stages()[std::size_t(stage)] + "' has not run");
  switch (stage) {
    case Stage::Spec: return print(c.spec) + "\n";
    case Stage::Expand: {
      std::string out;
      for (const std::string &note : c.notes) out += "note: " + note + "\n";
      for (const expand::RuletreePtr &t : c.expansion.trees) out += print(t);
      return out + print(c.expansion.formula) + "\n";
    }
    case Stage::Sigma: {  // the tag rules' result first, where they changed the formula, and which rules did
      std::string applied = c.tag_rules.empty() ? "" : fmt::format("tag rules applied: {}\n", fmt::join(c.tag_rules, ", "));
      if (!c.sigma && c.distributed) return applied + print(*c.distributed);  // a pencil kernel's steps
      // no tag rule ran where a batch is vectorised across (batch_vector_widths refuses tags)
      const char *label = c.tag_rules.empty() ? "across the batch: " : "tag rules: ";
      if (c.tagged && c.tagged != c.expansion.formula)
        return applied + label + print(c.tagged) + "\n" + print(c.sigma);
      return applied + print(c.sigma);
    }
    case Stage::Merge: return c.distributed ? print(*c.distributed) : print(c.merged);
    case Stage::Loops: return to_string(c.program);
    case Stage::Code: return c.source;
  }
  return "";
}

std::string dump_stage(const Compilation &c, const std::string &stage) { return dump_stage(c, parse_stage(stage)); }

}  // namespace splgen::driver
