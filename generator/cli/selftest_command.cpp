#include "generator/cli/selftest_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/print.h"
#include "generator/ir/spl.h"
#include "generator/kernel/compile.h"
#include "generator/kernel/selftest.h"
#include "generator/parse/formula_parser.h"

namespace splgen::cli {

namespace {

driver::GenOptions gen_options(const SelftestArgs &a, Isa isa) {
  driver::GenOptions g;
  g.precision = precision_from_option(a.precision);
  g.isa = isa;
  g.inverse = a.inverse;
  g.rule_files = a.rule_files;
  g.target = a.target;
  g.codelet_max = a.codelet_max;
  g.top_codelet_max = a.top_codelet_max;
  g.threads = a.threads;
  g.threading = *parse_threading(a.threading);  // checked by CLI::IsMember
  return g;
}

// The DFT(n, k) the kernel must compute: --against, else the (inverted) spec itself.
Spl expected_dft(const SelftestArgs &a, const Spl &spec) {
  Spl dft = a.against.empty() ? spec : parse::parse_formula(a.against);
  if (dft->kind != SplKind::DFT)
    throw CommandError(kExitUsage, fmt::format("selftest checks a DFT(n) or DFT(n,k): {} is not one{}", print(dft),
                                               a.against.empty() ? " (give --against DFT(n))" : ""));
  if (dft->rows != spec->rows || spec->cols != spec->rows)
    throw CommandError(kExitUsage, fmt::format("--against {} is {} x {}, SPEC {} x {}", print(dft), dft->rows,
                                               dft->cols, spec->rows, spec->cols));
  return dft;
}

std::string read_source(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open() || std::filesystem::is_directory(path))
    throw CommandError(kExitUsage, fmt::format("--source: cannot read '{}'", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

CLI::App *add_selftest_command(CLI::App &app, SelftestArgs &a) {
  CLI::App *cmd = app.add_subcommand(
      "selftest", "Generate, compile and load the kernel for SPEC and check it without FFTW (impulse, linearity, "
                  "time shift; Ergun 1995)");
  cmd->add_option("SPEC", a.spec, "Transform to check, e.g. \"DFT(1024)\" (or a formula, with --against)")->required();
  cmd->add_option("--against", a.against, "The DFT the kernel must compute (default: SPEC itself)")->type_name("DFT");
  cmd->add_option("--source", a.source, "Check the kernel of this C++ file (e.g. from splgen gen) instead of generating it")
      ->type_name("FILE");
  cmd->add_option("--name", a.name, "With --source: the kernel's function (default: gen's name for SPEC)")
      ->type_name("NAME");
  cmd->add_flag("--inverse", a.inverse, "Check the inverse (unnormalised) transform: DFT(n) becomes DFT(n,-1)");
  add_precision_option(cmd, a.precision, "Floating-point type of the kernel (double or float)");
  add_isa_option(cmd, a.isa, "Instruction set of the kernel (this CPU must run it)");
  cmd->add_option("--target", a.target, "Backend that prints the kernel (default cpp)")->type_name("NAME");
  add_codelet_knobs(cmd, a.codelet_max, a.top_codelet_max);
  add_threads_options(cmd, a.threads, a.threading);
  add_rules_option(cmd, a.rule_files);
  add_compiler_options(cmd, a.compiler, a.flags);
  cmd->add_option("--rounds", a.rounds, "Random inputs per check")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--seed", a.seed, "Seed of the random inputs")->capture_default_str();
  cmd->add_option("--tolerance", a.tolerance,
                  "Largest relative RMS error a check accepts (default 100 eps (log2 n + 1))")
      ->check(finite_range(1e-300, 1.0));
  return cmd;
}

namespace {

// The kernel to check: generated for SPEC, or the --source file's.
struct KernelUnderTest {
  std::string source, name;
  bool threaded = false;
};

KernelUnderTest kernel_under_test(const SelftestArgs &a, driver::Compilation &c) {
  if (!a.source.empty()) {
    std::string name = a.name.empty() ? driver::default_kernel_name(c.spec, c.options) : a.name;
    return {read_source(a.source), name, a.threads > 1};
  }
  if (!a.name.empty()) throw CommandError(kExitUsage, "--name needs --source (selftest names a generated kernel itself)");
  driver::run_until(c, driver::Stage::Code);
  return {c.source, c.program.name(), c.program.loops.workers > 1};
}

kernel::SharedObject compile_and_load(const SelftestArgs &a, const KernelUnderTest &k, Threading threading,
                                      const kernel::TempDir &dir) {
  std::string flags = a.flags;
  if (k.threaded) flags += " " + kernel::threading_flags(threading);
  if (k.threaded && threading == Threading::OpenMP) kernel::keep_openmp_loaded();
  try {
    return kernel::SharedObject(
        kernel::compile_shared_object({dir.write("kernel.cpp", k.source)}, dir.file("kernel.so"), a.compiler, flags));
  } catch (const kernel::CompileError &e) {
    // With the user's compiler, flags or file the fault is likely theirs; with ours, a bug in splgen.
    bool users = !a.compiler.empty() || a.flags != SelftestArgs{}.flags || !a.source.empty();
    throw CommandError(users ? kExitUsage : kExitInternal,
                       fmt::format("cannot compile the kernel: {}: {}", e.command, e.first_error()));
  }
}

}  // namespace

int run_selftest(const SelftestArgs &a) {
  const Isa isa = runnable_isa(a.isa);
  const driver::GenOptions g = gen_options(a, isa);
  driver::Compilation c = driver::start(a.spec, g);
  const Spl dft = expected_dft(a, c.spec);
  const KernelUnderTest k = kernel_under_test(a, c);
  kernel::TempDir dir("splgen-selftest");
  kernel::SharedObject lib = compile_and_load(a, k, g.threading, dir);
  void *function = nullptr;
  try {
    function = lib.address(k.name);
  } catch (const std::runtime_error &) {
    throw CommandError(kExitUsage, fmt::format("--source {}: no function '{}' (give --name)", a.source, k.name));
  }
  const int64_t n = dft->a;
  kernel::SelftestOptions o{a.rounds, a.seed, a.tolerance};
  std::vector<kernel::SelftestCheck> checks =
      kernel::selftest_dft(kernel::kernel_applier(function, n, g.precision), n, dft->b, g.precision, o);

  std::cout << fmt::format("selftest {} as {} ({}, {}): {} rounds, seed {}\n", print(c.spec), print(dft),
                           isa_name(isa), a.precision, a.rounds, a.seed);
  bool ok = true;
  for (const kernel::SelftestCheck &check : checks) {
    std::cout << fmt::format("{}: {}: max error {:.1e} (tolerance {:.1e})\n", check.ok ? "OK" : "FAIL", check.name,
                             check.max_error, check.tolerance);
    ok &= check.ok;
  }
  check_stdout();
  return ok ? kExitOk : kExitVerifyFailed;
}

}  // namespace splgen::cli
