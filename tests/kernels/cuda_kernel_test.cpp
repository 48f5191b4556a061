// --target cuda (docs/cuda.md). Without a GPU: the GPU form of each kernel (its kernels,
// groups, stages and lanes) runs in the loop-IR interpreter, forwards and with every parallel
// dimension backwards (a stage whose lanes depended on each other, or groups that shared
// memory, would then differ), against FFTW3 in long double and the O(n^2) sum; and every
// emitted .cu file compiles with nvcc -Werror all-warnings for sm_80 and sm_90 (skipped, with
// the reason, where nvcc is absent). Running the kernels on a GPU is `splgen bench --target
// cuda` (against cuFFT), on a machine that has one.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cfloat>
#include <complex>
#include <filesystem>
#include <random>

#include "generator/driver/pipeline.h"
#include "generator/lower/gpu_kernels.h"
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
};

driver::Compilation generate(const Case &c) {
  driver::GenOptions g;
  g.target = "cuda";
  g.io.batch = c.batch;
  g.inverse = c.inverse;
  g.precision = c.precision;
  return driver::run_pipeline(c.spec, g);
}

void check_meaning(const Case &c) {
  SCOPED_TRACE(fmt::format("{} --batch {}{}", c.spec, c.batch, c.inverse ? " --inverse" : ""));
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
    if (known)  // spec_reference knows batches of 1D DFTs only
      EXPECT_LE(test::relative_rms_error(got, expected), tolerance) << (reversed ? "backwards" : "forwards");
    if (comp.spec->kind == SplKind::DFT && n > 1)  // entries of the O(n) long-double sum
      for (std::size_t k : {std::size_t(1), n / 3, n - 1})
        EXPECT_LE(double(std::abs(std::complex<long double>(got[k]) - test::reference_dft_entry(exact, k, sign))),
                  tolerance * std::sqrt(double(n)))
            << "entry " << k;
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
}

TEST(CudaKernels, GenerationIsDeterministic) {
  EXPECT_EQ(generate({"DFT(4096)", 8}).source, generate({"DFT(4096)", 8}).source);
}

// nvcc: the CUDA toolkit's compiler (DEVELOPERS.md), on PATH or in /usr/local/cuda.
std::string nvcc() {
  if (test::have_program("nvcc")) return "nvcc";
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "";
}

TEST(CudaKernels, NvccCompilesEveryKernelForSm80AndSm90) {
  const std::string compiler = nvcc();
  if (compiler.empty()) GTEST_SKIP() << "nvcc not found (the CUDA toolkit: /usr/local/cuda/bin/nvcc)";
  test::TempDir dir("splgen-cuda-test");
  const std::vector<Case> cases = {{"DFT(16)", 1000},          {"DFT(1024)", 64, false, Precision::Float},
                                   {"DFT(4096)", 8, true},     {"DFT(100)", 3},
                                   {"DFT(10007)"},             {"DFT(64 x 64)", 1, false, Precision::Float},
                                   {"DFT(1048576)"},           {"DFT(8 x 4 x 6)", 2}};
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
