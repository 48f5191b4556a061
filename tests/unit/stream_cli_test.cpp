// The command line of streamed kernels (docs/streaming.md): gen/lower with the stream tag,
// --buffers, --local-memory, --dma; bad values are one-line errors with a non-zero exit.
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;
using test::ProgramResult;

class StreamCliTest : public test::SplgenCommandTest {
 protected:
  StreamCliTest() : SplgenCommandTest("splgen-stream-cli") {}
};

TEST_F(StreamCliTest, LowerShowsTheDmaLoop) {
  ProgramResult r = splgen({"lower", "stream(4)[ DFT(256) ]", "--dump-after=loops", "--buffers", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *part : {"buffer local", "dma_get local", "dma_put", "dma_wait tag"})
    EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
}

TEST_F(StreamCliTest, GenPrintsBothEntryPointsAndTheChosenEngine) {
  ProgramResult thread = splgen({"gen", "stream(4)[ I(8) (x) DFT(16) ]", "--name", "k"});
  ASSERT_EQ(thread.exit_code, 0) << thread.err;
  for (const char *part : {"#include <splgen/runtime/dma.h>", "extern \"C\" void k(double *__restrict y",
                           "k_dma(double *__restrict y, const double *__restrict x, splgen::runtime::dma_engine *dma)",
                           "copy_thread_engine", "dma->get(", "dma->put(", "dma->wait("})
    EXPECT_TRUE(contains(thread.out, part)) << part;
  ProgramResult sync = splgen({"gen", "stream(4)[ I(8) (x) DFT(16) ]", "--name", "k", "--dma", "sync"});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;
  EXPECT_TRUE(contains(sync.out, "thread_default_engine<splgen::runtime::sync_engine>")) << sync.out;
  EXPECT_EQ(splgen({"gen", "stream(4)[ I(8) (x) DFT(16) ]", "--name", "k"}).out, thread.out) << "deterministic";
}

// --stream: the fewest chunks whose buffers fit --local-memory; half as many do not fit.
TEST_F(StreamCliTest, StreamChoosesTheChunksFromTheLocalMemory) {
  ProgramResult r = splgen({"gen", "DFT(4096)", "--stream", "--local-memory", "65536"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "// spec: stream(4)[ DFT(4096) ]")) << r.out.substr(0, 400);
  EXPECT_EQ(splgen({"gen", "stream(4)[ DFT(4096) ]", "--local-memory", "65536"}).exit_code, 0);
  expect_error({"gen", "stream(2)[ DFT(4096) ]", "--local-memory", "65536"}, "local memory of 65536 bytes is too small");
  expect_error({"gen", "DFT(4096)", "--stream"}, "--stream picks s from --local-memory BYTES");
  expect_error({"gen", "DFT(4096)", "--stream", "--local-memory", "100"}, "--stream: no stream(s)[DFT(4096)] fits");
  expect_error({"gen", "stream(4)[ DFT(4096) ]", "--stream", "--local-memory", "65536"}, "--stream: the spec has a tag already");
}

TEST_F(StreamCliTest, BadParametersAreOneLineErrors) {
  expect_error({"gen", "stream(4)[ DFT(1024) ]", "--local-memory", "4096"}, "local memory of 4096 bytes is too small");
  expect_error({"gen", "stream(4)[ DFT(1024) ]", "--buffers", "0"}, "--buffers");
  expect_error({"gen", "stream(4)[ DFT(1024) ]", "--dma", "magic"}, "--dma");
  expect_error({"gen", "stream(4)[ DFT(1024) ]", "--local-memory", "-5"}, "--local-memory");
  expect_error({"gen", "stream(0)[ DFT(1024) ]"}, "parameters must be positive");
  expect_error({"gen", "DFT(1024)", "--local-memory", "4096"}, "the spec has no stream(s), tiled(k) or cubic(k) tag");
  expect_error({"gen", "stream(3)[ DFT(64) ]"}, "no rule of rules/stream.rules streams this formula");
  expect_error({"gen", "smp(2,4)[ I(2) (x) stream(4)[ I(4) (x) DFT(16) ] ]"}, "inside another loop is not built yet");
}

}  // namespace
}  // namespace splgen
