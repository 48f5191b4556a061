// The staged driver (docs/design.md, "Data flow"): the whole generator, one stage after
// another, entered at any stage and left after any stage:
//   spec --expand--> formula (ruletrees) --lower--> Sigma-SPL --merge_loops--> Sigma-SPL
//        --sigma_to_loops, vectorize, schedule--> loop program --backend--> source text
// A Compilation holds what the stages have made so far; run_until() runs the stages after
// `reached` up to a given one. --dump-after prints a stage of it (dump_stage).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "generator/driver/io_layout.h"
#include "generator/expand/expand.h"
#include "generator/ir/gpu_knobs.h"
#include "generator/ir/loop_program.h"
#include "generator/ir/sigma.h"
#include "generator/lower/distribute_ranks.h"
#include "generator/lower/pencil_ranks.h"
#include "generator/lower/layout_passes.h"
#include "generator/target/target.h"

namespace splgen::driver {

struct GenOptions {
  std::string name;                       // empty: derived from the spec
  std::string target = "cpp";             // the backend (backends/registry.h) that prints the kernel
  Precision precision = Precision::Double;
  Isa isa = Isa::Scalar;                  // vector instruction set of the emitted code
  int64_t codelet_max = 0;                // tuning knobs of the expansion (ExpandOptions); 0: the
  int64_t top_codelet_max = 0;            //   default for the target (default_expand_options)
  bool inverse = false;                   // spec DFT(n) becomes DFT(n,-1)
  std::vector<std::string> rule_files;    // extra rule files (--rules), proved, tried before the shipped rules
  bool prefer_rules = false;              // their breakdown rules first wherever one applies (needs rule_files)
  std::vector<std::string> only_rules;    // non-empty: the only breakdown rules the expansion may use (a closed set)
  // A searched plan (generator/search/plan.h): a formula equal to the spec (e.g. the ruletree
  // the search found, fully expanded) that replaces the default expansion; its DFTs up to the
  // codelet size are codelets, larger ones are expanded as usual. Null: the default.
  Spl plan;
  int max_vector_width = 0;               // widest vector used (a search parameter); 0: the ISA's widest
  // AVX-512: loop rests as one masked group (vectorize_loops.h). Off by default: slower on a
  // Xeon (0.81-0.93x at DFT(52), 60, 100, 1000; interleaved A/B, medians), 1.05x at 44.
  bool masked_remainders = false;
  int threads = 1;                        // > 1: smp(threads, mu) around the spec (generator/driver/threads.h)
  int smp_packet = 0;                     // mu of that tag (a search parameter); 0: one cache line
  Threading threading = Threading::OpenMP;  // how a threaded kernel runs its workers
  // Streamed loops (the stream(s) tag, docs/streaming.md): chunks in flight, the local memory
  // in bytes they must fit (0: no limit), the engine NAME(y, x) uses.
  int dma_buffers = 2;
  int64_t local_memory = 0;
  DmaEngine dma = DmaEngine::Thread;
  bool stream = false;  // --stream: the spec in stream(s)[...], s the fewest chunks that fit local_memory
  // tiled(k)/cubic(k) specs: where the kernel's data live (lower/layout_passes.h).
  lower::DataLayout layout = lower::DataLayout::Natural;
  // FFTW's advanced interface, in place, split format (io_layout.h): the parsed spec is one
  // transform; start() makes it I(batch) (x) spec and checks the layout.
  IoLayoutOptions io;
  // Distributed kernels (docs/mpi.md): > 1: par(ranks, 1) around the spec; how x and y are
  // spread over the ranks.
  int ranks = 1;
  lower::Distribution distribution = lower::Distribution::Block;
  // 3D: slabs (one dimension split, the par rules) or pencils on a p0 x p1 grid of ranks
  // (lower/pencil_ranks.h); grid {0, 0}: pencil_grid's rule.
  lower::Decomposition decomposition = lower::Decomposition::Slab;
  std::array<int, 2> grid{};
  // GPU targets (docs/cuda.md, "Parameters"): --gpu-knobs, --arch (its shared memory).
  GpuKnobs gpu;
  // > 1: a pencil or 2D/3D slab kernel's exchanges in this many chunks, each overlapping the
  // compute on the chunk before it (docs/mpi.md, "Overlap").
  int overlap = 1;
  // false: no size limit (splgen model: the stages up to merge, no code; driver/scale_model.h)
  bool size_limits = true;
};

// The stages, in order; their --dump-after names are spl, expand, sigma, merge, loops, code.
enum class Stage { Spec, Expand, Sigma, Merge, Loops, Code };
const std::vector<std::string> &pipeline_stages();  // the names, in order
Stage parse_stage(const std::string &name);         // std::invalid_argument for an unknown name

struct Compilation {
  GenOptions options;
  Stage reached = Stage::Spec;
  std::string spec_text;        // as the user wrote it (empty when entered with an object)
  Spl spec;                     // parsed (and inverted if asked)
  rewrite::RuleLibrary library; // the rules in force: --rules files first, then the shipped ones
  std::size_t user_files = 0;   //   how many of its files come from --rules
  expand::Expansion expansion;          // Stage::Expand
  std::vector<std::string> notes;       //   what the expansion decided that a user should know (one thread ...)
  Spl tagged;                   // Stage::Sigma: the formula after the tag rules (smp) or across the batch (lower/vectorise_batch.h), then
  std::vector<std::string> tag_rules;  //   the tag rules applied ("NAME [FILE:LINE]", in order of first use),
  Sigma sigma;                  //   lowered
  Sigma merged;                 // Stage::Merge: after loop merging
  std::optional<lower::RankProgram> distributed;  //   a distributed kernel: each rank's steps, merged
  LoopProgram program;          // Stage::Loops
  std::string source;           // Stage::Code: the backend's text
  std::string header;           //   and a header declaring the kernel (splgen gen --header)
};
using PipelineResult = Compilation;

// Entering. Throws ParseError / FormulaError with a one-line message on bad input; a --rules
// file whose rules do not all hold is a FormulaError naming the rule and a counterexample.
Compilation start(const std::string &spec_text, const GenOptions &options);  // parsed: Stage::Spec
Compilation start(const Spl &spec, const GenOptions &options);               // Stage::Spec
// An expanded formula for the spec (its leaves codelets or DFTs to expand): Stage::Expand.
Compilation start_at_formula(const Spl &spec, const Spl &formula, const GenOptions &options);
// Sigma-SPL (or a loop program) meaning the spec: Stage::Merge (Stage::Loops).
Compilation start_at_sigma(const Spl &spec, const Sigma &sigma, const GenOptions &options);
Compilation start_at_loops(const Spl &spec, const LoopProgram &program, const GenOptions &options);

// Runs the stages after c.reached up to and including `last`.
void run_until(Compilation &c, Stage last);
// start(spec_text, options), then every stage.
Compilation run_pipeline(const std::string &spec_text, const GenOptions &options);

// A stage's text (--dump-after); the stage must have been reached.
std::string dump_stage(const Compilation &c, Stage stage);
std::string dump_stage(const Compilation &c, const std::string &stage);

// The expansion knobs a target gets when GenOptions leaves them 0.
expand::ExpandOptions default_expand_options(Isa isa, Precision precision);
expand::ExpandOptions expand_options(const GenOptions &options);
// The vector widths the vectoriser may use: vector_widths(isa, precision) up to max_vector_width.
std::vector<int> allowed_vector_widths(const GenOptions &options);
// masked_vector_width(isa, precision) with masked_remainders where max_vector_width allows it, else 0.
int allowed_masked_width(const GenOptions &options);

// The rules in force with --rules FILES: the files' rules (proved: a false one is a
// FormulaError), then the shipped ones.
rewrite::RuleLibrary rules_with_files(const std::vector<std::string> &files);

// Proves each rule (prove::check_rule); FormulaError "FILE:LINE: rule NAME does not hold:
// ..." for the first false one. The pipeline proves --rules files before using them.
void prove_rules(const std::vector<const Rule *> &rules);
// Rules read from $SPLGEN_RULES are proved like --rules files (once per process); those
// identical to a built-in rule (same set, name and text) are trusted: the tests prove them.
void prove_environment_rules();

// "splgen_dft1024" / "splgen_idft48_f": a C identifier derived from the spec.
std::string default_kernel_name(const Spl &spec, const GenOptions &options);

}  // namespace splgen::driver
