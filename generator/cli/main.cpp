// The splgen command (docs/cli.md):
//   splgen gen    SPEC [-o FILE] [--header FILE] [--name NAME] [--precision double|float] [--inverse] [--dump-after=STAGE,...|all]
//   splgen expand SPEC [--inverse]
//   splgen lower  SPEC [--dump-after=STAGE,...|all] [--precision double|float] [--inverse] [--name NAME]
//   splgen verify FORMULA [--against SPEC]
//   splgen rules check [PATH...] [--max-size N] | splgen rules list [PATH...] [--functions]
//   splgen rules stats FILE... --sizes LIST (generator/cli/rules_stats_command.h)
//   splgen rewrite FORMULA [--rules FILE]
//   splgen bench  [SPEC] [--sizes LIST] [--isa ISA] ... (generator/cli/bench_command.h)
//   splgen search SPEC [--isa ISA] [--strategy S] [--budget T] [--wisdom FILE] ... (generator/cli/search_command.h)
//   splgen wisdom show FILE | merge FILE OTHER... (generator/cli/wisdom_command.h)
//   splgen selftest SPEC [--against DFT] ... (generator/cli/selftest_command.h)
//   splgen --version
// gen, expand, lower and rewrite take --rules FILE (repeatable): extra rules tried first;
// gen, expand and lower also --prefer-rules and --only-rules NAMES (rule selection).
// gen, expand, lower (and bench) take --wisdom FILE: the plan `splgen search` stored there.
//
// Exit codes: 0 success, 1 verify found a mismatch, 2 usage or input error (bad command line,
// malformed or ill-formed formula), 3 output could not be written, 4 internal error.
// Every error is exactly one line on stderr: "splgen: error: <message>".
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/cli/rules_commands.h"
#include "generator/cli/rules_stats_command.h"
#include "generator/cli/model_command.h"
#include "generator/cli/run_file_command.h"
#include "generator/cli/selftest_command.h"
#if SPLGEN_WITH_MEASURE  // a build without FFTW3 has no measuring layers (CMakeLists.txt)
#include "generator/cli/bench_command.h"
#include "generator/cli/search_command.h"
#include "generator/cli/wisdom_command.h"
#include "generator/cli/wisdom_plan.h"
#endif
#include "generator/expand/expand.h"
#include "generator/expand/ruletree.h"
#include "generator/ir/apply.h"
#include "generator/ir/dense.h"
#include "generator/ir/loops.h"
#include "generator/ir/print.h"
#include "generator/ir/sigma.h"
#include "generator/ir/spl.h"
#include "generator/driver/pipeline.h"
#include "generator/parse/formula_parser.h"
#include "generator/parse/rule_parser.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen::cli {
namespace {

// Largest max-abs entry difference `verify` accepts between two dense matrices.
constexpr double kVerifyTolerance = 1e-9;

// Messages are printed on one line, whatever a library put into them.
std::string one_line(std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == ' '))
    message.pop_back();
  std::string out;
  out.reserve(message.size());
  for (char c : message) {
    if (c == '\n')
      out += "; ";
    else if (c != '\r')
      out += c;
  }
  return out.empty() ? std::string("unknown error") : out;
}

int report_error(const std::string &message, int code) {
  std::cout.flush();
  std::cerr << "splgen: error: " << one_line(message) << std::endl;
  return code;
}

bool is_c_identifier(const std::string &s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !digit(c)) return false;
  return true;
}

// ---- options shared by subcommands ------------------------------------------------------

struct Options {
  std::string spec;
  std::string output;       // gen -o
  std::string header;       // gen --header
  std::string name;         // gen/lower --name
  std::string precision = "double";
  std::string isa = "scalar";
  std::string target = "cpp";
  int64_t codelet_max = 0, top_codelet_max = 0;  // expansion knobs
  bool masked_remainders = false;
  bool inverse = false;
  std::vector<std::string> dump_after;  // stage names or "all"
  std::string against;      // verify --against
  std::vector<std::string> rule_files;  // --rules
  bool prefer_rules = false;            // --prefer-rules
  std::vector<std::string> only_rules;  // --only-rules NAMES
  std::vector<std::string> rule_paths;  // rules check / list
  int64_t max_size = 512;               // rules check --max-size
  bool functions = false;               // rules list --functions
  std::string wisdom;                   // gen/expand/lower --wisdom FILE
  int threads = 1;                      // --threads P
  std::string threading = "openmp";     // --threading openmp|team
  int buffers = 2;                      // --buffers (streamed loops)
  int64_t local_memory = 0;             // --local-memory BYTES
  std::string dma = "thread";           // --dma thread|sync
  std::string layout = "natural";       // --layout natural|block|to-block|from-block
  bool stream = false;                  // --stream
  driver::IoLayoutOptions io;           // --batch, strides, --in-place
  std::string format = "interleaved";   // --format
  int ranks = 1;                        // --ranks P (--target mpi)
  std::string distribution = "block";   // --distribution block|cyclic
  std::string decomposition = "slab";   // --decomposition slab|pencil
  std::string grid;                     // --grid P0xP1
  int overlap = 1;                      // --overlap K
  std::string arch;                     // --arch sm_XX (--target cuda)
  std::string gpu_knobs;                // --gpu-knobs K=V,...
};

driver::GenOptions gen_options(const Options &o) {
  driver::GenOptions g;
  g.name = o.name;
  g.precision = precision_from_option(o.precision);
  g.inverse = o.inverse;
  g.isa = *parse_isa(o.isa);  // checked by CLI::IsMember
  g.codelet_max = o.codelet_max;
  g.top_codelet_max = o.top_codelet_max;
  g.masked_remainders = o.masked_remainders;
  g.rule_files = o.rule_files;
  g.prefer_rules = o.prefer_rules;
  g.only_rules = o.only_rules;
  g.target = o.target;
  g.threads = o.threads;
  g.threading = *parse_threading(o.threading);  // checked by CLI::IsMember
  g.dma_buffers = o.buffers;
  g.local_memory = o.local_memory;
  g.dma = *parse_dma_engine(o.dma);  // checked by CLI::IsMember
  g.stream = o.stream;
  g.ranks = o.ranks;
  g.distribution = o.distribution == "cyclic" ? lower::Distribution::Cyclic : lower::Distribution::Block;  // IsMember
  g.decomposition = o.decomposition == "pencil" ? lower::Decomposition::Pencil : lower::Decomposition::Slab;  // IsMember
  g.grid = parse_grid(o.grid);
  g.overlap = o.overlap;
  if (g.grid[0] > 0 && g.ranks <= 1) g.ranks = g.grid[0] * g.grid[1];  // --grid alone says the ranks
  g.layout = o.layout == "block"        ? lower::DataLayout::Block
             : o.layout == "to-block"   ? lower::DataLayout::ToBlock
             : o.layout == "from-block" ? lower::DataLayout::FromBlock
                                        : lower::DataLayout::Natural;  // checked by CLI::IsMember
  g.io = with_format(o.io, o.format);
  g.gpu = gpu_knobs_from(o.arch, o.gpu_knobs);
  if (o.wisdom.empty()) return g;
  driver::IoLayoutOptions one = g.io;
  if (g.target == "cuda") one.batch = 1;  // a GPU kernel's entry is for its batch
  if (!one.plain())
    throw CommandError(kExitUsage, "--wisdom with --batch, strides, --in-place or --format split is not built yet: "
                                   "the stored plans are of one contiguous transform (--target cuda: of a batch)");
  if (o.prefer_rules || !o.only_rules.empty())
    throw CommandError(kExitUsage, fmt::format("--wisdom and {}: a stored plan replaces the expansion that rule "
                                               "selection steers; give one of them",
                                               o.prefer_rules ? "--prefer-rules" : "--only-rules"));
#if SPLGEN_WITH_MEASURE
  return with_wisdom_plan(o.wisdom, o.spec, g, /*compiler=*/"", FallbackNote::Line);
#else
  throw CommandError(kExitUsage, "--wisdom: this splgen was built without FFTW3, so without wisdom files");
#endif
}

void add_wisdom(CLI::App *cmd, Options &o) {
  cmd->add_option("--wisdom", o.wisdom, "Use the plan `splgen search` stored for SPEC in FILE (else the default)")
      ->type_name("FILE");
}

std::vector<std::string> stage_choices() {
  std::vector<std::string> choices = driver::pipeline_stages();
  choices.push_back("all");
  return choices;
}

// Expands "all" and removes duplicates, keeping pipeline order.
std::vector<std::string> resolve_stages(const std::vector<std::string> &requested) {
  const std::vector<std::string> &stages = driver::pipeline_stages();
  std::vector<std::string> out;
  for (const std::string &stage : stages) {
    for (const std::string &r : requested) {
      if (r == "all" || r == stage) {
        out.push_back(stage);
        break;
      }
    }
  }
  return out;
}

std::string stage_dump(const driver::PipelineResult &r, const std::string &stage) {
  std::string text = fmt::format("== {} ==\n", stage);
  std::string body = driver::dump_stage(r, stage);
  if (!body.empty() && body.back() != '\n') body += '\n';
  return text + body;
}

void add_spec(CLI::App *cmd, Options &o, const char *what) {
  cmd->add_option("SPEC", o.spec, what)->required();
}

// The options gen, expand and lower share, besides --name, --dump-after and --inverse.
void add_target_options(CLI::App *cmd, Options &o) {
  add_precision_option(cmd, o.precision, "Floating-point type of the kernel (double or float)");
  add_isa_option(cmd, o.isa,
                      "Instruction set of the emitted code: scalar (portable C++), sse2, avx2 (with FMA), avx512 "
                      "(AVX-512F), or native (the best this CPU runs)");
  add_codelet_knobs(cmd, o.codelet_max, o.top_codelet_max);
  add_masked_remainders_flag(cmd, o.masked_remainders);
  cmd->add_option("--target", o.target, "Backend that prints the kernel (default cpp; docs/cli.md)")->type_name("NAME");
  add_threads_options(cmd, o.threads, o.threading);
  add_stream_options(cmd, o.buffers, o.local_memory, o.dma, o.layout, o.stream);
  add_io_layout_options(cmd, o.io, o.format);
  add_ranks_options(cmd, o.ranks, o.distribution);
  add_decomposition_options(cmd, o.decomposition, o.grid, o.overlap);
  add_arch_option(cmd, o.arch, "--target cuda: the GPU it is for (sm_80, sm_90 ...): the shared memory a block may ask for");
  add_gpu_knobs_option(cmd, o.gpu_knobs);
}

void add_inverse(CLI::App *cmd, Options &o) {
  cmd->add_flag("--inverse", o.inverse, "Generate the inverse (unnormalised) transform: DFT(n) becomes DFT(n,-1)");
}

void add_name(CLI::App *cmd, Options &o) {
  cmd->add_option("--name", o.name, "Name of the generated C function (default derived from SPEC, e.g. splgen_dft1024)")
      ->check(CLI::Validator(
          [](std::string &value) -> std::string {
            return is_c_identifier(value) ? std::string() : "'" + value + "' is not a C identifier";
          },
          "IDENTIFIER"));
}

void add_dump_after(CLI::App *cmd, Options &o, const std::string &help) {
  cmd->add_option("--dump-after", o.dump_after, help)
      ->delimiter(',')
      ->check(CLI::IsMember(stage_choices()))
      ->type_name("STAGE");
}

// ---- subcommands --------------------------------------------------------------------------

int run_gen(const Options &o) {
  check_distinct_outputs({{"-o", o.output}, {"--header", o.header}});
  driver::PipelineResult r = driver::run_pipeline(o.spec, gen_options(o));
  std::vector<std::string> stages = resolve_stages(o.dump_after);
  // Dumps go to stderr when the source goes to stdout, and to stdout when it goes to a file.
  const bool to_stdout = o.output.empty() || o.output == "-";
  std::ostream &dump_out = to_stdout ? std::cerr : std::cout;
  for (const std::string &stage : stages) dump_out << stage_dump(r, stage);
  dump_out.flush();
  // The source and the header are committed together, after both were written.
  std::vector<std::pair<std::string, std::string>> files;
  if (to_stdout) std::cout << r.source;
  else files.emplace_back(o.output, r.source);
  if (!o.header.empty()) files.emplace_back(o.header, r.header);
  write_files(files);
  check_stdout();
  return kExitOk;
}

int run_expand(const Options &o) {
  driver::Compilation r = driver::start(o.spec, gen_options(o));
  driver::run_until(r, driver::Stage::Expand);
  for (const std::string &note : r.notes) std::cout << "note: " << note << '\n';
  for (const expand::RuletreePtr &tree : r.expansion.trees) {
    std::string text = print(tree);
    if (!text.empty() && text.back() != '\n') text += '\n';
    std::cout << text;
  }
  std::cout << print(r.expansion.formula) << '\n';
  check_stdout();
  return kExitOk;
}

int run_lower(const Options &o) {
  driver::Compilation r = driver::start(o.spec, gen_options(o));
  std::vector<std::string> stages = o.dump_after.empty()
                                        ? std::vector<std::string>{"spl", "expand", "sigma", "merge", "loops"}
                                        : resolve_stages(o.dump_after);
  for (const std::string &stage : stages) driver::run_until(r, driver::parse_stage(stage));  // as far as asked
  for (const std::string &stage : stages) std::cout << stage_dump(r, stage);
  check_stdout();
  return kExitOk;
}

// One verify line; returns whether it passed.
bool verify_line(const std::string &lhs, const std::string &rhs, const Matrix &x, const Matrix &y) {
  if (x.rows != y.rows || x.cols != y.cols) {
    std::cout << fmt::format("FAIL: {} != {} (sizes differ: {} x {} vs {} x {})\n", lhs, rhs, x.rows, x.cols,
                             y.rows, y.cols);
    return false;
  }
  double err = max_abs_difference(x, y);
  bool ok = std::isfinite(err) && err <= kVerifyTolerance;
  std::cout << fmt::format("{}: {} {} {} (max abs error {:.1e})\n", ok ? "OK" : "FAIL", lhs, ok ? "==" : "!=", rhs,
                           err);
  return ok;
}

// verify --ranks P: the distributed kernel of SPEC (--target mpi), each rank's steps after the
// merge simulated on one process, and the ranks' loop programs, against SPEC's dense matrix
// (docs/mpi.md, "How it is made").
int run_verify_ranks(const Options &o) {
  driver::GenOptions g = gen_options(o);
  g.target = "mpi";
  driver::Compilation r;
  try {
    r = driver::start(o.spec, g);
    driver::run_until(r, driver::Stage::Loops);
  } catch (const FormulaError &e) {
    std::cout << fmt::format("FAIL: {} on {} ranks cannot be distributed ({})\n", o.spec, o.ranks, one_line(e.what()));
    check_stdout();
    return kExitVerifyFailed;
  }
  const std::string spec = print(r.spec);
  check_dense_size(r.spec->rows, r.spec->cols);
  const Matrix dense = to_dense(o.against.empty() ? r.spec : parse::parse_formula(o.against));
  const lower::RankProgram &p = *r.distributed;
  const Matrix steps = probe_matrix(p.points, p.points, [&](const std::vector<cplx> &x) { return lower::simulate_ranks(p, x); });
  bool ok = verify_line(fmt::format("ranks' steps (merged, {} ranks simulated)", p.ranks), spec, steps, dense);
  ok &= verify_line(fmt::format("loop IR ({} ranks)", p.ranks), spec, to_dense(r.program), dense);
  check_stdout();
  return ok ? kExitOk : kExitVerifyFailed;
}

int run_verify(const Options &o) {
  if (o.ranks > 1) return run_verify_ranks(o);
  Spl formula = parse::parse_formula(o.spec);
  std::string formula_text = print(formula);
  // A real transform alone is checked against its definition computed another way: through
  // one complex DFT of an embedding of its input (generator/ir/apply.h; docs/transforms.md).
  const bool real_spec = o.against.empty() && formula->kind == SplKind::RealTransform;
  if (formula->rows != formula->cols && !real_spec && o.against.empty()) {
    std::cout << fmt::format("FAIL: {} is {} x {}, not square: it cannot be a transform\n", formula_text,
                             formula->rows, formula->cols);
    check_stdout();
    return kExitVerifyFailed;
  }
  Spl against = real_spec ? formula : o.against.empty() ? make_dft(formula->rows) : parse::parse_formula(o.against);
  std::string against_text = real_spec ? "its definition via DFT(n)" : print(against);
  if (against->rows != formula->rows || against->cols != formula->cols) {
    std::cout << fmt::format("FAIL: {} != {} (sizes differ: {} x {} vs {} x {})\n", formula_text, against_text,
                             formula->rows, formula->cols, against->rows, against->cols);
    check_stdout();
    return kExitVerifyFailed;
  }
  check_dense_size(formula->rows, formula->cols);

  bool ok = true;
  Matrix dense = to_dense(formula);
  Matrix reference = real_spec ? apply_dense(formula) : to_dense(against);
  ok &= verify_line(formula_text, against_text, dense, reference);

  // The lowering of the formula must mean the same: Sigma-SPL after loop merging, and the loop IR.
  driver::Compilation r;
  try {
    r = driver::start(o.spec, driver::GenOptions{});
    driver::run_until(r, driver::Stage::Loops);
  } catch (const FormulaError &e) {
    std::cout << fmt::format("FAIL: {} cannot be lowered ({})\n", formula_text, one_line(e.what()));
    check_stdout();
    return kExitVerifyFailed;
  }
  ok &= verify_line("Sigma-SPL (merged)", formula_text, to_dense(r.merged), dense);

  Matrix loops = to_dense(r.program);
  ok &= verify_line("loop IR", formula_text, loops, dense);
  check_stdout();
  return ok ? kExitOk : kExitVerifyFailed;
}

// ---- command line -------------------------------------------------------------------------

int run(int argc, char **argv) {
  CLI::App app{"splgen: an FFT program generator in the style of SPIRAL (see docs/cli.md)", "splgen"};
  app.set_version_flag("--version", std::string("splgen ") + SPLGEN_VERSION);
  app.require_subcommand(0, 1);

  Options o;
  const std::string stages_help =
      "Print the named stage(s) (spl, expand::expand, sigma, merge, loops, code; comma-separated) or all of them";

  CLI::App *gen = app.add_subcommand("gen", "Generate C++ source for SPEC");
  add_spec(gen, o, "Transform to generate, e.g. \"DFT(1024)\"");
  gen->add_option("-o,--output", o.output, "Write the source to FILE (default: standard output)")
      ->type_name("FILE");
  gen->add_option("--header", o.header, "Also write a header declaring the kernel (C and C++) to FILE")
      ->type_name("FILE");
  add_name(gen, o);
  add_target_options(gen, o);
  add_inverse(gen, o);
  add_dump_after(gen, o, stages_help + " (to stderr, or to stdout when -o is given)");
  add_rules_option(gen, o.rule_files);
  add_rule_selection_options(gen, o.prefer_rules, o.only_rules);
  add_wisdom(gen, o);

  CLI::App *exp = app.add_subcommand("expand", "Print the ruletree(s) and the fully expanded SPL formula of SPEC");
  add_spec(exp, o, "Transform or formula to expand::expand, e.g. \"DFT(1024)\"");
  add_inverse(exp, o);
  add_target_options(exp, o);
  add_rules_option(exp, o.rule_files);
  add_rule_selection_options(exp, o.prefer_rules, o.only_rules);
  add_wisdom(exp, o);

  CLI::App *low = app.add_subcommand("lower", "Print the stages of the pipeline for SPEC");
  add_spec(low, o, "Transform or formula to lower, e.g. \"DFT(16)\"");
  add_dump_after(low, o, stages_help + " (default: spl,expand::expand,sigma,merge,loops)");
  add_target_options(low, o);
  add_inverse(low, o);
  add_name(low, o);
  add_rules_option(low, o.rule_files);
  add_rule_selection_options(low, o.prefer_rules, o.only_rules);
  add_wisdom(low, o);

  CLI::App *ver = app.add_subcommand(
      "verify", "Check numerically that FORMULA equals DFT(n) (or --against), and that its lowering means the same");
  add_spec(ver, o, "SPL formula, e.g. \"(DFT(4) (x) I(4)) * T(16,4) * (I(4) (x) DFT(4)) * L(16,4)\"");
  ver->add_option("--against", o.against, "Formula to compare with (default: DFT(n), n the size of FORMULA)")
      ->type_name("SPEC");
  add_ranks_options(ver, o.ranks, o.distribution);  // the distributed kernel's steps against SPEC (docs/mpi.md)
  add_decomposition_options(ver, o.decomposition, o.grid, o.overlap);

  CLI::App *rules = app.add_subcommand("rules", "Check or list rules (docs/rule-language.md)");
  rules->require_subcommand(1);
  CLI::App *check = rules->add_subcommand("check", "Prove every rule of the files or directories numerically");
  check->add_option("paths", o.rule_paths, "Rule files or directories (default: the shipped rules)");
  check->add_option("--max-size", o.max_size, "Largest left-side size instantiated")->check(CLI::Range(1, 4096));
  CLI::App *list = rules->add_subcommand("list", "Name, family, file:line and formula of every rule");
  list->add_option("paths", o.rule_paths, "Rule files or directories (default: the shipped rules)");
  list->add_flag("--functions", o.functions, "List the C++ functions rules can call (@name) instead");
  RulesStatsArgs stats_args;
  CLI::App *stats = add_rules_stats_command(rules, stats_args);

  CLI::App *rew = app.add_subcommand("rewrite", "Apply the tag rules to FORMULA; print the SPL and Sigma-SPL results");
  add_spec(rew, o, "SPL formula with tags, e.g. \"stream(4)[ DFT(8) (x) I(16) ]\"");
  add_rules_option(rew, o.rule_files);

  SelftestArgs selftest_args;
  CLI::App *selftest = add_selftest_command(app, selftest_args);
  ModelArgs model_args;
  CLI::App *model = add_model_command(app, model_args);
  RunFileArgs run_file_args;
  CLI::App *run_file = add_run_file_command(app, run_file_args);

#if SPLGEN_WITH_MEASURE
  BenchArgs bench_args;
  CLI::App *bench = add_bench_command(app, bench_args);
  SearchArgs search_args;
  CLI::App *search = add_search_command(app, search_args);
  WisdomArgs wisdom_args;
  CLI::App *wisdom = add_wisdom_command(app, wisdom_args);
#else
  for (const char *name : {"bench", "search", "wisdom"})
    app.add_subcommand(name, "(not in this build: it was built without FFTW3)")->allow_extras();
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return report_error(std::string(e.what()) + " (see 'splgen --help')", kExitUsage);
  }

  if (gen->parsed()) return run_gen(o);
  if (exp->parsed()) return run_expand(o);
  if (low->parsed()) return run_lower(o);
  if (ver->parsed()) return run_verify(o);
  if (check->parsed()) return rules_check(o.rule_paths, o.max_size);
  if (list->parsed()) return rules_list(o.rule_paths, o.functions);
  if (stats->parsed()) return run_rules_stats(stats_args);
  if (rew->parsed()) return rewrite(o.spec, o.rule_files);
  if (selftest->parsed()) return run_selftest(selftest_args);
  if (model->parsed()) return run_model(model_args);
  if (run_file->parsed()) return run_run_file(run_file_args);
#if SPLGEN_WITH_MEASURE
  if (bench->parsed()) return run_bench(bench_args);
  if (search->parsed()) return run_search(search_args);
  if (wisdom->parsed()) return run_wisdom(wisdom_args);
#else
  for (CLI::App *sub : app.get_subcommands())
    return report_error(fmt::format("{}: this splgen was built without FFTW3 (install libfftw3-dev and reconfigure)",
                                    sub->get_name()),
                        kExitUsage);
#endif
  return report_error("a subcommand is required: gen, expand, lower, verify, rules, rewrite, selftest, model, run-file, bench, search or wisdom "
                      "(see 'splgen --help')",
                      kExitUsage);
}

}  // namespace
}  // namespace splgen::cli

namespace {

// run() with every exception turned into its one-line error and exit code.
int run_reporting_errors(int argc, char **argv) {
  using namespace splgen;
  using namespace splgen::cli;
  try {
    return run(argc, argv);
  } catch (const parse::ParseError &e) {
    return report_error(e.what(), kExitUsage);
  } catch (const FormulaError &e) {
    return report_error(e.what(), kExitUsage);
  } catch (const parse::RuleSyntaxError &e) {
    return report_error(e.what(), kExitUsage);
  } catch (const CommandError &e) {
    return report_error(e.what(), e.exit_code);
  } catch (const std::bad_alloc &) {
    return report_error("out of memory", kExitInternal);
  } catch (const std::exception &e) {
    return report_error(std::string("internal error: ") + e.what(), kExitInternal);
  } catch (...) {
    return report_error("internal error: unknown exception", kExitInternal);
  }
}

}  // namespace

int main(int argc, char **argv) {
  using namespace splgen::cli;
  int code = run_reporting_errors(argc, argv);
  // Whatever a subcommand (or --help, --version) printed must have arrived: a full disk or a
  // closed pipe is an error, unless one was reported already.
  if (code == kExitOk || code == kExitVerifyFailed) {
    try {
      check_stdout();
    } catch (const CommandError &e) {
      code = report_error(e.what(), e.exit_code);
    }
  }
  return code;
}
