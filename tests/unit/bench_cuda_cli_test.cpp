// splgen bench --target cuda (docs/cuda.md, "Benchmarking on a GPU machine"): the timing
// program's output read back, the table, --batch auto; --keep DIR --no-run writes each spec's
// files; where nvcc exists they compile (-arch=sm_90, not run: no GPU is assumed); without a
// GPU the command fails in one line. Never a speed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "generator/measure/compile.h"
#include "generator/measure/cuda_bench.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;

TEST(CudaBenchOutput, ReadsTheResultLineAndTheGpu) {
  measure::CudaBenchRow row;
  std::string gpu;
  measure::parse_cuda_output("GPU NVIDIA H200\nRESULT 1500 3000 1.1e-15 nan 4273.5\n", 0, row, gpu);
  EXPECT_EQ(gpu, "NVIDIA H200");
  EXPECT_EQ(row.splgen_ns, 1500);
  EXPECT_EQ(row.cufft_ns, 3000);
  EXPECT_DOUBLE_EQ(row.error, 1.1e-15);
  EXPECT_TRUE(std::isnan(row.error_reference));  // the reference skipped: above 2^14 points
  EXPECT_DOUBLE_EQ(row.copy_gbytes, 4273.5);
}

// Built with VkFFT, the program prints its time and error before RESULT, or why it has none;
// the table then has VkFFT's columns.
TEST(CudaBenchOutput, ReadsVkfftsLineAndShowsItsColumns) {
  measure::CudaBenchRow row;
  std::string gpu;
  measure::parse_cuda_output("GPU NVIDIA H200\nVKFFT 1200 2.5e-16\nRESULT 1500 3000 1.1e-15 nan 4273.5\n", 0, row, gpu);
  EXPECT_EQ(row.vkfft_ns, 1200);
  EXPECT_DOUBLE_EQ(row.vkfft_error, 2.5e-16);
  measure::CudaBenchRow failed;
  measure::parse_cuda_output("GPU X\nVKFFT ERROR initializeVkFFT: VkFFTResult 4039\nRESULT 1 2 0 0 1\n", 0, failed, gpu);
  EXPECT_EQ(failed.vkfft_ns, 0);
  EXPECT_EQ(failed.vkfft_failure, "initializeVkFFT: VkFFTResult 4039");
  EXPECT_THROW(measure::parse_cuda_output("VKFFT fast\nRESULT 1 2 0 0 1\n", 0, failed, gpu), std::runtime_error);
  measure::CudaBenchOptions o;
  measure::CudaBenchResult r;
  row.spec = "DFT(1024)", row.points = 1024, row.batch = 8192;
  failed.spec = "DFT(64)", failed.points = 64, failed.batch = 1;
  r.rows = {row, failed};
  const std::vector<std::string> lines = test::text_lines(measure::format_cuda_table(o, r));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_TRUE(contains(lines[0], "VkFFT (libvkfft-dev)")) << lines[0];
  EXPECT_TRUE(contains(lines[1], "vs VkFFT")) << lines[1];
  EXPECT_TRUE(contains(lines[2], "0.80x")) << lines[2];  // VkFFT's 1200 ns over splgen's 1500
  EXPECT_TRUE(contains(lines[4], "VkFFT failed at DFT(64): initializeVkFFT")) << lines[4];
  r.rows = {row};
  r.rows[0].vkfft_ns = 0;
  EXPECT_FALSE(contains(measure::format_cuda_table(o, r), "VkFFT"));  // not timed: no columns
}

TEST(CudaBenchOutput, NoDeviceIsCudaUnavailableOtherErrorsRuntimeErrors) {
  measure::CudaBenchRow row;
  std::string gpu;
  const std::string no_gpu = "ERROR no CUDA device (cudaGetDeviceCount): CUDA driver version is insufficient\n";
  EXPECT_THROW(measure::parse_cuda_output(no_gpu, 1, row, gpu), measure::CudaUnavailable);
  try {
    measure::parse_cuda_output("GPU X\nERROR the kernel's launch: invalid argument\n", 1, row, gpu);
    FAIL() << "no exception";
  } catch (const measure::CudaUnavailable &) {
    FAIL() << "a launch failure is not a missing GPU";
  } catch (const std::runtime_error &e) {
    EXPECT_EQ(std::string(e.what()), "the kernel's launch: invalid argument");
  }
  // No RESULT line (a crash, a missing library): the first line, with the exit status.
  EXPECT_THROW(measure::parse_cuda_output("./bench: error while loading shared libraries\n", 127, row, gpu),
               std::runtime_error);
  EXPECT_THROW(measure::parse_cuda_output("RESULT 1 2 x 4 5\n", 0, row, gpu), std::runtime_error);
}

TEST(CudaBenchOutput, AutoBatchFillsAtLeast256MiBWithinTheSizeLimit) {
  EXPECT_EQ(measure::auto_batch(1024, Precision::Double), 8192);  // x and y 1024 * 16 B * 8192 = 128 MiB each
  EXPECT_EQ(measure::auto_batch(1024, Precision::Float), 16384);
  EXPECT_EQ(measure::auto_batch(3000, Precision::Double), 2797);  // rounded up: 2796.2
  EXPECT_EQ(measure::auto_batch(3000, Precision::Float), 5593);   // rounded up: 5592.4
  EXPECT_EQ(measure::auto_batch(int64_t(1) << 26, Precision::Double), 1);
  EXPECT_EQ(measure::auto_batch(int64_t(1) << 24, Precision::Double), 1);
}

TEST(CudaBenchOutput, TableHasTheGpuAndOneRowPerSpec) {
  measure::CudaBenchOptions o;
  measure::CudaBenchResult r;
  r.gpu = "NVIDIA H200";
  measure::CudaBenchRow row;
  row.spec = "DFT(1024)", row.points = 1024, row.batch = 16384, row.splgen_ns = 2e5, row.cufft_ns = 1e5;
  row.error = 1e-15, row.error_reference = std::nan(""), row.copy_gbytes = 4000;
  r.rows = {row};
  const std::string table = measure::format_cuda_table(o, r);
  const std::vector<std::string> lines = test::text_lines(table);
  ASSERT_EQ(lines.size(), 3u) << table;
  EXPECT_TRUE(contains(lines[0], "NVIDIA H200")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "cudaEvent timing, interleaved, medians")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "nan above 2^14 points")) << lines[0];
  EXPECT_TRUE(contains(lines[2], "0.50x")) << lines[2];  // cuFFT's time over splgen's
  EXPECT_TRUE(contains(lines[2], "nan")) << lines[2];
  // 2 * 256 MiB per 200 us = 2684 GB/s, 67% of 4000
  EXPECT_TRUE(contains(lines[2], "2684.4")) << lines[2];
  EXPECT_TRUE(contains(lines[2], "67.1%")) << lines[2];
}

// What run_all.sh printed on an H200 (docs/bench/cuda-h200.txt), one spec with spaces in it.
const char *const kRunAllOutput = R"(SPEC 0 DFT(1024) batch 8192 double forward
GPU NVIDIA H200
RESULT 98436.8 69128.9 3.26e-16 1.93e-16 4082.13
SPEC 1 DFT(64 x 64) batch 2048 double forward
nvcc warning : something
GPU NVIDIA H200
RESULT 6.08055e+06 147091 3.06e-16 2.08e-16 4083
)";

TEST(CudaBenchOutput, ReadsWhatRunAllPrinted) {
  measure::CudaBenchOptions o;
  measure::CudaBenchResult r = measure::read_cuda_results(kRunAllOutput, o);
  EXPECT_EQ(r.gpu, "NVIDIA H200");
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[1].spec, "DFT(64 x 64)");
  EXPECT_EQ(r.rows[1].points, 4096);
  EXPECT_EQ(r.rows[1].batch, 2048);
  EXPECT_EQ(r.rows[1].cufft_ns, 147091);
  EXPECT_EQ(o.precision, Precision::Double);
  EXPECT_FALSE(o.inverse);
  const std::string mixed = std::string(kRunAllOutput) + "SPEC 2 DFT(8) batch 1 float forward\nRESULT 1 1 0 0 1\n";
  EXPECT_THROW(measure::read_cuda_results(mixed, o), std::runtime_error);
  const std::string failed = "SPEC 0 DFT(8) batch 1 double inverse\nERROR the kernel's launch: invalid argument\n";
  try {
    measure::read_cuda_results(failed, o);
    FAIL() << "no exception";
  } catch (const std::runtime_error &e) {
    EXPECT_EQ(std::string(e.what()), "DFT(8) failed: the kernel's launch: invalid argument");
  }
  EXPECT_THROW(measure::read_cuda_results("GPU X\nRESULT 1 2 3 4 5\n", o), std::runtime_error);  // no SPEC line
}

// The timing program compiles beside any kernel of the CUDA backend's signature.
TEST(CudaBenchProgram, CompilesWithNvcc) {
  const std::string nvcc = measure::find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (on PATH or /usr/local/cuda/bin/nvcc): install the CUDA toolkit to test this";
  measure::TempDir dir("splgen-cuda-program-test");
  dir.write("bench.cu", measure::cuda_bench_program());
  dir.write("kernel.cu", R"(#include <cuda_runtime.h>
extern "C" int k(float2 *y, const float2 *x, cudaStream_t s) {
  return int(cudaMemcpyAsync(y, x, 8 * 12 * 3 * sizeof(float2), cudaMemcpyDeviceToDevice, s));
}
)");
  const std::string command = "cd " + measure::shell_quote(dir.path().string()) + " && " + measure::shell_quote(nvcc) +
                              " -O3 -std=c++17 -arch=sm_90 -DKERNEL=k -DSPLGEN_FLOAT=1 -DRANK=2 -DN1=8 -DN2=12 -DBATCH=3 "
                              "-DSIGN=1 -DREPS=3 -DMIN_SECONDS=0.01 kernel.cu bench.cu -o bench -lcufft 2>&1";
  auto [status, output] = measure::run_command(command);
  EXPECT_EQ(status, 0) << command << "\n" << output;
  EXPECT_TRUE(std::filesystem::exists(dir.file("bench")));
  // With VkFFT (its header from libvkfft-dev; libcuda from the toolkit's link stubs).
  const std::string header = measure::find_vkfft_header();
  if (header.empty()) GTEST_SKIP() << "no VkFFT header (/usr/include/vkFFT.h, Debian's libvkfft-dev)";
  const std::string lib = (std::filesystem::path(nvcc).parent_path() / ".." / "lib64").string();
  const std::string with_vkfft = "cd " + measure::shell_quote(dir.path().string()) + " && " + measure::shell_quote(nvcc) +
                                 " -O1 -std=c++17 -arch=sm_90 -DKERNEL=k -DSPLGEN_FLOAT=0 -DRANK=1 -DN1=96 -DBATCH=3 -DSIGN=-1 "
                                 "-DREPS=3 -DMIN_SECONDS=0.01 -DSPLGEN_VKFFT=1 -I" +
                                 measure::shell_quote(std::filesystem::path(header).parent_path().string()) +
                                 " kernel.cu bench.cu -o bench_vkfft -lcufft -L" + measure::shell_quote(lib) +
                                 "/stubs -lcuda -lnvrtc 2>&1";
  dir.write("kernel.cu", R"(#include <cuda_runtime.h>
extern "C" int k(double2 *y, const double2 *x, cudaStream_t s) {
  return int(cudaMemcpyAsync(y, x, 96 * 3 * sizeof(double2), cudaMemcpyDeviceToDevice, s));
}
)");
  auto [vk_status, vk_output] = measure::run_command(with_vkfft);
  EXPECT_EQ(vk_status, 0) << with_vkfft << "\n" << vk_output;
}

class BenchCudaCliTest : public test::SplgenCommandTest {
 protected:
  BenchCudaCliTest() : SplgenCommandTest("splgen-bench-cuda-test") {}

  // Until the CUDA backend is built, gen --target cuda is an unknown target.
  bool have_cuda_target() { return splgen({"gen", "DFT(16)", "--target", "cuda"}).exit_code == 0; }
};

TEST_F(BenchCudaCliTest, OptionsThatNeedTheCudaTargetAreRefused) {
  expect_error({"bench", "DFT(16)", "--batch", "auto"}, "--batch auto needs --target cuda");
  expect_error({"bench", "DFT(16)", "--keep", "k"}, "need --target cuda");
  expect_error({"bench", "DFT(16)", "--target", "mpi", "--ranks", "2", "--arch", "sm_90"}, "need --target cuda");
  expect_error({"bench", "DFT(16)", "--target", "cuda", "--no-run"}, "--no-run needs --keep DIR");
  expect_error({"bench", "DFT(16)", "--target", "cuda", "--threads", "2"}, "not built for GPU kernels");
  expect_error({"bench", "DFT(16)", "--target", "cuda", "--in-place"}, "not built for GPU kernels");
  expect_error({"bench", "DFT(16)", "--target", "cuda", "--ranks", "2"}, "need --target mpi");
  expect_error({"bench", "DFT(16)", "--target", "cuda", "--batch", "0"}, "--batch 0");
}

TEST_F(BenchCudaCliTest, KeepNoRunWritesEachSpecsFilesAndTheScripts) {
  if (!have_cuda_target()) GTEST_SKIP() << "this build has no cuda backend (gen --target cuda)";
  const std::string keep = dir.file("keep");
  test::ProgramResult r = splgen({"bench", "--target", "cuda", "--sizes", "16,64", "--batch", "auto", "--keep", keep,
                                  "--no-run", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "run_all.sh")) << r.out;
  for (const char *index : {"0", "1"})
    for (const char *file : {"kernel.cu", "bench.cu", "build_and_run.sh"})
      EXPECT_TRUE(std::filesystem::exists(keep + "/" + index + "/" + file)) << index << "/" << file;
  const std::string run_all = test::read_text_file(keep + "/run_all.sh");
  EXPECT_TRUE(contains(run_all, "SPEC 0 DFT(16) batch 524288 double forward")) << run_all;  // x and y: 256 MiB of complex doubles
  EXPECT_TRUE(contains(run_all, "SPEC 1 DFT(64) batch 131072 double forward")) << run_all;
  const std::string script = test::read_text_file(keep + "/1/build_and_run.sh");
  EXPECT_TRUE(contains(script, "-DRANK=1 -DN1=64 -DBATCH=131072 -DSIGN=-1")) << script;
  EXPECT_TRUE(contains(script, "-lcufft")) << script;
  EXPECT_TRUE(contains(script, "if [ \"$1\" != --run-only ]; then")) << script;  // build all first, then time one by one
  EXPECT_TRUE(contains(run_all, "sh 1/build_and_run.sh \"$@\"")) << run_all;
  EXPECT_TRUE(contains(test::read_text_file(keep + "/0/kernel.cu"), "splgen_bench_kernel"));
  if (!measure::find_vkfft_header().empty())  // the GPU machine may have no libvkfft-dev: its header goes along
    EXPECT_TRUE(std::filesystem::exists(keep + "/vkfft/vkFFT.h"));
  EXPECT_TRUE(contains(script, "-DSPLGEN_VKFFT=1")) << script;  // used where the header and libcuda are
}

// GPU kernels go to 2^26 points (issue 19's largest size); the CPU's limit stays 2^24.
TEST_F(BenchCudaCliTest, GpuKernelsGoTo2e26) {
  if (!have_cuda_target()) GTEST_SKIP() << "this build has no cuda backend (gen --target cuda)";
  test::ProgramResult r = splgen({"bench", "--target", "cuda", "--sizes", "2^25,2^26", "--keep", dir.file("big"), "--no-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(test::read_text_file(dir.file("big") + "/run_all.sh"), "SPEC 1 DFT(67108864) batch 1 double forward"));
  expect_error({"bench", "--target", "cuda", "--sizes", "2^27", "--keep", dir.file("k"), "--no-run"}, "at most 2^26");
  expect_error({"gen", "DFT(2^27)", "--target", "cuda"}, "size limit of 2^26 = 67108864 points for a GPU kernel");
  expect_error({"gen", "DFT(2^25)"}, "size limit of 2^24");
  expect_error({"bench", "--sizes", "2^25"}, "at most 2^24");
}

TEST_F(BenchCudaCliTest, ResultsFileBecomesTheTable) {
  const std::string file = dir.write("results.txt", kRunAllOutput);
  test::ProgramResult r = splgen({"bench", "--target", "cuda", "--results", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = test::text_lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_TRUE(contains(lines[0], "NVIDIA H200, double, forward")) << lines[0];
  EXPECT_TRUE(contains(lines[2], "DFT(1024)") && contains(lines[2], "0.70x")) << lines[2];
  EXPECT_TRUE(contains(lines[3], "DFT(64 x 64)")) << lines[3];
  expect_error({"bench", "--target", "cuda", "--results", dir.file("missing.txt")}, "cannot read");
  expect_error({"bench", "--target", "cuda", "--results", file, "--sizes", "16"}, "no SPEC, --sizes");
  expect_error({"bench", "DFT(16)", "--results", file}, "need --target cuda");
}

// Where nvcc exists the kept files build (for sm_90; nothing is run).
TEST_F(BenchCudaCliTest, KeptFilesBuildWithNvcc) {
  if (!have_cuda_target()) GTEST_SKIP() << "this build has no cuda backend (gen --target cuda)";
  const std::string nvcc = measure::find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (on PATH or /usr/local/cuda/bin/nvcc): install the CUDA toolkit to test this";
  const std::string keep = dir.file("keep");
  const std::vector<std::vector<std::string>> cases = {{"DFT(64)", "--batch", "3", "--inverse"},
                                                       {"DFT(8 x 16,-1)", "--precision", "float"}};
  for (std::size_t c = 0; c < cases.size(); ++c) {
    std::vector<std::string> args = {"bench", "--target", "cuda", "--keep", keep + std::to_string(c), "--no-run"};
    args.insert(args.end(), cases[c].begin(), cases[c].end());
    test::ProgramResult r = splgen(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string command = "NVCC=" + measure::shell_quote(nvcc) + " ARCH=sm_90 sh " +
                                measure::shell_quote(keep + std::to_string(c) + "/0/build_and_run.sh") + " --build-only 2>&1";
    auto [status, output] = measure::run_command(command);
    EXPECT_EQ(status, 0) << cases[c][0] << ": " << output;
    EXPECT_TRUE(std::filesystem::exists(keep + std::to_string(c) + "/0/bench")) << cases[c][0];
  }
}

// Without a GPU the timing program says so; splgen reports it in one line, exit 2.
TEST_F(BenchCudaCliTest, NoGpuIsAOneLineError) {
  if (measure::have_program("nvidia-smi")) GTEST_SKIP() << "this machine has a GPU (nvidia-smi): the bench would run";
  if (!have_cuda_target()) GTEST_SKIP() << "this build has no cuda backend (gen --target cuda)";
  if (measure::find_nvcc().empty()) {
    expect_error({"bench", "DFT(16)", "--target", "cuda"}, "install the CUDA toolkit");
    return;
  }
  expect_error({"bench", "DFT(16)", "--target", "cuda", "--arch", "sm_90", "--quiet"}, "no CUDA device");
}

}  // namespace
}  // namespace splgen
