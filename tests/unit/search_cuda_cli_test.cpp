// splgen search --target cuda (docs/cuda.md, "Search"): the candidates (distinct kernels, the
// default first, each one a knob away from it before two), the winner among timed rows, the
// files --keep-dir --no-run writes for a GPU machine, and the table --results makes of what
// they printed there. No GPU is assumed: timings come from a results file.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "generator/measure/compile.h"
#include "generator/search/cuda_search.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;

driver::GenOptions cuda_options(int64_t batch) {
  driver::GenOptions g;
  g.target = "cuda";
  g.io.batch = batch;
  return g;
}

TEST(CudaSearch, CandidatesAreDistinctKernelsTheDefaultFirst) {
  const std::vector<measure::CudaVariant> c = search::cuda_candidates("DFT(256)", cuda_options(64), 100);
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c[0], (measure::CudaVariant{0, GpuKnobs{}}));
  std::set<std::string> labels, sources;
  for (const measure::CudaVariant &v : c) {
    labels.insert(v.label());
    driver::GenOptions g = cuda_options(64);
    g.codelet_max = v.codelet_max, g.gpu = v.knobs;
    std::string source = driver::run_pipeline("DFT(256)", g).source;
    sources.insert(source.substr(source.find("#include")));
  }
  EXPECT_EQ(labels.size(), c.size());
  EXPECT_EQ(sources.size(), c.size());  // no two candidates print the same kernel
  EXPECT_EQ(search::cuda_candidates("DFT(256)", cuda_options(64), 3).size(), 3u);
  // Past one group's size the four-step's factor is searched too.
  bool factor = false;
  for (const measure::CudaVariant &v : search::cuda_candidates("DFT(65536)", cuda_options(1), 40)) factor |= v.knobs.factor_max != 1024;
  EXPECT_TRUE(factor);
}

TEST(CudaSearch, TheBestRowIsTheFastestAgainstCufftAmongCorrectOnes) {
  std::vector<measure::CudaBenchRow> rows(4);
  rows[0].splgen_ns = 100, rows[0].cufft_ns = 80;  // 0.8x
  rows[1].splgen_ns = 90, rows[1].cufft_ns = 99;   // 1.1x
  rows[2].splgen_ns = 50, rows[2].cufft_ns = 99, rows[2].error = 0.5;  // fast but wrong
  rows[3].failure = "nvcc: error";
  EXPECT_EQ(search::best_cuda_row(rows, Precision::Double), 1u);
  rows[1].error = std::nan("");
  EXPECT_EQ(search::best_cuda_row(rows, Precision::Double), 0u);
  EXPECT_FALSE(search::best_cuda_row({rows[2], rows[3]}, Precision::Double).has_value());
}

TEST(CudaSearch, VariantLabelsRoundTrip) {
  measure::CudaVariant v;
  v.codelet_max = 16, v.knobs.direct_stores = true, v.knobs.block_threads = 64;
  EXPECT_EQ(measure::parse_cuda_variant(v.label()), v);
  EXPECT_EQ(measure::parse_cuda_variant("codelet=default"), measure::CudaVariant{});
  EXPECT_THROW(measure::parse_cuda_variant("block=64"), std::invalid_argument);
  EXPECT_THROW(measure::parse_cuda_variant("codelet=99,block=64"), std::invalid_argument);
}

// What a search's run_all.sh printed: three candidates, one of which did not build.
const char *const kSearchOutput = R"(SPEC 0 DFT(1024) batch 8192 double forward
KNOBS codelet=default,block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=staged,padding=on,table=4096,factor=1024,columns=0,shared=98304
GPU NVIDIA H200
RESULT 98436.8 69128.9 3.26e-16 1.93e-16 4082.13
SPEC 1 DFT(1024) batch 8192 double forward
KNOBS codelet=default,block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=direct,padding=on,table=4096,factor=1024,columns=0,shared=98304
GPU NVIDIA H200
RESULT 65000 69000 3.1e-16 1.9e-16 4080
SPEC 2 DFT(1024) batch 8192 double forward
KNOBS codelet=8,block=256,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=staged,padding=on,table=4096,factor=1024,columns=0,shared=98304
ERROR the kernel's launch: too many resources requested for launch
)";

class SearchCudaCliTest : public test::SplgenCommandTest {
 protected:
  SearchCudaCliTest() : SplgenCommandTest("splgen-search-cuda-test") {}
};

TEST_F(SearchCudaCliTest, ResultsPickTheFastestAgainstCufft) {
  const std::string file = dir.write("results.txt", kSearchOutput);
  test::ProgramResult r = splgen({"search", "DFT(1024)", "--target", "cuda", "--results", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = test::text_lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  EXPECT_TRUE(contains(lines[0], "DFT(1024) batch 8192 (cuda, double, forward) on NVIDIA H200: 3 candidates")) << lines[0];
  EXPECT_TRUE(contains(lines[2], "1.06x") && contains(lines[2], "stores=direct")) << lines[2];
  EXPECT_TRUE(contains(lines[3], "0.70x") && contains(lines[3], "(default)")) << lines[3];
  EXPECT_TRUE(contains(lines[4], "failed") && contains(lines[4], "too many resources")) << lines[4];
  EXPECT_EQ(lines[5], "best: --gpu-knobs \"block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=direct,padding=on,table=4096,"
                      "factor=1024,columns=0,shared=98304\"  1.06x cuFFT (default 0.70x)");
}

// The winner goes to wisdom, keyed by the batch; gen --target cuda --wisdom takes its knobs
// (for that batch only; another batch keeps the defaults, with a note).
TEST_F(SearchCudaCliTest, WisdomKeepsTheWinnerForGen) {
  const std::string file = dir.write("results.txt", kSearchOutput), wisdom = dir.file("w.json");
  test::ProgramResult r = splgen({"search", "DFT(1024)", "--target", "cuda", "--results", file, "--wisdom", wisdom});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = test::read_text_file(wisdom);
  EXPECT_TRUE(contains(text, "\"isa\": \"cuda\"")) << text;
  EXPECT_TRUE(contains(text, "\"batch\": 8192")) << text;
  EXPECT_TRUE(contains(text, "\"cpu\": \"NVIDIA H200\"")) << text;
  EXPECT_TRUE(contains(text, "stores=direct")) << text;
  test::ProgramResult g = splgen({"gen", "DFT(1024)", "--target", "cuda", "--batch", "8192", "--wisdom", wisdom});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_TRUE(contains(g.out, "// GPU knobs (--gpu-knobs): block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=direct")) << g.out.substr(0, 1500);
  EXPECT_TRUE(g.err.empty()) << g.err;
  test::ProgramResult other = splgen({"gen", "DFT(1024)", "--target", "cuda", "--batch", "4", "--wisdom", wisdom});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_TRUE(contains(other.out, "stores=staged")) << other.out.substr(0, 1500);
  EXPECT_TRUE(contains(other.err, "are for other batches than 4")) << other.err;
  // The precision, direction and spec must be those of the run.
  expect_error({"search", "DFT(1024)", "--target", "cuda", "--results", file, "--precision", "float"}, "give --precision");
  expect_error({"search", "DFT(512)", "--target", "cuda", "--results", file}, "of DFT(1024), not DFT(512)");
  expect_error({"search", "DFT(64)", "--target", "cuda", "--keep-dir", "k", "--no-run", "--wisdom", wisdom}, "--wisdom with --no-run");
}

TEST_F(SearchCudaCliTest, KeepDirNoRunWritesEveryCandidate) {
  const std::string keep = dir.file("k");
  test::ProgramResult r = splgen({"search", "DFT(256)", "--target", "cuda", "--batch", "64", "--keep-dir", keep, "--no-run",
                                  "--max-candidates", "5", "--arch", "sm_90"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "wrote 5 candidates")) << r.out;
  const std::string run_all = test::read_text_file(keep + "/run_all.sh");
  EXPECT_TRUE(contains(run_all, "SPEC 4 DFT(256) batch 64 double forward")) << run_all;
  EXPECT_TRUE(contains(run_all, "KNOBS codelet=default,block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=staged,padding=on,"
                                "table=4096,factor=1024,columns=0,shared=232448"))  // sm_90's shared memory
      << run_all;
  EXPECT_TRUE(contains(test::read_text_file(keep + "/4/build_and_run.sh"), "-arch=\"${ARCH:-sm_90}\""));
}

TEST_F(SearchCudaCliTest, BadOptionsAreOneLine) {
  expect_error({"search", "DFT(64)", "--batch", "8"}, "need --target cuda");
  expect_error({"search", "DFT(64)", "--gpu-knobs", "block=64"}, "need --target cuda");
  expect_error({"search", "DFT(64)", "--target", "cuda", "--isa", "avx2"}, "are the CPU's");
  expect_error({"search", "DFT(64)", "--target", "cuda", "--no-run"}, "--no-run needs --keep-dir DIR");
  expect_error({"search", "DFT(64)", "--target", "cuda", "--batch", "0", "--keep-dir", "k", "--no-run"}, "--batch 0");
  expect_error({"search", "DFT(64)", "--target", "cuda", "--gpu-knobs", "stores=maybe"}, "stores=maybe: expected staged or direct");
  expect_error({"search", "DFT(64)", "--target", "cuda", "--results", dir.file("none.txt")}, "cannot read");
  const std::string bench = dir.write("bench.txt", "SPEC 0 DFT(8) batch 1 double forward\nGPU X\nRESULT 1 2 0 0 1\n");
  expect_error({"search", "DFT(8)", "--target", "cuda", "--results", bench}, "not search's");
  expect_error({"search", "DFT(64)", "--target", "opencl"}, "--target");
}

// Without a GPU (or nvcc) the search stops at its first candidate, in one line.
TEST_F(SearchCudaCliTest, NoGpuIsAOneLineError) {
  if (measure::have_program("nvidia-smi")) GTEST_SKIP() << "this machine has a GPU (nvidia-smi): the search would run";
  if (measure::find_nvcc().empty()) {
    expect_error({"search", "DFT(16)", "--target", "cuda", "--quiet"}, "install the CUDA toolkit");
    return;
  }
  expect_error({"search", "DFT(16)", "--target", "cuda", "--arch", "sm_90", "--max-candidates", "2", "--quiet"},
               "search --target cuda: no CUDA device");
}

}  // namespace
}  // namespace splgen
