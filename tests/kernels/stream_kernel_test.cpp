// Streamed kernels (the stream(s) tag lowered to multibuffered DMA loops, docs/streaming.md)
// against FFTW3 in long double and the O(n) long-double sum; run through NAME(y, x) (the
// default engine) and NAME_dma(y, x, engine) with the synchronous and the copy-thread engine,
// whose counters must show what the formula moves: every pass reads and writes the whole
// data once (bytes = passes x data size), one transfer per chunk for eq. (9) and m per chunk
// for eq. (10) of the Cell paper. Small local memories so that small sizes stream many blocks;
// odd numbers of buffers and chunks, buffers that do not divide the chunks.
#include <gtest/gtest.h>

#include <fftw3.h>
#include <fmt/format.h>
#include <splgen/runtime/dma.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

#include "generator/driver/pipeline.h"
#include "generator/kernel/compile.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/spec_reference.h"
#include "tests/support/reference.h"

namespace splgen {
namespace {

struct Case {
  std::string spec;
  int buffers = 2;
  int64_t local_memory = 0;  // 0: no limit
  Precision precision = Precision::Double;
  Isa isa = Isa::Avx2;
  bool inverse = false;       // the spec's DFTs are DFT(n, -1): FFTW's backward sign
  int64_t gets_per_pass = 0;  // blocks each pass gets (0: not predicted here)
  std::string name(std::size_t i) const { return fmt::format("streamed{}", i); }
};

int count_streams(const Sigma &s) {
  int n = s->kind == SigmaKind::Sum && s->mode == SumMode::Stream;
  for (const Sigma &c : s->children) n += count_streams(c);
  return n;
}

struct Built {
  driver::Compilation r;
  int passes = 0;
};

template <class T>
void check(const test::SharedObject &lib, const Case &c, const Built &b, std::size_t i) {
  SCOPED_TRACE(fmt::format("{} --buffers {} --local-memory {} {}", c.spec, c.buffers, c.local_memory,
                           c.precision == Precision::Float ? "float" : "double"));
  auto *plain = lib.symbol<void(T *, const T *)>(c.name(i));
  auto *with = lib.symbol<void(T *, const T *, runtime::dma_engine *)>(c.name(i) + "_dma");
  const std::size_t n = std::size_t(b.r.spec->rows);
  std::mt19937_64 rng(n * 7 + std::size_t(c.buffers));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> x(2 * n);
  for (T &v : x) v = T(uniform(rng));
  std::vector<std::complex<long double>> exact(n);
  for (std::size_t k = 0; k < n; ++k) exact[k] = {x[2 * k], x[2 * k + 1]};
  const int sign = c.inverse ? +1 : -1;
  std::vector<std::complex<long double>> expected = test::spec_reference(b.r.spec, exact, sign);
  const double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  const double tolerance = 5 * eps * std::max(1.0, std::log2(double(n)));

  runtime::sync_engine sync;
  runtime::copy_thread_engine threaded;
  std::vector<T> first;
  for (runtime::dma_engine *engine : {static_cast<runtime::dma_engine *>(nullptr), static_cast<runtime::dma_engine *>(&sync),
                                      static_cast<runtime::dma_engine *>(&threaded)}) {
    std::vector<T> y(2 * n, T(std::nan("")));
    if (engine) with(y.data(), x.data(), engine);
    else plain(y.data(), x.data());
    std::vector<std::complex<T>> got(n);
    for (std::size_t k = 0; k < n; ++k) got[k] = {y[2 * k], y[2 * k + 1]};
    EXPECT_LE(test::relative_rms_error(got, expected), tolerance) << "against FFTW3 (long double)";
    if (b.r.spec->kind == SplKind::Tagged && b.r.spec->children[0]->kind == SplKind::DFT)
      for (std::size_t k : {std::size_t(0), std::size_t(1), n / 3, n - 1}) {
        std::complex<long double> want = test::reference_dft_entry(exact, k, sign);
        EXPECT_LE(double(std::abs(std::complex<long double>(got[k].real(), got[k].imag()) - want) / std::sqrt((long double)n)),
                  4 * tolerance)
            << "output " << k;
      }
    if (first.empty()) first = y;
    else EXPECT_EQ(0, std::memcmp(first.data(), y.data(), 2 * n * sizeof(T))) << "engines give other bits";
  }
  // bytes moved = passes x data size, in and out, the same for both engines
  const std::uint64_t data = 2 * n * sizeof(T);
  for (const runtime::dma_engine *engine : {static_cast<const runtime::dma_engine *>(&sync),
                                            static_cast<const runtime::dma_engine *>(&threaded)}) {
    const runtime::transfer_stats &s = engine->stats();
    EXPECT_EQ(s.bytes_in, std::uint64_t(b.passes) * data);
    EXPECT_EQ(s.bytes_out, std::uint64_t(b.passes) * data);
    EXPECT_GE(s.smallest_block, 2 * sizeof(T));
    if (c.gets_per_pass > 0) {
      EXPECT_EQ(s.gets, std::uint64_t(c.gets_per_pass * b.passes));
    }
  }
  EXPECT_EQ(sync.stats().gets, threaded.stats().gets);
  EXPECT_EQ(sync.stats().puts, threaded.stats().puts);
}

void run_cases(const std::vector<Case> &cases, int expected_passes) {
  test::TempDir dir("splgen-streamed");
  std::string unity;
  std::vector<Built> built;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    driver::GenOptions o;
    o.name = c.name(i), o.precision = c.precision, o.isa = c.isa;
    o.dma_buffers = c.buffers, o.local_memory = c.local_memory;
    Built b{driver::run_pipeline(c.spec, o)};
    b.passes = count_streams(b.r.merged);
    EXPECT_EQ(b.passes, expected_passes) << c.spec;
    EXPECT_GT(b.r.program.loops.dma_tags, 0) << c.spec;
    const int64_t used = local_memory_bytes(b.r.program.loops, c.precision == Precision::Float ? 4 : 8);
    EXPECT_GT(used, 0);
    if (c.local_memory > 0) {
      EXPECT_LE(used, c.local_memory) << c.spec << ": local memory used <= L";
    }
    unity += fmt::format("#include \"{}\"\n", dir.write(c.name(i) + ".cpp", b.r.source));
    built.push_back(std::move(b));
  }
  std::string flags = "-O1 " + kernel::threading_flags(Threading::Team);  // -pthread, the runtime headers
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", flags);
  for (const Case &c : cases)
    if (!host_supports(c.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(c.isa) << " code";
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].precision == Precision::Float) check<float>(lib, cases[i], built[i], i);
    else check<double>(lib, cases[i], built[i], i);
  }
}

// Cell paper eq. (9): s chunks, one transfer of n/s contiguous elements each.
TEST(StreamedKernels, BatchOneTransferPerChunk) {
  run_cases({{"stream(4)[ I(8) (x) DFT(16) ]", 2, 0, Precision::Double, Isa::Avx2, false, 4},
             {"stream(8)[ I(8) (x) DFT(32) ]", 3, 3 * 2 * 16 * 32 * 2, Precision::Double, Isa::Scalar, false, 8},
             {"stream(3)[ I(9) (x) DFT(12) ]", 2, 0, Precision::Float, Isa::Sse2, false, 3},
             {"stream(5)[ I(5) (x) DFT(8, -1) ]", 4, 0, Precision::Double, Isa::Scalar, true, 5}},
            1);
}

// Eq. (10): s chunks of m packets of n/s elements at stride n.
TEST(StreamedKernels, ColumnsMPacketsPerChunk) {
  run_cases({{"stream(4)[ DFT(8) (x) I(16) ]", 2, 0, Precision::Double, Isa::Avx2, false, 4 * 8},
             {"stream(2)[ DFT(16) (x) I(6) ]", 3, 0, Precision::Float, Isa::Scalar, false, 2 * 16}},
            1);
}

// Table 3(a): a large 1D DFT streamed in two passes (rule stream_dft), powers of two and not.
TEST(StreamedKernels, OneDimensionalTwoPasses) {
  run_cases({{"stream(4)[ DFT(1024) ]", 2, 4 * 256 * 16 * 2},
             {"stream(16)[ DFT(4096) ]", 3, 3 * 256 * 16 * 2 + 128 * 16},  // + the compute's temporary
             {"stream(8)[ DFT(4096, -1) ]", 5, 0, Precision::Float, Isa::Avx2, true},
             {"stream(4)[ DFT(256) ]", 1, 64 * 16 * 2, Precision::Double, Isa::Sse2},
             {"stream(3)[ DFT(144) ]", 2, 0, Precision::Double, Isa::Scalar},
             {"stream(2)[ DFT(100) ]", 7, 0, Precision::Double, Isa::Avx2}},
            2);
}

// Table 3(a) fourth row: a 2D DFT streamed in parts (rule stream_dft_2d).
TEST(StreamedKernels, TwoDimensional) {
  run_cases({{"stream(4)[ DFT(16 x 32) ]", 2, 0}, {"stream(8)[ DFT(64 x 64) ]", 3, 0, Precision::Float, Isa::Avx2}}, 2);
}

// stream(1)[A]: the whole kernel between one get and one put (Table 3(a) second row).
TEST(StreamedKernels, SingleChunk) {
  run_cases({{"stream(1)[ DFT(64) ]", 2, 0, Precision::Double, Isa::Avx2, false, 1},
             {"stream(1)[ DFT(16) ]", 1, 0, Precision::Double, Isa::Scalar, false, 1}},
            1);
}

// Local memory too small for one chunk: a one-line error naming it.
TEST(StreamedKernels, LocalMemoryTooSmallIsAnError) {
  driver::GenOptions o;
  o.local_memory = 1000;
  try {
    driver::run_pipeline("stream(4)[ DFT(1024) ]", o);
    FAIL() << "no error";
  } catch (const FormulaError &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("local memory of 1000 bytes is too small"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace splgen
