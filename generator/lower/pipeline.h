// The whole generator, one stage after another (docs/design.md, "Data flow"):
//   formula --expand--> SPL --lower--> Sigma-SPL --merge_loops--> Sigma-SPL
//           --sigma_to_loops--> loop IR --backend--> source text
#pragma once
#include <string>
#include <vector>

#include "generator/expand/expand.h"
#include "generator/ir/loops.h"
#include "generator/ir/sigma.h"
#include "generator/target/target.h"

namespace splgen {

struct GenOptions {
  std::string name;                       // empty: derived from the spec
  Precision precision = Precision::Double;
  Isa isa = Isa::Scalar;                  // vector instruction set of the emitted code
  int64_t codelet_max = 0;                // tuning knobs of the expansion (ExpandOptions); 0: the
  int64_t top_codelet_max = 0;            //   default for the target (default_expand_options)
  bool inverse = false;                   // spec DFT(n) becomes DFT(n,-1)
  std::vector<std::string> rule_files;    // extra rule files (--rules), tried before the shipped rules
  // A searched plan (generator/search/plan.h): formula text equal to the spec (e.g. the
  // ruletree the search found, fully expanded) that replaces the default expansion; its DFTs
  // up to the codelet size are codelets, larger ones are expanded as usual. Empty: the default.
  std::string plan;
  int max_vector_width = 0;               // widest vector used (a search parameter); 0: the ISA's widest
};

struct PipelineResult {
  std::string spec_text;  // as the user wrote it
  Spl spec;               // parsed (and inverted if asked)
  rules::RuleLibrary library;  // the rules in force: --rules files first, then the shipped ones
  Expansion expansion;
  Sigma sigma;            // lowered
  Sigma merged;           // after loop merging
  Function loops;
  std::string source;     // C++ text
  std::string header;     // a header declaring the kernel (emit_header; splgen gen --header)
};

// Stages that --dump-after accepts, in order.
const std::vector<std::string> &pipeline_stages();  // {"spl", "expand", "sigma", "merge", "loops", "code"}
std::string dump_stage(const PipelineResult &r, const std::string &stage);

// Throws ParseError / FormulaError with a one-line message on bad input.
PipelineResult run_pipeline(const std::string &spec_text, const GenOptions &options);

// The expansion knobs a target gets when GenOptions leaves them 0.
ExpandOptions default_expand_options(Isa isa, Precision precision);
ExpandOptions expand_options(const GenOptions &options);
// The vector widths the vectoriser may use: vector_widths(isa, precision) up to max_vector_width.
std::vector<int> allowed_vector_widths(const GenOptions &options);

// "splgen_dft1024" / "splgen_idft48_f": a C identifier derived from the spec.
std::string default_kernel_name(const Spl &spec, const GenOptions &options);

}  // namespace splgen
