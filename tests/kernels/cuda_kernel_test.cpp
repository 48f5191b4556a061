// --target cuda (docs/cuda.md). Without a GPU: the GPU form of each kernel (its kernels,
// groups, stages and lanes) runs in the loop-IR interpreter, forwards and with every parallel
// dimension backwards (a stage whose lanes depended on each other, or groups that shared
// memory, would then differ), against FFTW3 in long double and the O(n^2) sum; and every
// emitted .cu file compiles with nvcc -Werror all-warnings for sm_80 and sm_90 (skipped, with
// the reason, where nvcc is absent). Running the kernels on a GPU is `splgen bench --target
// cuda` (against cuFFT), on a machine that has one, and KernelsRunOnTheGpuAgainstCufft there.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cfloat>
#include <complex>
#include <random>
#include <regex>

#include "generator/driver/pipeline.h"
#include "generator/lower/gpu_kernels.h"
#include "generator/measure/cuda_bench.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/reference.h"
#include "tests/support/spec_reference.h"

namespace splgen {
namespace {

struct Case {
  std::string spec;
  int64_t batch = 1;
  bool inverse = false;
  Precision precision = Precision::Double;
  std::string knobs;  // --gpu-knobs
};

driver::GenOptions gen_options(const Case &c) {
  driver::GenOptions g;
  g.target = "cuda";
  g.io.batch = c.batch;
  g.inverse = c.inverse;
  g.precision = c.precision;
  g.gpu = parse_gpu_knobs(c.knobs);
  return g;
}

driver::Compilation generate(const Case &c) { return driver::run_pipeline(c.spec, gen_options(c)); }

void check_meaning(const Case &c) {
  SCOPED_TRACE(fmt::format("{} --batch {}{} --gpu-knobs '{}'", c.spec, c.batch, c.inverse ? " --inverse" : "", c.knobs));
  const driver::Compilation comp = generate(c);
  ASSERT_TRUE(comp.program.gpu.has_value());
  const std::size_t n = std::size_t(comp.spec->rows);
  std::mt19937_64 rng(n * 7 + std::size_t(c.batch));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<cplx> x(n);
  std::vector<std::complex<long double>> exact(n);
  for (std::size_t k = 0; k < n; ++k) x[k] = {uniform(rng), uniform(rng)}, exact[k] = x[k];
  const int sign = c.inverse ? +1 : -1;
  const bool known = c.batch == 1 || comp.spec->children.at(1)->kind == SplKind::DFT;
  const std::vector<std::complex<long double>> expected = known ? test::spec_reference(comp.spec, exact, sign) : exact;
  const double tolerance = 5 * DBL_EPSILON * std::max(1.0, std::log2(double(n)));
  const std::vector<cplx> sequential = interpret(comp.program.loops, x);
  for (bool reversed : {false, true}) {
    const std::vector<cplx> got = interpret(*comp.program.gpu, x, reversed);
    EXPECT_LE(test::relative_rms_error(got, sequential), tolerance) << (reversed ? "backwards" : "forwards") << " vs sequential";
    if (known) {  // spec_reference knows batches of 1D DFTs only
      EXPECT_LE(test::relative_rms_error(got, expected), tolerance) << (reversed ? "backwards" : "forwards");
    }
    if (comp.spec->kind == SplKind::DFT && n > 1) {  // entries of the O(n) long-double sum
      for (std::size_t k : {std::size_t(1), n / 3, n - 1}) {
        EXPECT_LE(double(std::abs(std::complex<long double>(got[k]) - test::reference_dft_entry(exact, k, sign))),
                  tolerance * std::sqrt(double(n)))
            << "entry " << k;
      }
    }
  }
}

TEST(CudaKernels, OneDimensionalSizesRunInTheInterpreter) {
  for (int64_t n : {1, 2, 3, 5, 7, 8, 12, 16, 17, 31, 32, 60, 64, 100, 128, 256, 512, 1000, 1024, 2048, 4096, 8192, 10007, 16384,
                    65536})
    check_meaning({fmt::format("DFT({})", n)});
}

TEST(CudaKernels, BatchesRunInTheInterpreter) {
  for (int64_t n : {2, 16, 64, 100, 1024, 4096, 32768})
    for (int64_t b : {1, 3, 16}) check_meaning({fmt::format("DFT({})", n), b});
}

TEST(CudaKernels, InverseAndMultiDimensionalRunInTheInterpreter) {
  check_meaning({"DFT(1024)", 4, true});
  check_meaning({"DFT(60)", 5, true});
  check_meaning({"DFT(64 x 64)"});
  check_meaning({"DFT(16 x 12)", 2});
  check_meaning({"DFT(8 x 4 x 6)"});
  check_meaning({"DFT(32 x 32 x 32)"});
}

TEST(CudaKernels, LargeOneDimensionalRunsInTheInterpreter) {
  check_meaning({"DFT(262144)"});
  check_meaning({"DFT(1048576)"});
  check_meaning({"DFT(1048576)", 2, false, Precision::Float});
}

// Each knob's other settings (the search's space) compute the same transform.
TEST(CudaKernels, KnobVariantsRunInTheInterpreter) {
  for (const char *knobs : {"staging=sector", "stores=direct", "staging=sector,stores=direct", "padding=off", "table=0",
                            "factor=256", "block=256,grid_block=64", "block=32,shared=16384", "columns=1",
                            "columns=2,stores=direct", "columns=4,factor=256"})
    for (const Case &c : {Case{"DFT(16)", 5}, Case{"DFT(64)", 3}, Case{"DFT(256)", 4}, Case{"DFT(60)", 3, true},
                          Case{"DFT(1024)", 2}, Case{"DFT(4096)"}, Case{"DFT(16 x 12)", 2}, Case{"DFT(65536)"}}) {
      Case v = c;
      v.knobs = knobs;
      check_meaning(v);
    }
}

// What the knobs change: staging=sector reads rows a warp's lanes take with unit stride
// straight from global memory, stores=direct writes the last stage's y straight back, so a
// batch of DFT(256) keeps only its intermediate vector in shared memory, with no copy stage;
// padding=off leaves the rows unpadded and unswizzled; table=0 computes every twiddle;
// factor=256 splits 2^20 into three passes, not two.
TEST(CudaKernels, KnobsChangeTheGpuForm) {
  const GpuProgram warp = *generate({"DFT(256)", 1000}).program.gpu;
  const GpuProgram sector = *generate({"DFT(256)", 1000, false, Precision::Double, "staging=sector,stores=direct"}).program.gpu;
  ASSERT_EQ(warp.kernels.size(), 1u);
  ASSERT_EQ(sector.kernels.size(), 1u);
  EXPECT_EQ(warp.kernels[0].shared.size(), 2u);  // x's rows and y's
  EXPECT_EQ(sector.kernels[0].shared.size(), 1u);
  EXPECT_EQ(sector.kernels[0].stages.size(), 2u);
  for (const GpuStage &s : sector.kernels[0].stages) EXPECT_FALSE(s.cooperative);
  const driver::Compilation plain = generate({"DFT(256)", 8, false, Precision::Double, "padding=off"});
  EXPECT_EQ(plain.source.find("splgen_swizzle"), std::string::npos);
  EXPECT_NE(generate({"DFT(256)", 8}).source.find("splgen_swizzle"), std::string::npos);
  EXPECT_NE(generate({"DFT(256)", 8, false, Precision::Double, "table=0"}).source.find("sincospi"), std::string::npos);
  EXPECT_EQ(generate({"DFT(256)", 8}).source.find("sincospi"), std::string::npos);
  EXPECT_EQ(generate({"DFT(1048576)"}).program.gpu->kernels.size(), 3u);
  EXPECT_EQ(generate({"DFT(1048576)", 1, false, Precision::Double, "factor=256"}).program.gpu->kernels.size(), 4u);
  // columns=c: the four-step's second pass in blocks of c columns, each a group in shared memory
  const GpuProgram blocked = *generate({"DFT(1048576)", 1, false, Precision::Double, "columns=2"}).program.gpu;
  ASSERT_EQ(blocked.kernels.size(), 2u);
  EXPECT_EQ(blocked.kernels[1].group_count(), 512);
  EXPECT_FALSE(blocked.kernels[1].shared.empty());
  const GpuProgram wide = *generate({"DFT(64)", 1000, false, Precision::Double, "block=256"}).program.gpu;
  EXPECT_EQ(wide.kernels[0].groups_per_block * wide.kernels[0].threads_per_group, 256);
  const GpuProgram small = *generate({"DFT(64)", 1000, false, Precision::Double, "block=256,shared=4160"}).program.gpu;
  EXPECT_EQ(small.kernels[0].groups_per_block, 2);  // two rows of 65 double2 a group: 4160 bytes hold 2
  const driver::Compilation few = generate({"DFT(4096)", 2, false, Precision::Double, "group=256,min_blocks=2"});
  EXPECT_EQ(few.program.gpu->kernels[0].threads_per_group, 256);  // 1024 lanes, 4 a thread
  EXPECT_NE(few.source.find("__launch_bounds__(256, 2)"), std::string::npos);
  EXPECT_NE(generate({"DFT(64)", 4}).source.find("block=128,grid_block=256,group=1024,min_blocks=0,staging=warp"), std::string::npos);
}

// The GPU form's structure: a small batch is one kernel holding its groups' temporaries and its
// intermediate vectors in shared memory; a large DFT splits into kernels with its temporaries in global memory.
TEST(CudaKernels, SmallBatchesAreOneKernelAndLargeSizesSeveral) {
  const GpuProgram small = *generate({"DFT(1024)", 1000}).program.gpu;
  ASSERT_EQ(small.kernels.size(), 1u);
  EXPECT_TRUE(small.scratch.empty());
  EXPECT_EQ(small.kernels[0].group_count(), 1000);
  ASSERT_EQ(small.kernels[0].stages.size(), 3u);  // two passes over the intermediate vector in shared memory, a copy out
  EXPECT_TRUE(small.kernels[0].stages.back().cooperative);
  const GpuProgram tiny = *generate({"DFT(16)", 1000}).program.gpu;  // one lane per group: copies through shared memory
  ASSERT_EQ(tiny.kernels.size(), 1u);
  EXPECT_TRUE(tiny.kernels[0].stages.front().cooperative);
  EXPECT_TRUE(tiny.kernels[0].stages.back().cooperative);
  const GpuProgram large = *generate({"DFT(1048576)"}).program.gpu;
  EXPECT_GT(large.kernels.size(), 1u);
  EXPECT_FALSE(large.scratch.empty());
}

// The checker itself: a program that skips a kernel reads y and temporaries never written,
// which start as NaN in the interpreter (as GPU memory holds leftovers), and fails.
TEST(CudaKernels, AMissingKernelShowsInTheInterpreter) {
  GpuProgram p = *generate({"DFT(65536)"}).program.gpu;
  ASSERT_GT(p.kernels.size(), 1u);
  p.kernels.erase(p.kernels.begin());
  std::vector<cplx> x(65536, cplx(1.0, 0.5));
  const std::vector<cplx> y = interpret(p, x);
  EXPECT_TRUE(std::any_of(y.begin(), y.end(), [](const cplx &v) { return std::isnan(v.real()); }));
}

// Launch geometry, which the interpreter does not see: a grid-stride kernel's threads are
// threadIdx.x (blockDim.x = its block), a fused kernel's lanes x and groups y; the launch
// bounds are the block's threads.
TEST(CudaKernels, LaunchesMatchTheThreadIndices) {
  for (const Case &c : {Case{"DFT(1048576)"}, Case{"DFT(64)", 100}, Case{"DFT(65536)", 2, false, Precision::Float}}) {
    const driver::Compilation comp = generate(c);
    const GpuProgram &p = *comp.program.gpu;
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
      const GpuKernel &k = p.kernels[i];
      const bool grid = k.grid_stride();
      const std::string launch = fmt::format("_k{}<<<", i), dims = grid ? fmt::format("dim3({}, 1)", k.groups_per_block)
                                                                             : fmt::format("dim3({}, {})", k.threads_per_group, k.groups_per_block);
      const std::size_t at = comp.source.find(launch);
      ASSERT_NE(at, std::string::npos) << c.spec;
      EXPECT_EQ(comp.source.substr(at, comp.source.find('\n', at) - at).find(dims) != std::string::npos, true)
          << c.spec << " kernel " << i << ": " << dims;
      EXPECT_NE(comp.source.find(fmt::format("__launch_bounds__({}) {}_k{}(", k.groups_per_block * k.threads_per_group,
                                             p.function.name, i)),
                std::string::npos);
    }
  }
}

TEST(CudaKernels, UnsupportedLayoutsAreRefusedInOneLine) {
  driver::GenOptions g;
  g.target = "cuda";
  g.io.in_place = true;
  try {
    driver::run_pipeline("DFT(64)", g);
    FAIL() << "no error";
  } catch (const FormulaError &e) {
    EXPECT_NE(std::string(e.what()).find("--target cuda"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  g.io.in_place = false;
  EXPECT_THROW(driver::run_pipeline("RDFT(64)", g), FormulaError);
  g.threads = 2;  // the GPU's threads are its own
  EXPECT_THROW(driver::run_pipeline("DFT(64)", g), FormulaError);
}

TEST(CudaKernels, GenerationIsDeterministic) {
  EXPECT_EQ(generate({"DFT(4096)", 8}).source, generate({"DFT(4096)", 8}).source);
}

// The printed .cu made into C++ for tests/support/cuda_emulation.h: the runtime header swapped,
// each launch K<<<grid, block, bytes, stream>>>(args) an emulated_launch (its threads at once
// where K has barriers), the extern shared array this block's memory.
std::string emulated_source(const std::string &cu) {
  std::string out = std::regex_replace(cu, std::regex("#include <cuda_runtime.h>"), "#include \"cuda_emulation.h\"");
  out = std::regex_replace(out, std::regex(R"(extern __shared__ (\w+) splgen_shared\[\];)"),
                           "$1 *splgen_shared = reinterpret_cast<$1 *>(emulated_shared);");
  const std::regex launch(R"((\w+)<<<(\d+), (dim3\(\d+, \d+\)), (\d+), stream>>>\(([^)]*)\);)");
  std::string result;
  auto begin = std::sregex_iterator(out.begin(), out.end(), launch);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch &m = *it;
    const std::size_t body = out.find(" " + m[1].str() + "(");
    const std::size_t next = out.find("__global__", body);
    const bool barriers = out.substr(body, next == std::string::npos ? std::string::npos : next - body).find("__syncthreads") !=
                          std::string::npos;
    result += out.substr(last, std::size_t(m.position(0)) - last);
    result += fmt::format("emulated_launch({}, {}, {}, {}, [&] {{ {}({}); }});", m[2].str(), m[3].str(), m[4].str(),
                          barriers ? "true" : "false", m[1].str(), m[5].str());
    last = std::size_t(m.position(0) + m.length(0));
  }
  return result + out.substr(last);
}

// The printed code itself, launches, indices, shared memory and barriers included, on the CPU.
TEST(CudaKernels, PrintedKernelsRunEmulatedOnTheCpu) {
  if (!test::have_program(test::default_compiler())) GTEST_SKIP() << "no C++ compiler";
  const std::string direct = "staging=sector,stores=direct";
  const std::vector<Case> cases = {{"DFT(64)", 37},        {"DFT(16)", 100},     {"DFT(1024)", 5},
                                   {"DFT(60)", 3, true},   {"DFT(16 x 12)", 2},  {"DFT(4096)", 3},
                                   {"DFT(65536)", 2, false, Precision::Float},   {"DFT(1048576)"},
                                   {"DFT(256)", 9, false, Precision::Double, direct},
                                   {"DFT(64)", 37, true, Precision::Float, direct + ",padding=off,block=256"},
                                   {"DFT(1024)", 3, false, Precision::Double, direct + ",table=0"},
                                   {"DFT(65536)", 1, false, Precision::Double, direct + ",factor=256,grid_block=64"},
                                   {"DFT(4096)", 2, false, Precision::Double, "group=96,min_blocks=2"},
                                   {"DFT(65536)", 1, false, Precision::Float, "columns=2,stores=direct,staging=sector"}};
  test::TempDir dir("splgen-cuda-emulated");
  std::vector<std::string> sources;
  std::vector<driver::Compilation> compiled;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    driver::GenOptions g = gen_options(cases[i]);
    g.name = fmt::format("emulated{}", i);
    compiled.push_back(driver::run_pipeline(cases[i].spec, g));
    sources.push_back(dir.write(fmt::format("k{}.cpp", i), emulated_source(compiled.back().source)));
  }
  const std::string so = test::compile_shared_object(sources, dir.file("k.so"), "",
                                                     fmt::format("-O1 -w -pthread -I{}", SPLGEN_TEST_SUPPORT_DIR));
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(fmt::format("{} --batch {}{} {}", cases[i].spec, cases[i].batch, cases[i].precision == Precision::Float ? " float" : "",
                             cases[i].knobs));
    const driver::Compilation &c = compiled[i];
    const std::size_t n = std::size_t(c.spec->rows);
    std::mt19937_64 rng(n + i);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<cplx> x(n);
    for (cplx &v : x) v = {uniform(rng), uniform(rng)};
    const std::vector<cplx> want = interpret(c.program.loops, x);  // the sequential program (checked above)
    std::vector<cplx> got(n);
    auto *kernel = lib.symbol<int(void *, const void *, void *)>(fmt::format("emulated{}", i));
    if (cases[i].precision == Precision::Float) {
      std::vector<float> xf(2 * n), yf(2 * n, std::nanf(""));
      for (std::size_t k = 0; k < n; ++k) xf[2 * k] = float(x[k].real()), xf[2 * k + 1] = float(x[k].imag());
      ASSERT_EQ(kernel(yf.data(), xf.data(), nullptr), 0);
      for (std::size_t k = 0; k < n; ++k) got[k] = {yf[2 * k], yf[2 * k + 1]};
      EXPECT_LE(test::relative_rms_error(got, want), 1e-5);
    } else {
      std::vector<double> yd(2 * n, std::nan(""));
      ASSERT_EQ(kernel(yd.data(), x.data(), nullptr), 0);
      for (std::size_t k = 0; k < n; ++k) got[k] = {yd[2 * k], yd[2 * k + 1]};
      EXPECT_LE(test::relative_rms_error(got, want), 1e-13);
    }
  }
}

// On a machine with a GPU: kernels of each kind run there, against cuFFT and the long-double
// reference (bench --target cuda's program, a few short samples). Skipped, with the reason,
// where there is no GPU or no nvcc; docs/cuda.md, "Correctness without a GPU", says what checks
// the same kernels then.
TEST(CudaKernels, KernelsRunOnTheGpuAgainstCufft) {
  if (measure::find_nvcc().empty()) GTEST_SKIP() << "nvcc not found (the CUDA toolkit: /usr/local/cuda/bin/nvcc)";
  if (!test::have_program("nvidia-smi")) GTEST_SKIP() << "no GPU here (nvidia-smi not found): run on a machine with one";
  struct Run {
    std::vector<std::string> specs;
    int64_t batch;
    Precision precision;
    bool inverse;
    std::string knobs;
  };
  const std::vector<Run> runs = {
      {{"DFT(16)", "DFT(60)", "DFT(1024)", "DFT(64 x 64)"}, 37, Precision::Double, false, ""},
      {{"DFT(10007)", "DFT(1048576)", "DFT(8 x 4 x 6)"}, 1, Precision::Double, true, ""},
      {{"DFT(256)", "DFT(4096)", "DFT(65536)"}, 3, Precision::Float, false, "staging=sector,stores=direct,factor=256"},
      {{"DFT(64)", "DFT(2048)"}, 5, Precision::Double, false, "padding=off,table=0,block=256"}};
  for (const Run &run : runs) {
    measure::CudaBenchOptions o;
    o.specs = run.specs, o.batch = run.batch, o.precision = run.precision, o.inverse = run.inverse;
    o.kernel.knobs = parse_gpu_knobs(run.knobs);
    o.repetitions = 1, o.min_sample_seconds = 1e-4;
    const measure::CudaBenchResult r = measure::run_cuda_bench(o, [](const std::string &) {});
    const double tolerance = run.precision == Precision::Float ? 1e-5 : 1e-13;
    for (const measure::CudaBenchRow &row : r.rows) {
      SCOPED_TRACE(fmt::format("{} x {} {}", row.spec, row.batch, run.knobs));
      EXPECT_LE(row.error, tolerance) << "against cuFFT";
      if (!std::isnan(row.error_reference)) {  // computed up to 2^14 points
        EXPECT_LE(row.error_reference, tolerance) << "against the reference";
      }
    }
  }
}

TEST(CudaKernels, NvccCompilesEveryKernelForSm80AndSm90) {
  const std::string compiler = measure::find_nvcc();
  if (compiler.empty()) GTEST_SKIP() << "nvcc not found (the CUDA toolkit: /usr/local/cuda/bin/nvcc)";
  test::TempDir dir("splgen-cuda-test");
  const std::vector<Case> cases = {{"DFT(16)", 1000},          {"DFT(1024)", 64, false, Precision::Float},
                                   {"DFT(4096)", 8, true},     {"DFT(100)", 3},
                                   {"DFT(10007)"},             {"DFT(64 x 64)", 1, false, Precision::Float},
                                   {"DFT(1048576)"},           {"DFT(8 x 4 x 6)", 2},
                                   {"DFT(256)", 100, false, Precision::Double, "staging=sector,stores=direct,padding=off"},
                                   {"DFT(65536)", 4, false, Precision::Float, "table=0,factor=256,block=512,min_blocks=2,group=128"},
                                   {"DFT(1048576)", 1, false, Precision::Double, "columns=4"}};
  std::string sources;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const driver::Compilation c = generate(cases[i]);
    sources += " " + test::shell_quote(dir.write(fmt::format("k{}.cu", i), c.source));
  }
  // -c of several files: one nvcc call; both architectures' code in each object
  const std::string command = fmt::format(
      "cd {} && {} -O3 -std=c++17 -Werror all-warnings -gencode arch=compute_80,code=sm_80 "
      "-gencode arch=compute_90,code=sm_90 -c{} 2>&1",
      test::shell_quote(dir.path().string()), compiler, sources);
  auto [status, output] = test::run_command(command);
  EXPECT_EQ(status, 0) << command << "\n" << output;
}

}  // namespace
}  // namespace splgen
