#include "generator/cli/run_file_command.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include "generator/cli/command_error.h"
#include "generator/cli/command_output.h"
#include "generator/cli/options.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/print.h"
#include "generator/kernel/compile.h"
#include "generator/kernel/spot_check.h"
#include "runtime/dma.h"
#include "runtime/dma_file.h"

namespace splgen::cli {

namespace rt = splgen::runtime;

CLI::App *add_run_file_command(CLI::App &app, RunFileArgs &a) {
  CLI::App *cmd = app.add_subcommand(
      "run-file", "Generate and compile the streamed kernel for SPEC and run it out of core on a file of complex "
                  "numbers; report its time against the transfer bound (docs/streaming.md)");
  cmd->add_option("SPEC", a.spec, "A streamed spec, e.g. \"tiled(256)[DFT(268435456)]\" with --in-place")->required();
  cmd->add_option("--file", a.input, "The input: n complex numbers, interleaved (re, im), of --precision")
      ->required()
      ->type_name("FILE");
  cmd->add_option("-o,--output", a.output, "The output file (may be --file itself); replaced only by a finished run")
      ->required()
      ->type_name("FILE");
  cmd->add_flag("--in-place", a.in_place,
                "The in-place kernel (tiled(k)[DFT(n)]): the data are copied to OUT's temporary and transformed there");
  bool stream = false;
  add_stream_options(cmd, a.buffers, a.local_memory, a.dma, a.layout, stream);
  add_precision_option(cmd, a.precision, "Floating-point type of the data and the kernel (double or float)");
  add_isa_option(cmd, a.isa, "Instruction set of the kernel (this CPU must run it)");
  cmd->add_flag("--inverse", a.inverse, "The inverse (unnormalised) transform");
  cmd->add_option("--check-bins", a.check_bins,
                  "Bins of the output checked against O(n) long double sums over the input before OUT is "
                  "replaced (0: no check; natural layout only)")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  add_compiler_options(cmd, a.compiler, a.flags);
  return cmd;
}

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

driver::GenOptions gen_options(const RunFileArgs &a, Isa isa) {
  driver::GenOptions g;
  g.precision = precision_from_option(a.precision);
  g.isa = isa;
  g.inverse = a.inverse;
  g.dma_buffers = a.buffers;
  g.local_memory = a.local_memory;
  g.dma = *parse_dma_engine(a.dma);  // checked by CLI::IsMember
  g.layout = a.layout == "block"        ? lower::DataLayout::Block
             : a.layout == "to-block"   ? lower::DataLayout::ToBlock
             : a.layout == "from-block" ? lower::DataLayout::FromBlock
                                        : lower::DataLayout::Natural;  // checked by CLI::IsMember
  g.io.in_place = a.in_place;
  return g;
}

std::string mib(double bytes) {
  if (bytes >= double(1 << 30)) return fmt::format("{:.2f} GiB", bytes / double(1 << 30));
  if (bytes >= double(1 << 20)) return fmt::format("{:.1f} MiB", bytes / double(1 << 20));
  return fmt::format("{:.1f} KiB", bytes / 1024);
}

// One sequential pass over `bytes`: read from `from`, write to `to`, 8 MiB at a time through
// the stores (O_DIRECT where aligned), then fsync'd: the transfer bound's unit, measured on
// the file system the kernel uses. Returns the seconds.
double sequential_pass(rt::file_store &from, rt::file_store &to, std::uint64_t bytes) {
  constexpr std::uint64_t kBlock = std::uint64_t(8) << 20;
  void *raw = std::aligned_alloc(rt::file_store::kDirectAlignment, kBlock);
  if (raw == nullptr) throw std::bad_alloc();
  std::unique_ptr<void, decltype(&std::free)> buffer(raw, &std::free);
  const auto start = clock_type::now();
  for (std::uint64_t at = 0; at < bytes; at += kBlock) {
    const std::uint64_t b = std::min(kBlock, bytes - at);
    from.read(raw, at, b);
    to.write(at, raw, b);
  }
  to.sync();
  return seconds_since(start);
}

// The dimensions of the DFT under the spec's tags ({n} or {n1, n2, ...}).
std::vector<int64_t> transform_dims(Spl f) {
  while (f->kind == SplKind::Tagged && !f->children.empty()) f = f->children.front();
  if (f->kind == SplKind::DFTnd) return f->perm;
  return {f->rows};
}

// Checks OUT's temporary at a few bins before it replaces OUT: a wrong result never lands.
std::string check_output(const RunFileArgs &a, const Spl &spec, rt::external_store &in, rt::external_store &out) {
  if (a.check_bins == 0) return "not checked (--check-bins 0)";
  if (a.layout != "natural") return fmt::format("not checked (--layout {}: the bins are in block order)", a.layout);
  const auto start = clock_type::now();
  kernel::SpotCheck s = kernel::spot_check(in, out, transform_dims(spec), a.inverse ? 1 : -1,
                                           precision_from_option(a.precision), a.check_bins);
  std::string line = fmt::format("{} bins against O(n) long double sums: max |y - sum| / ||x|| = {:.2g} (tolerance "
                                 "{:.2g}; {:.1f} s)",
                                 s.bins.size(), s.max_error, s.tolerance, seconds_since(start));
  if (!s.ok) throw CommandError(kExitInternal, fmt::format("the output failed its check, {} was not replaced: {}",
                                                           a.output, line));
  return line;
}

}  // namespace

int run_run_file(const RunFileArgs &a) {
  const Isa isa = runnable_isa(a.isa);
  const driver::GenOptions g = gen_options(a, isa);
  driver::Compilation c = driver::start(a.spec, g);
  const std::int64_t n = c.spec->rows;
  const std::uint64_t element = g.precision == Precision::Float ? 8 : 16, bytes = std::uint64_t(n) * element;
  struct stat st {};
  if (::stat(a.input.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw CommandError(kExitUsage, fmt::format("--file {}: not a readable regular file", a.input));
  if (std::uint64_t(st.st_size) != bytes)
    throw CommandError(kExitUsage, fmt::format("--file {}: holds {} bytes; {} needs {} complex {} = {} bytes", a.input,
                                               st.st_size, print(c.spec), n, a.precision, bytes));
  driver::run_until(c, driver::Stage::Code);
  const std::string name = c.program.name() + "_stores";
  if (c.source.find(name + "(") == std::string::npos)
    throw CommandError(kExitUsage, fmt::format("run-file runs streamed kernels (stream, tiled, cubic tags; "
                                               "docs/streaming.md): {} has no {} entry", print(c.spec), name));
  // The output's temporary first: an unwritable OUT is reported before the compilation.
  std::unique_ptr<rt::file_store> out;
  try {
    out = std::make_unique<rt::file_store>(a.output, rt::file_store::create, bytes);
  } catch (const std::runtime_error &e) {
    throw CommandError(kExitOutput, e.what());
  }
  kernel::TempDir dir("splgen-run-file");
  const auto compiling = clock_type::now();
  std::unique_ptr<kernel::SharedObject> lib;
  try {
    lib = std::make_unique<kernel::SharedObject>(kernel::compile_shared_object(
        {dir.write("kernel.cpp", c.source)}, dir.file("kernel.so"), a.compiler,
        a.flags + " " + kernel::threading_flags(Threading::Team)));  // -pthread and the runtime's headers
  } catch (const kernel::CompileError &e) {
    bool users = !a.compiler.empty() || a.flags != RunFileArgs{}.flags;
    throw CommandError(users ? kExitUsage : kExitInternal,
                       fmt::format("cannot compile the kernel: {}: {}", e.command, e.first_error()));
  }
  const double compiled = seconds_since(compiling);

  rt::file_store in(a.input, rt::file_store::read_only);
  double pass = 0, seconds = 0;
  std::unique_ptr<rt::dma_engine> engine;
  if (g.dma == DmaEngine::Sync) engine = std::make_unique<rt::sync_engine>();
  else engine = std::make_unique<rt::copy_thread_engine>();
  std::uint64_t calls = 0, direct = 0;
  std::string checked;
  try {
    // in place: the copy into OUT's temporary is the measured pass; otherwise a pass of its own
    pass = sequential_pass(in, *out, bytes);
    calls = in.system_calls() + out->system_calls(), direct = in.direct_transfers() + out->direct_transfers();
    auto start = clock_type::now();
    if (a.in_place) {
      lib->symbol<void(rt::external_store &, rt::dma_engine *)>(name)(*out, engine.get());
    } else {
      lib->symbol<void(rt::external_store &, rt::external_store &, rt::dma_engine *)>(name)(*out, in, engine.get());
    }
    out->sync();
    seconds = seconds_since(start);
    checked = check_output(a, c.spec, in, *out);
    out->commit();  // fsync, then the rename: a run that fails before leaves OUT as it was
  } catch (const std::runtime_error &e) {  // one line naming the file; OUT's temporary is removed
    const std::string m = e.what();
    const bool writing = m.find(": write failed") != std::string::npos || m.find(": cannot sync") != std::string::npos ||
                         m.find(": cannot rename") != std::string::npos;
    throw CommandError(writing ? kExitOutput : kExitUsage, m);
  }
  calls = in.system_calls() + out->system_calls() - calls;
  direct = in.direct_transfers() + out->direct_transfers() - direct;
  const rt::transfer_stats &t = engine->stats();
  const double passes = double(t.bytes_in) / double(bytes);
  const double bound = passes * pass;
  std::cout << fmt::format("run-file {}{} on {} ({}, complex {}): L = {} bytes, {} buffers, {} engine; compiled in {:.1f} s\n",
                           print(c.spec), a.in_place ? " --in-place" : "", a.input, mib(double(bytes)), a.precision,
                           a.local_memory, a.buffers, a.dma, compiled);
  std::cout << fmt::format("kernel {:.3f} s (with the final fsync); transfer bound {:.3f} s = {:g} passes x {:.3f} s "
                           "(one sequential read and write of the data, {:.0f} MB/s each way): {:.2f}x the bound\n",
                           seconds, bound, passes, pass, double(bytes) / pass / 1e6, seconds / bound);
  std::cout << fmt::format("moved {} in, {} out: {} blocks got, {} put, smallest {} bytes; {} system calls for the "
                           "transfers, {} O_DIRECT transfers\n",
                           mib(double(t.bytes_in)), mib(double(t.bytes_out)), t.gets, t.puts, t.smallest_block,
                           calls, direct);
  std::cout << fmt::format("check: {}\n", checked);
  std::cout << fmt::format("wrote {}\n", a.output);
  check_stdout();
  return kExitOk;
}

}  // namespace splgen::cli
