// The GPU form's parameters (generator/ir/gpu_knobs.h): their text form, which --gpu-knobs
// reads and wisdom files store, each architecture's shared memory (--arch), and gen's
// one-line errors for a bad knob, a bad architecture, or either with a CPU target.
#include <gtest/gtest.h>

#include <stdexcept>

#include "generator/ir/gpu_knobs.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;

TEST(GpuKnobs, TextRoundTripsEveryKnob) {
  GpuKnobs k;
  EXPECT_EQ(to_string(k), "block=128,grid_block=256,group=1024,min_blocks=0,staging=warp,stores=staged,padding=on,table=4096,factor=1024,columns=0,shared=98304");
  k.block_threads = 256, k.grid_block_threads = 64, k.staging = GpuStaging::Sector, k.direct_stores = true;
  k.padding = false, k.max_table = 0, k.factor_max = 512, k.shared_bytes = 232448, k.group_threads = 64, k.min_blocks = 2, k.columns = 4;
  EXPECT_EQ(parse_gpu_knobs(to_string(k)), k);
  EXPECT_EQ(parse_gpu_knobs(""), GpuKnobs{});
}

TEST(GpuKnobs, ASubsetChangesOnlyItsKnobs) {
  GpuKnobs base;
  base.shared_bytes = 64 * 1024;
  const GpuKnobs k = parse_gpu_knobs("stores=direct,block=512", base);
  EXPECT_TRUE(k.direct_stores);
  EXPECT_EQ(k.block_threads, 512);
  EXPECT_EQ(k.shared_bytes, 64 * 1024);
  EXPECT_EQ(k.staging, GpuStaging::Warp);
}

TEST(GpuKnobs, BadTextNamesTheKeyAndColumn) {
  auto message = [](const std::string &text) {
    try {
      parse_gpu_knobs(text);
    } catch (const std::invalid_argument &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("block=100"), "--gpu-knobs: column 1: block=100: expected a multiple of 32 in 32..1024");
  EXPECT_EQ(message("stores=direct,pad=on"),
            "--gpu-knobs: column 15: unknown knob 'pad' (block, grid_block, group, min_blocks, staging, stores, padding, table, factor, columns, shared)");
  EXPECT_EQ(message("staging"), "--gpu-knobs: column 1: 'staging' is not KEY=VALUE");
  EXPECT_EQ(message("padding=on,"), "--gpu-knobs: column 12: '' is not KEY=VALUE");
  EXPECT_TRUE(contains(message("table=-1"), "table=-1: expected"));
  EXPECT_TRUE(contains(message("factor=1x"), "factor=1x: expected"));
  EXPECT_TRUE(contains(message("shared=99999999999999999999"), "shared="));
}

TEST(GpuKnobs, EachArchitectureHasItsSharedMemory) {
  EXPECT_EQ(gpu_arch_shared_bytes("sm_90"), 227 * 1024);
  EXPECT_EQ(gpu_arch_shared_bytes("90a"), 227 * 1024);
  EXPECT_EQ(gpu_arch_shared_bytes("compute_80"), 163 * 1024);
  EXPECT_EQ(gpu_arch_shared_bytes("sm_75"), 64 * 1024);
  EXPECT_EQ(gpu_arch_shared_bytes("sm_86"), 99 * 1024);
  EXPECT_THROW(gpu_arch_shared_bytes("sm_61"), std::invalid_argument);
  EXPECT_THROW(gpu_arch_shared_bytes("hopper"), std::invalid_argument);
}

class GpuKnobsCliTest : public test::SplgenCommandTest {
 protected:
  GpuKnobsCliTest() : SplgenCommandTest("splgen-gpu-knobs-cli") {}
};

TEST_F(GpuKnobsCliTest, GenTakesTheKnobsAndTheArchitecture) {
  test::ProgramResult r = splgen({"gen", "DFT(64)", "--target", "cuda", "--batch", "8", "--arch", "sm_90", "--gpu-knobs",
                                  "staging=sector,stores=direct"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "// GPU knobs (--gpu-knobs): block=128,grid_block=256,group=1024,min_blocks=0,staging=sector,stores=direct,padding=on,"
                              "table=4096,factor=1024,columns=0,shared=232448"))
      << r.out.substr(0, 2000);
}

TEST_F(GpuKnobsCliTest, BadKnobsAndArchitecturesAreOneLine) {
  expect_error({"gen", "DFT(64)", "--target", "cuda", "--gpu-knobs", "block=7"}, "--gpu-knobs: column 1: block=7");
  expect_error({"gen", "DFT(64)", "--target", "cuda", "--arch", "sm_61"}, "--arch sm_61: unknown GPU architecture");
  expect_error({"gen", "DFT(64)", "--gpu-knobs", "block=64"}, "are for GPU targets (--target cuda), not 'cpp'");
  expect_error({"gen", "DFT(64)", "--arch", "sm_90"}, "are for GPU targets");
}

}  // namespace
}  // namespace splgen
