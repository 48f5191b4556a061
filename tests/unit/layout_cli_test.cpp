// The command line of block-layout kernels (docs/streaming.md, "Block data layouts"): gen and
// lower with tiled(k)/cubic(k) specs and --layout; bad values are one-line errors, exit 2.
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;
using test::ProgramResult;

class LayoutCliTest : public test::SplgenCommandTest {
 protected:
  LayoutCliTest() : SplgenCommandTest("splgen-layout-cli") {}
};

TEST_F(LayoutCliTest, LowerShowsWholeTileTransfers) {
  // tiled(4)[DFT(16 x 16)] in the block layout: stripes of 64, then columns of 4 tiles of 16
  ProgramResult r = splgen({"lower", "tiled(4)[DFT(16 x 16)]", "--layout", "block", "--dump-after=loops"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *part : {"dma_get local2[64*", "<- x[64*", "4 blocks (b) of 16", "dma_wait tag"})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
}

TEST_F(LayoutCliTest, GenNamesTheLayoutAndIsDeterministic) {
  for (const char *layout : {"natural", "block", "to-block", "from-block"}) {
    ProgramResult r = splgen({"gen", "cubic(2)[DFT(8 x 8 x 8)]", "--layout", layout});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, std::string("data layout: ") + layout)) << layout;
    EXPECT_TRUE(contains(r.out, "dma->get(")) << layout;
    EXPECT_EQ(splgen({"gen", "cubic(2)[DFT(8 x 8 x 8)]", "--layout", layout}).out, r.out) << "deterministic";
  }
}

TEST_F(LayoutCliTest, BadParametersAreOneLineErrors) {
  expect_error({"gen", "tiled(3)[DFT(16 x 16)]"}, "tiled(3): the block size k must divide n = 16");
  expect_error({"gen", "cubic(3)[DFT(8 x 8 x 8)]", "--layout", "block"}, "cubic(3): the block size k must divide n = 8");
  expect_error({"gen", "tiled(4)[DFT(16 x 16)]", "--local-memory", "1000"}, "local memory of 1000 bytes is too small");
  expect_error({"gen", "tiled(4)[DFT(16 x 16)]", "--layout", "diagonal"}, "--layout");
  expect_error({"gen", "DFT(256)", "--layout", "block"}, "--layout block: needs a tiled(k)[DFT(n x n)]");
  expect_error({"gen", "tiled(4)[DFT(16 x 16)]", "--layout", "block", "--buffers", "0"}, "--buffers");
}

}  // namespace
}  // namespace splgen
