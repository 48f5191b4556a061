// The command line of FFTW-style layouts (docs/transforms.md, "Layouts"): --batch, --istride,
// --idist, --ostride, --odist, --in-place, --format split; their signatures and header
// comments; bad values are one-line errors, exit 2.
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;
using test::ProgramResult;

class IoLayoutCliTest : public test::SplgenCommandTest {
 protected:
  IoLayoutCliTest() : SplgenCommandTest("splgen-io-layout-cli") {}
};

TEST_F(IoLayoutCliTest, BatchWithStridesKeepsTheSignatureAndStatesTheLayout) {
  std::vector<std::string> args = {"gen", "DFT(256)", "--batch", "1000", "--istride", "1", "--idist", "256",
                                   "--ostride", "1000", "--odist", "1"};
  ProgramResult r = splgen(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "batch 1000: y[b + 1000*j], x[256*b + j] (j < 256), interleaved complex, out-of-place"));
  EXPECT_TRUE(contains(r.out, "void splgen_dft256_b1000_strided(double *__restrict y, const double *__restrict x)"));
  EXPECT_EQ(splgen(args).out, r.out) << "deterministic";
}

TEST_F(IoLayoutCliTest, InPlaceAndSplitSignatures) {
  ProgramResult r = splgen({"gen", "DFT(64)", "--in-place", "--header", dir.file("k.h"), "-o", dir.file("k.cpp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header = test::read_text_file(dir.file("k.h"));
  EXPECT_TRUE(contains(header, "void splgen_dft64_inplace(double *__restrict xy);")) << header;
  EXPECT_TRUE(contains(header, "interleaved complex, in-place")) << header;
  r = splgen({"gen", "DFT(64)", "--format", "split", "--precision", "float"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "void splgen_dft64f_split(float *__restrict yr, float *__restrict yi, const float "
                              "*__restrict xr, const float *__restrict xi)")) << r.out.substr(0, 800);
  r = splgen({"gen", "DFT(64)", "--format", "split", "--in-place", "--isa", "avx2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "splgen_dft64_inplace_split(double *__restrict xyr, double *__restrict xyi)"));
  r = splgen({"gen", "DCT2(8)", "--batch", "2", "--in-place", "--istride", "3", "--ostride", "3", "--idist", "1", "--odist", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "batch 2: xy[b + 3*j] (j < 8), reals, in-place")) << r.out.substr(0, 400);
}

// FFTW's padded in-place r2c / c2r layout: one buffer, the real side of each transform in
// 2 (n/2+1) reals, read and written in place.
TEST_F(IoLayoutCliTest, RealDftsInPlaceInFftwsPaddedLayout) {
  ProgramResult r = splgen({"gen", "RDFT(8)", "--in-place", "--header", dir.file("r.h"), "-o", dir.file("r.cpp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header = test::read_text_file(dir.file("r.h"));
  EXPECT_TRUE(contains(header, "void splgen_rdft8_inplace(double *__restrict xy);")) << header;
  EXPECT_TRUE(contains(header, "y = xy[j], x = xy[j] (j < 5 out, 8 in; y in complex numbers, x in reals), "
                               "y: interleaved complex, x: reals, in-place")) << header;
  r = splgen({"gen", "IRDFT(16)", "--in-place", "--batch", "3", "--precision", "float"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "batch 3: y = xy[18*b + j], x = xy[9*b + j] (j < 16 out, 9 in; y in reals, x in complex "
                              "numbers)")) << r.out.substr(0, 600);
  EXPECT_TRUE(contains(r.out, "void splgen_irdft16f_b3_inplace(float *__restrict xy)")) << r.out.substr(0, 600);
}

// FFTW's split r2c / c2r: the complex side in two arrays, the real side one.
TEST_F(IoLayoutCliTest, RealDftsInSplitFormat) {
  ProgramResult r = splgen({"gen", "RDFT(16)", "--format", "split", "--header", dir.file("s.h"), "-o", dir.file("s.cpp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string header = test::read_text_file(dir.file("s.h"));
  EXPECT_TRUE(contains(header, "void splgen_rdft16_split(double *__restrict yr, double *__restrict yi, const double "
                               "*__restrict x);")) << header;
  EXPECT_TRUE(contains(header, "y: split complex (re, im arrays), x: reals, out-of-place")) << header;
  r = splgen({"gen", "IRDFT(9)", "--format", "split", "--batch", "2", "--isa", "avx2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "splgen_irdft9_b2_split(double *__restrict y, const double *__restrict xr, const double "
                              "*__restrict xi)")) << r.out.substr(0, 800);
  EXPECT_TRUE(contains(r.out, "y: reals, x: split complex (re, im arrays), out-of-place")) << r.out.substr(0, 800);
}

// bench with a layout (complex and real kinds)

// bench with a layout (complex and real kinds): the kernel, the contiguous kernel and FFTW's
// guru plans of both, each
// checked against fftwl (the error column) before it is timed.
TEST_F(IoLayoutCliTest, BenchTimesTheLayoutAgainstFftwsGuruPlan) {
  for (std::vector<std::string> layout : {std::vector<std::string>{"--batch", "4", "--ostride", "4", "--odist", "1"},
                                          {"--in-place", "--batch", "3"}, {"--format", "split"},
                                          {"--format", "split", "--in-place", "--inverse"}, {"RDFT(12)", "--batch", "3", "--ostride", "2"},
                                          {"IRDFT(13)", "--batch", "2", "--istride", "3"}, {"DCT2(12)", "--batch", "2", "--in-place"},
                                          {"RDFT(12)", "--batch", "2", "--in-place"}, {"IRDFT(12)", "--in-place"},
                                          {"RDFT(12)", "--format", "split", "--batch", "2"}, {"IRDFT(11)", "--format", "split"},
                                          {"DFT(4 x 6)", "--batch", "3", "--inembed", "4x8", "--onembed", "5 x 7", "--ostride", "2"}}) {
    const bool real = layout.front().find('(') != std::string::npos;  // a real spec first
    std::vector<std::string> args = {"bench", real ? layout.front() : "DFT(12)", "--isa", "scalar", "--reps", "3", "--min-time-ms", "0.05", "--quiet",
                                     "--json", dir.file("b.json")};
    args.insert(args.end(), layout.begin() + real, layout.end());
    ProgramResult r = splgen(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char *column : {"splgen scalar contiguous", "FFTW_MEASURE contiguous", "vs scalar contiguous", "vs MEASURE"})
      EXPECT_TRUE(contains(r.out, column)) << column << "\n" << r.out;
    std::string json = test::read_text_file(dir.file("b.json"));
    EXPECT_TRUE(contains(json, "\"layout\"")) << json;
    std::size_t at = json.find("\"error\": {");
    ASSERT_NE(at, std::string::npos) << json;
    std::string errors = json.substr(at, json.find('}', at) - at);
    EXPECT_FALSE(contains(errors, "null")) << errors;
    for (const char *id : {"splgen_scalar", "splgen_contiguous", "fftw_measure", "fftw_measure_contiguous"})
      EXPECT_TRUE(contains(errors, id)) << errors;
  }
  expect_error({"bench", "WHT(16)", "--batch", "2"}, "bench with a layout compares with FFTW's plan of the kind");
  expect_error({"bench", "DFT(16)", "--batch", "2", "--threads", "2"}, "bench with a layout");
}

// FFTW's inembed/onembed: the header comment states the embedding; bench checks the kernel
// and FFTW's plan of the same embedding against fftwl on the logical data (the error column).
TEST_F(IoLayoutCliTest, EmbeddedLayoutsAreStatedAndBenchedAgainstFftw) {
  ProgramResult r = splgen({"gen", "DFT(64 x 48)", "--batch", "10", "--inembed", "64x50", "--onembed", "70 x 48"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "batch 10: y[3360*b + (48*j1 + j2)], x[3200*b + (50*j1 + j2)] (j < 3072; y in 70 x 48, "
                              "x in 64 x 50, j = j1*48 + j2), interleaved complex, out-of-place")) << r.out.substr(0, 600);
  r = splgen({"gen", "RDFT(4 x 6)", "--batch", "2", "--inembed", "4x8", "--onembed", "5x5"});  // the complex side 4 x 4
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "batch 2: y[25*b + (5*j1 + j2)], x[32*b + (8*j1 + j2)] (j < 16 out, 24 in; y in 5 x 5, x in "
                              "4 x 8, y's j = j1*4 + j2, x's j = j1*6 + j2), y: interleaved complex, x: reals")) << r.out.substr(0, 600);
  // complex; r2c and c2r (Hermitian input) of rank 2 and 3, the complex side n/2+1 in the last
  // dimension; r2r
  for (std::vector<std::string> layout : {std::vector<std::string>{"DFT(4 x 6)", "--batch", "3", "--inembed", "4x8", "--onembed", "5x7", "--ostride", "2"},
                                          {"RDFT(4 x 6)", "--batch", "2", "--inembed", "4x8", "--onembed", "5x5"},
                                          {"IRDFT(6 x 5)", "--batch", "2", "--inembed", "7x4", "--onembed", "6x6", "--istride", "2"},
                                          {"RDFT(2 x 3 x 4)", "--onembed", "2x4x4"}, {"DCT2(4 x 4)", "--batch", "2", "--onembed", "5x5"}}) {
    std::vector<std::string> args = {"bench", "--isa", "scalar", "--reps", "3", "--min-time-ms", "0.05", "--quiet", "--json", dir.file("e.json")};
    args.insert(args.begin() + 1, layout.begin(), layout.end());
    r = splgen(args);
    ASSERT_EQ(r.exit_code, 0) << layout.front() << ": " << r.err;
    const std::string json = test::read_text_file(dir.file("e.json"));
    const std::size_t errors = json.find("\"error\": {");
    ASSERT_NE(errors, std::string::npos) << json;
    for (const char *id : {"splgen_scalar", "fftw_measure"}) {
      const std::size_t at = json.find(std::string("\"") + id + "\": ", errors);
      ASSERT_NE(at, std::string::npos) << id << "\n" << json;
      EXPECT_LT(std::stod(json.substr(at + std::string(id).size() + 4)), 1e-12) << layout.front() << " " << id << "\n" << json;
    }
  }
}

TEST_F(IoLayoutCliTest, BadLayoutsAreOneLineErrors) {
  expect_error({"gen", "DFT(8)", "--batch", "0"}, "--batch 0: the number of transforms must be at least 1");
  expect_error({"gen", "DFT(8)", "--istride", "-1"}, "strides must be at least 1");
  expect_error({"gen", "DFT(8)", "--ostride", "0"}, "strides must be at least 1");
  expect_error({"gen", "DFT(8)", "--batch", "2", "--idist", "-8"}, "distances must not be negative");
  expect_error({"gen", "DFT(8)", "--batch", "2", "--odist", "4"}, "two outputs of the 2 x 8 elements fall on one element");
  expect_error({"gen", "DFT(8)", "--batch", "3", "--ostride", "2", "--odist", "1"}, "fall on one element");
  expect_error({"gen", "RDFT(8)", "--in-place", "--batch", "2", "--idist", "9"},
               "--in-place: transform 1 shares reals of the buffer with an earlier one");
  expect_error({"gen", "DFT(8)", "--in-place", "--istride", "2"}, "--in-place: input and output layouts must be the same");
  expect_error({"gen", "DCT2(8)", "--format", "split"}, "--format split: DCT2(8) has no complex side");
  expect_error({"gen", "RDFT(4 x 6)", "--in-place"}, "with a multi-dimensional real DFT (RDFT(4 x 6)) are not built yet");
  expect_error({"gen", "IRDFT(4 x 6)", "--format", "split"}, "are not built yet");
  expect_error({"gen", "RDFT(8)", "--format", "split", "--in-place"}, "--format split --in-place: RDFT(8) has a real side");
  expect_error({"gen", "DFT(8)", "--format", "planar"}, "--format");
  expect_error({"gen", "DFT(64)", "--batch", "2", "--threads", "2"}, "with threads, ranks, a target other than cpp or cuda, streamed loops, tags or block layouts are not built yet");
  expect_error({"gen", "DFT(8)", "--in-place", "--wisdom", "none.wisdom"}, "--wisdom with --batch");
  expect_error({"gen", "DFT(64)", "--batch", "2", "--target", "mpi", "--ranks", "2"}, "with threads, ranks, a target other than cpp or cuda");
  expect_error({"gen", "DFT(8)", "--batch", "x"}, "--batch");
  expect_error({"gen", "DFT(4 x 6)", "--inembed", "4 y 6"}, "--inembed: '4 y 6': expected dimensions like \"64 x 50\"");
  expect_error({"gen", "DFT(4 x 6)", "--onembed", "4x5"}, "--onembed 4x5: dimension 2 of the embedding (5) is smaller than the transform's (6)");
  expect_error({"gen", "DFT(4 x 6)", "--inembed", "4"}, "--inembed 4: the transform has 2 dimensions (4 x 6), the embedding 1");
  expect_error({"gen", "RDFT(16)", "--in-place", "--inembed", "20"}, "--inembed/--onembed with a real transform in place (RDFT(16)) are not built yet");
  expect_error({"gen", "RDFT(4 x 6)", "--onembed", "4x3"}, "--onembed 4x3: dimension 2 of the embedding (3) is smaller than the transform's (4)");
  expect_error({"gen", "DFT(4 x 6)", "--in-place", "--inembed", "4x8"}, "--in-place: input and output layouts must be the same");
  expect_error({"bench", "DFT(4 x 6)", "--inembed", "4x5", "--quiet"}, "--inembed 4x5: dimension 2");
}

}  // namespace
}  // namespace splgen
