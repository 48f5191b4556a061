#include "generator/measure/cuda_bench.h"

#include <fmt/format.h>

#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <thread>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "generator/driver/io_layout.h"
#include "generator/driver/pipeline.h"
#include "generator/driver/size_limits.h"
#include "generator/ir/print.h"
#include "generator/measure/compile.h"

namespace splgen::measure {

namespace {

constexpr const char *kKernelName = "splgen_bench_kernel";
constexpr const char *kDefaultNvcc = "/usr/local/cuda/bin/nvcc";
constexpr const char *kVkfftHeader = "/usr/include/vkFFT.h";

// Whether the driver's libcuda loads here: a program linked with it (VkFFT calls the driver
// API) would not even start without, and could not say that there is no GPU.
bool have_cuda_driver() {
  void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib) dlclose(lib);
  return lib != nullptr;
}

std::vector<int64_t> dims_of(const Spl &one) {
  if (one->kind == SplKind::DFT) return {one->a};
  if (one->kind == SplKind::DFTnd && one->perm.size() <= 3) return one->perm;  // cuFFT's ranks
  throw FormulaError("bench --target cuda: times DFT(n), DFT(n1 x n2) and DFT(n1 x n2 x n3) specs (cuFFT's); not " + print(one));
}

int cufft_sign(const Spl &one) {
  if (one->b == 1) return -1;
  if (one->b == one->rows - 1) return 1;
  throw FormulaError("bench --target cuda: cuFFT has forward and inverse transforms only; not " + print(one));
}

// A file of --keep DIR (or of the temporary directory); the scripts executable.
void write_text(const std::filesystem::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw CudaKeepError("bench --target cuda: cannot write " + path.string());
  if (path.extension() == ".sh")
    std::filesystem::permissions(path, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                           std::filesystem::perms::others_exec, std::filesystem::perm_options::add);
}

// What one spec's program is built from, and how nvcc is called on it.
struct Prepared {
  std::string spec;
  std::string variant;  // its label, with variants
  int64_t points = 0, batch = 1;
  std::string defines;  // -DKERNEL=... -DRANK=... -DN1=... for kernel.cu and bench.cu
};

Prepared generate(const std::string &spec_text, const CudaVariant &v, const CudaBenchOptions &o, const std::filesystem::path &dir) {
  driver::GenOptions g;
  g.target = "cuda", g.precision = o.precision, g.inverse = o.inverse, g.name = kKernelName;
  g.codelet_max = v.codelet_max, g.gpu = v.knobs;
  Prepared p{spec_text, o.variants.empty() ? "" : v.label(), driver::start(spec_text, g).spec->rows, o.batch, ""};
  if (p.batch == 0) p.batch = auto_batch(p.points, o.precision);
  g.io.batch = p.batch;
  driver::Compilation c = driver::run_pipeline(spec_text, g);
  const Spl one = driver::one_transform(c.spec, c.options.io);
  const std::vector<int64_t> dims = dims_of(one);
  std::string rank = fmt::format("-DRANK={}", dims.size());  // one macro each: nvcc splits -D values at commas
  for (std::size_t d = 0; d < dims.size(); ++d) rank += fmt::format(" -DN{}={}", d + 1, dims[d]);
  p.defines = fmt::format("-DKERNEL={} -DSPLGEN_FLOAT={} {} -DBATCH={} -DSIGN={} -DREPS={} -DMIN_SECONDS={}",
                          kKernelName, o.precision == Precision::Float ? 1 : 0, rank, p.batch, cufft_sign(one),
                          o.repetitions, o.min_sample_seconds);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw CudaKeepError(fmt::format("bench --target cuda: cannot create {}: {}", dir.string(), error.message()));
  write_text((dir / "kernel.cu").string(), c.source);
  write_text((dir / "bench.cu").string(), cuda_bench_program());
  return p;
}

// nvcc's arguments after the compiler, in the spec's directory; `arch` and `rpath` as the
// shell should see them (the script leaves both to its environment).
std::string nvcc_arguments(const Prepared &p, const std::string &arch, const std::string &rpath, const std::string &extra) {
  return fmt::format("-O3 -std=c++17 -arch={} {} kernel.cu bench.cu -o bench -lcufft -Xlinker -rpath={}{}", arch, p.defines,
                     rpath, extra);
}

// VkFFT's flags: its header's folder, its CUDA back end's driver API and NVRTC (the driver's
// libcuda through the toolkit's link stubs).
std::string vkfft_flags(const std::string &include_dir, const std::string &cuda_lib) {
  return fmt::format(" -I{} -DSPLGEN_VKFFT=1 -L{}/stubs -lcuda -lnvrtc", include_dir, cuda_lib);
}

std::string build_script(const Prepared &p, const CudaBenchOptions &o) {
  return fmt::format(R"sh(#!/bin/sh
# splgen bench --target cuda: {0}, batch {1}, {2}, {3} (docs/cuda.md, "Benchmarking on a GPU
# machine"). Builds ./bench from kernel.cu and bench.cu with nvcc and runs it; it prints
# "GPU <name>" and "RESULT <splgen ns> <cuFFT ns> <error vs cuFFT> <error vs reference> <copy GB/s>",
# or "ERROR <what>". NVCC=PATH and ARCH=sm_XX override the compiler and the architecture;
# --build-only: build, do not run; --run-only: run what an earlier --build-only built.
set -e
cd "$(dirname "$0")"
NVCC="${{NVCC:-$(command -v nvcc || echo {4})}}"
# VkFFT beside cuFFT where its header is (kept beside the scripts, or installed) and the driver's
# libcuda, which it calls, loads; SPLGEN_NO_VKFFT=1: without
VKFFT=""
if [ -z "$SPLGEN_NO_VKFFT" ] && ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  for d in ../vkfft /usr/include; do
    if [ -f "$d/vkFFT.h" ]; then VKFFT="{6}"; break; fi
  done
fi
if [ "$1" != --run-only ]; then "$NVCC" {5}; fi
if [ "$1" = --build-only ]; then exit 0; fi
./bench
)sh",
                     p.spec, p.batch, o.precision == Precision::Float ? "float" : "double",
                     o.inverse ? "inverse" : "forward", kDefaultNvcc,
                     nvcc_arguments(p, "\"${ARCH:-" + o.arch + "}\"", "\"$(dirname \"$NVCC\")/../lib64\"", " $VKFFT"),
                     vkfft_flags("$d", "$(dirname \"$NVCC\")/../lib64"));
}

std::string run_all_script(const std::vector<Prepared> &specs, const CudaBenchOptions &o) {
  std::string out = "#!/bin/sh\n# splgen bench --target cuda: every spec's build_and_run.sh in turn, each announced by a\n"
                    "# line \"SPEC <index> <spec> batch <B> <precision> <direction>\"; `splgen bench --target cuda\n"
                    "# --results FILE` makes the table of what it prints (docs/cuda.md, \"Benchmarking on a GPU machine\").\n"
                    "# Its argument, if any (--build-only, --run-only), goes to every build_and_run.sh.\n"
                    "cd \"$(dirname \"$0\")\"\nstatus=0\n";
  for (std::size_t i = 0; i < specs.size(); ++i) {
    out += fmt::format("echo {}\n", shell_quote(fmt::format("SPEC {} {} batch {} {} {}", i, specs[i].spec, specs[i].batch,
                                                           o.precision == Precision::Float ? "float" : "double",
                                                           o.inverse ? "inverse" : "forward")));
    if (!specs[i].variant.empty()) out += fmt::format("echo {}\n", shell_quote("KNOBS " + specs[i].variant));
    out += fmt::format("sh {}/build_and_run.sh \"$@\" || status=1\n", i);
  }
  return out + "exit $status\n";
}

// nvcc on one spec's files: the command, and "" or its failure (CompileError's text).
std::string build(const Prepared &p, const std::filesystem::path &dir, const std::string &nvcc, const CudaBenchOptions &o) {
  const std::string rpath = (std::filesystem::path(nvcc).parent_path() / ".." / "lib64").string();
  const std::string header = have_cuda_driver() ? find_vkfft_header() : "";
  const std::string vkfft = header.empty() ? "" : vkfft_flags(shell_quote(std::filesystem::path(header).parent_path().string()),
                                                              shell_quote(rpath));
  const std::string compile = fmt::format("cd {} && {} {}", shell_quote(dir.string()), shell_quote(nvcc),
                                          nvcc_arguments(p, o.arch, shell_quote(rpath), vkfft));
  auto [status, output] = run_command(compile);
  if (status != 0) throw CompileError(compile, status, output);
  return compile;
}

CudaBenchRow run_built(const Prepared &p, const std::filesystem::path &dir, std::string &gpu) {
  auto [code, out] = run_command(shell_quote((dir / "bench").string()));
  CudaBenchRow row{p.spec, p.points, p.batch};
  row.variant = p.variant;
  parse_cuda_output(out, code, row, gpu);
  return row;
}

// The directory the specs' files go to: `keep`, or a temporary one removed at the end.
std::filesystem::path spec_dir(const std::filesystem::path &root, std::size_t index) {
  return root / std::to_string(index);
}

}  // namespace

std::string CudaVariant::label() const {
  return (codelet_max > 0 ? fmt::format("codelet={},", codelet_max) : std::string("codelet=default,")) + to_string(knobs);
}

CudaVariant parse_cuda_variant(const std::string &label) {
  const std::size_t comma = label.find(',');
  const std::string first = label.substr(0, comma);
  if (first.rfind("codelet=", 0) != 0) throw std::invalid_argument("not a kernel variant (codelet=N,...): " + label);
  CudaVariant v;
  const std::string size = first.substr(8);
  if (size != "default") {
    char *end = nullptr;
    v.codelet_max = std::strtoll(size.c_str(), &end, 10);
    if (size.empty() || *end != '\0' || v.codelet_max < 1 || v.codelet_max > 64)
      throw std::invalid_argument("codelet=" + size + ": expected default or 1..64");
  }
  v.knobs = parse_gpu_knobs(comma == std::string::npos ? "" : label.substr(comma + 1));
  return v;
}

std::vector<std::pair<std::string, CudaVariant>> cuda_bench_jobs(const CudaBenchOptions &o) {
  std::vector<std::pair<std::string, CudaVariant>> jobs;
  if (o.variants.empty())
    for (const std::string &spec : o.specs) jobs.emplace_back(spec, o.kernel);
  else
    for (const CudaVariant &v : o.variants) jobs.emplace_back(o.specs.at(0), v);
  return jobs;
}

int64_t auto_batch(int64_t points, Precision precision) {
  const int64_t bytes = 2 * points * (precision == Precision::Float ? 8 : 16);  // x and y
  return std::max<int64_t>(1, std::min((kAutoBatchBytes + bytes - 1) / bytes, driver::kMaxGpuPoints / points));
}

double CudaBenchRow::gbytes(Precision precision) const {
  return 2.0 * (precision == Precision::Float ? 8.0 : 16.0) * double(points) * double(batch) / splgen_ns;
}

std::string find_vkfft_header() {
  if (const char *off = std::getenv("SPLGEN_NO_VKFFT"); off && *off) return "";
  return std::filesystem::exists(kVkfftHeader) ? kVkfftHeader : "";
}


std::string find_nvcc() {
  if (have_program("nvcc")) return "nvcc";
  return std::filesystem::exists(kDefaultNvcc) ? kDefaultNvcc : "";
}

void parse_cuda_output(const std::string &output, int status, CudaBenchRow &row, std::string &gpu) {
  std::istringstream lines(output);
  bool found = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("GPU ", 0) == 0) gpu = line.substr(4);
    if (line.rfind("VKFFT ERROR ", 0) == 0) {
      row.vkfft_failure = line.substr(12);
      continue;
    }
    if (line.rfind("VKFFT ", 0) == 0) {
      std::istringstream fields(line.substr(6));
      std::string ns, error;
      char *end_ns = nullptr, *end_error = nullptr;
      if (fields >> ns >> error) row.vkfft_ns = std::strtod(ns.c_str(), &end_ns), row.vkfft_error = std::strtod(error.c_str(), &end_error);
      if (!end_ns || *end_ns || !end_error || *end_error)
        throw std::runtime_error("the timing program printed an unreadable line: " + line);
      continue;
    }
    if (line.rfind("ERROR no CUDA device", 0) == 0) throw CudaUnavailable(line.substr(6));
    if (line.rfind("ERROR ", 0) == 0) throw std::runtime_error(line.substr(6));
    if (line.rfind("RESULT ", 0) != 0) continue;
    std::istringstream fields(line.substr(7));
    double v[5];
    std::string word;
    for (double &x : v) {  // strtod: the reference error is "nan" when skipped, which >> refuses
      char *end = nullptr;
      x = fields >> word ? std::strtod(word.c_str(), &end) : 0;
      if (!end || *end != '\0') throw std::runtime_error("the timing program printed an unreadable line: " + line);
    }
    row.splgen_ns = v[0], row.cufft_ns = v[1], row.error = v[2], row.error_reference = v[3], row.copy_gbytes = v[4];
    found = true;
  }
  const std::string first = output.substr(0, output.find('\n'));
  if (status != 0) throw std::runtime_error(fmt::format("the timing program failed (exit {}): {}", status, first));
  if (!found) throw std::runtime_error("the timing program printed no RESULT line: " + first);
}

CudaBenchResult read_cuda_results(const std::string &text, CudaBenchOptions &o) {
  CudaBenchResult result;
  std::vector<std::string> blocks;  // each spec's lines, from its SPEC line on
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("SPEC ", 0) == 0) blocks.emplace_back();
    if (!blocks.empty()) blocks.back() += line + "\n";
  }
  if (blocks.empty()) throw std::runtime_error("no \"SPEC\" line: not what run_all.sh prints");
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    // "SPEC <index> <spec> batch <B> <precision> <direction>": the spec may hold spaces
    const std::string head = blocks[i].substr(0, blocks[i].find('\n'));
    const std::size_t at = head.rfind(" batch ");
    std::istringstream tail(at == std::string::npos ? "" : head.substr(at + 7));
    CudaBenchRow row;
    std::string precision, direction;
    tail >> row.batch >> precision >> direction;
    const std::size_t spec_at = head.find(' ', 5);
    if (!tail || spec_at == std::string::npos || spec_at > at || (precision != "double" && precision != "float"))
      throw std::runtime_error("an unreadable line: " + head);
    row.spec = head.substr(spec_at + 1, at - spec_at - 1);
    const Precision p = precision == "float" ? Precision::Float : Precision::Double;
    if (i > 0 && (p != o.precision || (direction == "inverse") != o.inverse))
      throw std::runtime_error("one table per precision and direction: " + head);
    o.precision = p, o.inverse = direction == "inverse";
    o.specs.push_back(row.spec);
    row.points = driver::start(row.spec, driver::GenOptions{}).spec->rows;
    const std::string rest = blocks[i].substr(head.size() + 1);
    if (rest.rfind("KNOBS ", 0) == 0) row.variant = rest.substr(6, rest.find('\n') - 6);
    try {
      parse_cuda_output(rest, 0, row, result.gpu);
    } catch (const CudaUnavailable &) {
      throw;
    } catch (const std::runtime_error &e) {
      if (row.variant.empty()) throw std::runtime_error(fmt::format("{} failed: {}", row.spec, e.what()));
      row.failure = e.what();  // a search's variant: the others still count
    }
    result.rows.push_back(row);
  }
  return result;
}

namespace {

// A variant's failure as its row (search), or the bench's error.
CudaBenchRow failed(const Prepared &p, const std::string &why) {
  CudaBenchRow row{p.spec, p.points, p.batch};
  row.variant = p.variant, row.failure = why;
  return row;
}

}  // namespace

CudaBenchResult run_cuda_bench(const CudaBenchOptions &o, const std::function<void(const std::string &)> &progress) {
  const std::string nvcc = o.no_run ? "" : find_nvcc();
  if (!o.no_run && nvcc.empty())
    throw CudaUnavailable("bench --target cuda needs nvcc, on PATH or at /usr/local/cuda/bin/nvcc: install the CUDA "
                          "toolkit (or use --keep DIR --no-run and run DIR/run_all.sh where it is)");
  const auto start = std::chrono::steady_clock::now();
  TempDir temporary("splgen-cuda-bench");
  const std::filesystem::path root = o.keep.empty() ? temporary.path() : std::filesystem::path(o.keep);
  CudaBenchResult result;
  std::vector<Prepared> prepared;
  const auto jobs = cuda_bench_jobs(o);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    prepared.push_back(generate(jobs[i].first, jobs[i].second, o, spec_dir(root, i)));
    if (o.keep.empty()) continue;
    const std::string script = (spec_dir(root, i) / "build_and_run.sh").string();
    write_text(script, build_script(prepared.back(), o));
    result.kept.push_back(script);
  }
  if (!o.keep.empty() && !find_vkfft_header().empty()) {  // the GPU machine may have no libvkfft-dev
    std::error_code error;
    std::filesystem::create_directories(root / "vkfft", error);
    std::filesystem::copy_file(find_vkfft_header(), root / "vkfft" / "vkFFT.h", std::filesystem::copy_options::overwrite_existing,
                               error);
    if (error) throw CudaKeepError(fmt::format("bench --target cuda: cannot copy VkFFT's header into {}: {}", (root / "vkfft").string(),
                                               error.message()));
  }
  if (!o.keep.empty()) {
    result.kept.push_back((root / "run_all.sh").string());
    write_text(result.kept.back(), run_all_script(prepared, o));
  }
  if (o.no_run) return result;
  const bool variants = !o.variants.empty();
  const std::size_t width = std::size_t(o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency()));
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  // nvcc on `width` programs at once, then each run alone (the GPU is timed by one at a time)
  for (std::size_t first = 0; first < prepared.size(); first += width) {
    if (variants && o.budget_seconds > 0 && elapsed() > o.budget_seconds) break;
    const std::size_t last = std::min(prepared.size(), first + width);
    std::vector<std::future<std::string>> builds;
    for (std::size_t i = first; i < last; ++i)
      builds.push_back(std::async(std::launch::async, [&, i] { return build(prepared[i], spec_dir(root, i), nvcc, o); }));
    for (std::size_t i = first; i < last; ++i) {
      const Prepared &p = prepared[i];
      progress(fmt::format("{} batch {}{} ... ", p.spec, p.batch, variants ? " " + p.variant : ""));
      try {
        builds[i - first].get();
        result.rows.push_back(run_built(p, spec_dir(root, i), result.gpu));
      } catch (const CudaUnavailable &e) {
        throw CudaUnavailable(fmt::format("bench --target cuda: {}", e.what()));
      } catch (const CompileError &e) {
        if (!variants) throw;
        result.rows.push_back(failed(p, "nvcc: " + e.first_error()));
      } catch (const std::runtime_error &e) {
        if (!variants) throw std::runtime_error(fmt::format("bench --target cuda: {} failed: {}", p.spec, e.what()));
        result.rows.push_back(failed(p, e.what()));
      }
      const CudaBenchRow &r = result.rows.back();
      progress(r.failure.empty() ? fmt::format("{:.2f}x\n", r.cufft_ns / r.splgen_ns) : "failed: " + r.failure + "\n");
    }
  }
  return result;
}

std::string format_cuda_table(const CudaBenchOptions &o, const CudaBenchResult &result) {
  bool vkfft = false;  // VkFFT's columns where it was timed
  for (const CudaBenchRow &r : result.rows) vkfft |= r.vkfft_ns > 0;
  std::string out = fmt::format("# {}, {}, {}; cuFFT cufftPlanMany{}; cudaEvent timing, interleaved, medians; "
                                "error vs reference: nan above 2^14 points\n",
                                result.gpu.empty() ? "unknown GPU" : result.gpu,
                                o.precision == Precision::Float ? "float" : "double", o.inverse ? "inverse" : "forward",
                                vkfft ? ", VkFFT (libvkfft-dev)" : "");
  out += fmt::format("{:<24} {:>9} {:>9} {:>14} {:>13} {:>8} {:>10} {:>10} {:>9} {:>7}", "spec", "n", "batch",
                     "splgen Gflop/s", "cuFFT Gflop/s", "ratio", "vs cuFFT", "vs ref", "GB/s", "% copy");
  out += vkfft ? fmt::format(" {:>13} {:>9}\n", "VkFFT Gflop/s", "vs VkFFT") : "\n";
  for (const CudaBenchRow &r : result.rows) {
    const double flops = 5.0 * double(r.points) * std::log2(double(r.points)) * double(r.batch);
    const double gbytes = r.gbytes(o.precision);
    out += fmt::format("{:<24} {:>9} {:>9} {:>14.2f} {:>13.2f} {:>7.2f}x {:>10.2e} {:>10.2e} {:>9.1f} {:>6.1f}%", r.spec,
                       r.points, r.batch, flops / r.splgen_ns, flops / r.cufft_ns, r.cufft_ns / r.splgen_ns, r.error,
                       r.error_reference, gbytes, 100.0 * gbytes / r.copy_gbytes);
    if (vkfft && r.vkfft_ns > 0) out += fmt::format(" {:>13.2f} {:>8.2f}x", flops / r.vkfft_ns, r.vkfft_ns / r.splgen_ns);
    else if (vkfft) out += fmt::format(" {:>13} {:>9}", "-", "-");
    out += "\n";
  }
  for (const CudaBenchRow &r : result.rows)
    if (!r.vkfft_failure.empty()) out += fmt::format("# VkFFT failed at {}: {}\n", r.spec, r.vkfft_failure);
  return out;
}

}  // namespace splgen::measure
