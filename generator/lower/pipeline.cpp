#include "generator/lower/pipeline.h"

#include <fmt/format.h>

#include <stdexcept>

#include "backends/cpp/complex_codelet.h"
#include "backends/cpp/cpp_backend.h"
#include "generator/ir/print.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/prepare_for_printing.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/schedule_registers.h"
#include "generator/lower/vectorize_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/parse/formula_parser.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen {

const std::vector<std::string> &pipeline_stages() {
  static const std::vector<std::string> stages = {"spl", "expand", "sigma", "merge", "loops", "code"};
  return stages;
}

std::string default_kernel_name(const Spl &spec, const GenOptions &options) {
  std::string suffix = options.precision == Precision::Float ? "f" : "";
  if (spec->kind == SplKind::DFT) {
    if (spec->b == 1 || spec->a <= 2) return fmt::format("splgen_dft{}{}", spec->a, suffix);
    if (spec->b == spec->a - 1) return fmt::format("splgen_idft{}{}", spec->a, suffix);
    return fmt::format("splgen_dft{}_k{}{}", spec->a, spec->b, suffix);
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

ExpandOptions default_expand_options(Isa isa, Precision precision) {
  ExpandOptions o;
  std::vector<int> widths = vector_widths(isa, precision);
  if (!widths.empty()) {
    // A spec up to 32 points is one codelet with one vector per complex value, except 16, 24
    // and 32, whose vector loops (4 or 8 lanes over the children of a split) are faster.
    // Measured on Zen 3, AVX2 against the split: 13 2.3x, 15 2x, 20 1.1-1.15x, 10 2.2x, 12 1.6x
    // (double; against the scalar codelet the old default used up to 12 points); 16 0.75-0.9x,
    // 32 0.6-0.75x, 24 0.85-1.0x.
    o.top_codelet_max = ExpansionKnobs::kCodeletMax;
    o.top_split_multiple = ExpansionKnobs::kVectorSpecSplitMultiple;
    o.codelet_max = ExpansionKnobs::kCodeletMax;
    o.vector_target = true;
  }
  return o;
}

ExpandOptions expand_options(const GenOptions &options) {
  ExpandOptions o = default_expand_options(options.isa, options.precision);
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

namespace {

// A plan replaces the default expansion: its DFT leaves are codelets where they can be, larger
// DFTs are expanded with the default choices. It must be a formula of the spec's shape.
Expansion expand_plan(const Spl &spec, const std::string &plan_text, const std::vector<const rules::Rule *> &rules,
                      const GenOptions &options) {
  Spl plan = parse_formula(plan_text);
  if (plan->rows != spec->rows || plan->cols != spec->cols)
    throw FormulaError(fmt::format("the plan is {} x {}, the spec {} x {}: {}", plan->rows, plan->cols, spec->rows,
                                   spec->cols, plan_text));
  ExpandOptions o = default_expand_options(options.isa, options.precision);
  o.codelet_max = o.top_codelet_max = ExpansionKnobs::kCodeletMax;
  o.top_split_multiple = 0;  // the plan says where its codelets are
  return expand(plan, rules, o);
}

}  // namespace

PipelineResult run_pipeline(const std::string &spec_text, const GenOptions &options) {
  PipelineResult r;
  r.spec_text = spec_text;
  r.spec = parse_formula(spec_text);
  if (options.inverse) {
    if (r.spec->kind != SplKind::DFT) throw FormulaError("--inverse needs a DFT(n) or DFT(n,k) spec");
    r.spec = make_dft(r.spec->a, -r.spec->b);
  }
  if (options.rule_files.empty()) {
    if (!options.plan.empty())
      r.expansion = expand_plan(r.spec, options.plan, breakdown_rules(shipped_rules()), options);
    else
      r.expansion = expand(r.spec, expand_options(options));
  } else {
    for (const std::string &file : options.rule_files) r.library.load(file);
    // A user's rules are proved before they are used: a false rule would generate wrong code.
    for (const rules::Rule *rule : r.library.all()) {
      rules::CheckResult check = rules::check_rule(*rule);
      if (!check.ok)
        throw FormulaError(fmt::format("{}:{}: rule {} does not hold: {}", rule->pos.file, rule->pos.line, rule->name,
                                       check.error.empty() ? "counterexample " + check.counterexample : check.error));
    }
    for (const rules::RuleFile &f : shipped_rules().files()) r.library.add_file(f);
    if (!options.plan.empty())
      r.expansion = expand_plan(r.spec, options.plan, breakdown_rules(r.library), options);
    else
      r.expansion = expand(r.spec, breakdown_rules(r.library), expand_options(options));
  }
  const rules::RuleLibrary &library = options.rule_files.empty() ? shipped_rules() : r.library;
  std::vector<const rules::Rule *> lowering;  // rules with Sigma-SPL right sides for tagged formulas
  for (const rules::Rule *rule : library.all())
    if (rules::is_sigma_term(rule->rhs) && rule->lhs.kind == rules::TermKind::Tagged) lowering.push_back(rule);
  r.sigma = rules::lower_with_rules(r.expansion.formula, lowering);
  r.merged = merge_loops(r.sigma);
  std::string name = options.name.empty() ? default_kernel_name(r.spec, options) : options.name;
  r.loops = schedule_for_registers(
      vectorize_loops(sigma_to_loops(r.merged, name), allowed_vector_widths(options)));

  CppEmitOptions emit;
  emit.precision = options.precision;
  emit.isa = options.isa;
  emit.header_lines.push_back(fmt::format("generated by splgen {} -- do not edit", SPLGEN_VERSION));
  emit.header_lines.push_back(fmt::format("spec: {} ({}, {}, {})", print(r.spec),
                                          options.precision == Precision::Float ? "float" : "double",
                                          isa_name(options.isa), "interleaved complex, out-of-place"));
  add_wrapped(emit.header_lines, "formula: ", print(r.expansion.formula));
  const Spl &f = r.expansion.formula;
  if (!vector_widths(options.isa, options.precision).empty() && f->kind == SplKind::DFT && is_codelet_size(f->a))
    r.source = emit_complex_codelet(f->a, f->b, r.loops.name, emit);  // a lone codelet: one vector per complex
  else
    r.source = emit_cpp(prepare_for_printing(r.loops), emit);
  r.header = emit_header(r.loops.name, emit);
  return r;
}

std::string dump_stage(const PipelineResult &r, const std::string &stage) {
  if (stage == "spl") return print(r.spec) + "\n";
  if (stage == "expand") {
    std::string out;
    for (const RuletreePtr &t : r.expansion.trees) out += print(t);
    return out + print(r.expansion.formula) + "\n";
  }
  if (stage == "sigma") return print(r.sigma);
  if (stage == "merge") return print(r.merged);
  if (stage == "loops") return to_string(r.loops);
  if (stage == "code") return r.source;
  throw std::invalid_argument("unknown stage '" + stage + "' (one of spl, expand, sigma, merge, loops, code, all)");
}

}  // namespace splgen
