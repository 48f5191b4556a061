// Block data layouts (tiled(k), cubic(k); docs/streaming.md "Block data layouts"): the kernels
// in the four layouts (natural, block, to-block, from-block) against FFTW3 in long double and
// the layout P (lower/layout_passes.h), through NAME_dma with the synchronous and the
// copy-thread engine; every transfer a whole tile (cube) or more; the blocks and bytes each
// engine moved equal what the passes predict; local memory used <= L.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <splgen/runtime/dma.h>
#include <splgen/runtime/dma_file.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

#include "generator/driver/pipeline.h"
#include "generator/kernel/compile.h"
#include "generator/lower/layout_passes.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/reference.h"
#include "tests/support/spec_reference.h"

namespace splgen {
namespace {

using lower::DataLayout;

struct Case {
  std::string spec;
  DataLayout layout = DataLayout::Natural;
  int buffers = 2;
  Precision precision = Precision::Double;
  Isa isa = Isa::Avx2;
  // predicted: blocks each engine gets and puts, the smallest block in elements
  uint64_t gets = 0, puts = 0, smallest = 0;
  std::string name(std::size_t i) const { return fmt::format("layout{}", i); }
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
  SCOPED_TRACE(fmt::format("{} --layout {} --buffers {}", c.spec, lower::layout_name(c.layout), c.buffers));
  auto *kernel = lib.symbol<void(T *, const T *, runtime::dma_engine *)>(c.name(i) + "_dma");
  const Spl &spec = b.r.spec;
  const std::size_t n = std::size_t(spec->rows);
  std::mt19937_64 rng(n * 13 + std::size_t(c.buffers));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<long double>> x(n);
  for (auto &v : x) v = {T(uniform(rng)), T(uniform(rng))};
  std::vector<std::size_t> p(n);  // row-major element i is at p[i] in the block layout
  for (std::size_t e = 0; e < n; ++e) p[e] = std::size_t(lower::block_layout_position(spec, int64_t(e)));
  const bool block_in = c.layout == DataLayout::Block || c.layout == DataLayout::FromBlock;
  const bool block_out = c.layout == DataLayout::Block || c.layout == DataLayout::ToBlock;
  const bool dft = c.layout == DataLayout::Natural || c.layout == DataLayout::Block;
  std::vector<T> in(2 * n);
  for (std::size_t e = 0; e < n; ++e) {
    std::size_t at = block_in ? p[e] : e;
    in[2 * at] = T(x[e].real()), in[2 * at + 1] = T(x[e].imag());
  }
  const int sign = spec->children[0]->b == 1 ? -1 : +1;
  std::vector<std::complex<long double>> expected = dft ? test::spec_reference(spec, x, sign) : x;
  const double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  runtime::sync_engine sync;
  runtime::copy_thread_engine threaded;
  std::vector<T> first;
  for (runtime::dma_engine *engine : {static_cast<runtime::dma_engine *>(&sync), static_cast<runtime::dma_engine *>(&threaded)}) {
    std::vector<T> y(2 * n, T(std::nan("")));
    kernel(y.data(), in.data(), engine);
    std::vector<std::complex<T>> got(n);
    for (std::size_t e = 0; e < n; ++e) {
      std::size_t at = block_out ? p[e] : e;
      got[e] = {y[2 * at], y[2 * at + 1]};
    }
    if (dft) EXPECT_LE(test::relative_rms_error(got, expected), 5 * eps * std::log2(double(n))) << "against FFTW3";
    else
      for (std::size_t e = 0; e < n; ++e)
        ASSERT_EQ(std::complex<long double>(got[e].real(), got[e].imag()), expected[e]) << "element " << e << " misplaced";
    if (first.empty()) first = y;
    else EXPECT_EQ(0, std::memcmp(first.data(), y.data(), 2 * n * sizeof(T))) << "engines give other bits";
    const runtime::transfer_stats &s = engine->stats();
    const std::uint64_t data = 2 * n * sizeof(T);
    EXPECT_EQ(s.bytes_in, std::uint64_t(b.passes) * data) << "bytes in = passes x data size";
    EXPECT_EQ(s.bytes_out, std::uint64_t(b.passes) * data) << "bytes out = passes x data size";
    EXPECT_EQ(s.gets, c.gets) << "blocks got";
    EXPECT_EQ(s.puts, c.puts) << "blocks put";
    EXPECT_EQ(s.smallest_block, c.smallest * 2 * sizeof(T)) << "smallest block";
  }
}

// The bytes of local memory a kernel needs (its local buffers and the compute's temporaries
// in its largest pass): L from 1 byte up to what the error of the first pass too large says.
int64_t needed_local_memory(const std::string &spec, driver::GenOptions o) {
  for (o.local_memory = 1;;) {
    try {
      driver::run_pipeline(spec, o);
      return o.local_memory;
    } catch (const FormulaError &e) {
      std::string m = e.what();
      std::size_t at = m.rfind(" need ");
      if (at == std::string::npos) {
        ADD_FAILURE() << m;
        return 0;
      }
      o.local_memory = std::stoll(m.substr(at + 6));
    }
  }
}

// L = the bytes needed fits (and changes nothing); one byte less is the one-line error.
void run_cases(const std::vector<Case> &cases, const std::vector<int> &passes) {
  test::TempDir dir("splgen-layouts");
  std::string unity;
  std::vector<Built> built;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    driver::GenOptions o;
    o.name = c.name(i), o.precision = c.precision, o.isa = c.isa, o.dma_buffers = c.buffers, o.layout = c.layout;
    Built b{driver::run_pipeline(c.spec, o)};
    b.passes = count_streams(b.r.merged);
    EXPECT_EQ(b.passes, passes[i]) << c.spec;
    const int64_t used = needed_local_memory(c.spec, o);
    EXPECT_GE(used, local_memory_bytes(b.r.program.loops, c.precision == Precision::Float ? 4 : 8));
    o.local_memory = used;
    EXPECT_EQ(driver::run_pipeline(c.spec, o).source, b.r.source) << "L = the bytes used fits, and generation is deterministic";
    o.local_memory = used - 1;
    EXPECT_THROW(driver::run_pipeline(c.spec, o), FormulaError) << c.spec << ": L one byte too small";
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

// tiled(k), n = 16, k = 4 (P = 4 stripes of 4 tiles): stripes are one block of n k, a column
// stripe P tiles of k^2. Natural: columns (n rows of k of x -> P tiles of y), then rows (a
// tiled stripe -> k natural rows, in place).
TEST(LayoutKernels, Tiled) {
  run_cases({{"tiled(4)[DFT(16 x 16)]", DataLayout::Natural, 2, Precision::Double, Isa::Avx2, 4 * 16 + 4, 4 * 4 + 4, 4},
             {"tiled(4)[DFT(16 x 16)]", DataLayout::Block, 3, Precision::Double, Isa::Scalar, 4 + 16, 4 + 16, 16},
             {"tiled(4)[DFT(16 x 16)]", DataLayout::ToBlock, 1, Precision::Double, Isa::Scalar, 4, 4, 64},
             {"tiled(4)[DFT(16 x 16)]", DataLayout::FromBlock, 2, Precision::Double, Isa::Scalar, 4, 4, 64},
             {"tiled(2)[DFT(12 x 12)]", DataLayout::Block, 5, Precision::Float, Isa::Avx2, 6 + 36, 6 + 36, 4},
             {"tiled(8)[DFT(64 x 64, -1)]", DataLayout::Natural, 2, Precision::Double, Isa::Avx2, 8 * 64 + 8, 8 * 8 + 8, 8}},
            {2, 2, 1, 1, 2, 2});
}

// tiled(k)[DFT(n^2)], eq. (19): a column stripe of tiles in, a row stripe out (the first pass),
// the twiddles merged into the column pass; natural: the conversions before and after.
TEST(LayoutKernels, TiledOneDimensional) {
  run_cases({{"tiled(4)[DFT(256)]", DataLayout::Natural, 2, Precision::Double, Isa::Avx2, 4 + 16 + 16 + 4, 4 + 4 + 16 + 4, 16},
             {"tiled(4)[DFT(256)]", DataLayout::Block, 3, Precision::Double, Isa::Scalar, 16 + 16, 4 + 16, 16},
             {"tiled(2)[DFT(144)]", DataLayout::Block, 2, Precision::Float, Isa::Avx2, 36 + 36, 6 + 36, 4},
             {"tiled(8)[DFT(4096, -1)]", DataLayout::Natural, 5, Precision::Double, Isa::Avx2, 8 + 64 + 64 + 8, 8 + 8 + 64 + 8, 64}},
            {4, 2, 2, 4});
}

// cubic(k), n = 8, k = 2 (P = 4): pencils of P cubes (contiguous in the cubic layout), cubes
// at stride along the other two dimensions; the natural layout's pencil is k rows of k n.
TEST(LayoutKernels, Cubic) {
  run_cases({{"cubic(2)[DFT(8 x 8 x 8)]", DataLayout::Block, 2, Precision::Double, Isa::Avx2, 16 + 64 + 64, 16 + 64 + 64, 8},
             {"cubic(2)[DFT(8 x 8 x 8)]", DataLayout::Natural, 3, Precision::Double, Isa::Scalar,
              32 + 64 + 64 + 16, 16 + 64 + 64 + 32, 8},
             {"cubic(2)[DFT(8 x 8 x 8)]", DataLayout::ToBlock, 2, Precision::Double, Isa::Scalar, 32, 16, 16},
             {"cubic(2)[DFT(8 x 8 x 8)]", DataLayout::FromBlock, 2, Precision::Double, Isa::Scalar, 16, 32, 16},
             {"cubic(4)[DFT(16 x 16 x 16)]", DataLayout::Block, 3, Precision::Float, Isa::Avx2, 16 + 64 + 64, 16 + 64 + 64, 64}},
            {3, 4, 1, 1, 3});
}

std::vector<char> file_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string &path, const void *data, std::size_t bytes) {
  std::ofstream(path, std::ios::binary).write(static_cast<const char *>(data), std::streamsize(bytes));
}

// Out of core: NAME_stores on files (runtime/dma_file.h) of more data than the local memory L,
// the same bits as in memory; in place on one file (every pass of the tiled and cubic block
// kernels puts a chunk where it got it); a short input file is one error before any transfer,
// and the output file that was never committed leaves the old one in place.
TEST(LayoutKernels, OutOfCoreOnFiles) {
  test::TempDir dir("splgen-layout-files");
  const std::vector<std::pair<std::string, DataLayout>> specs = {{"tiled(8)[DFT(64 x 64)]", DataLayout::Block},
                                                                 {"cubic(4)[DFT(16 x 16 x 16)]", DataLayout::Block},
                                                                 {"stream(16)[DFT(4096)]", DataLayout::Natural},
                                                                 {"tiled(8)[DFT(64 x 64)]", DataLayout::Natural}};
  const int64_t L = 48000;  // bytes: less than any of the four data sets
  std::string unity;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    driver::GenOptions o;
    o.name = fmt::format("ooc{}", i), o.layout = specs[i].second, o.local_memory = L;
    unity += fmt::format("#include \"{}\"\n", dir.write(o.name + ".cpp", driver::run_pipeline(specs[i].first, o).source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "",
                                               "-O1 " + kernel::threading_flags(Threading::Team));
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(specs[i].first);
    const std::string name = fmt::format("ooc{}", i);
    auto *in_memory = lib.symbol<void(double *, const double *, runtime::dma_engine *)>(name + "_dma");
    auto *on_stores = lib.symbol<void(runtime::external_store &, runtime::external_store &, runtime::dma_engine *)>(name + "_stores");
    const std::size_t n = std::size_t(parse::parse_formula(specs[i].first)->rows), bytes = 16 * n;
    ASSERT_GT(bytes, std::size_t(L));
    std::vector<double> x(2 * n), y(2 * n);
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (double &v : x) v = uniform(rng);
    runtime::sync_engine memory_engine;
    in_memory(y.data(), x.data(), &memory_engine);
    const std::string xf = dir.file("x.bin"), yf = dir.file("y.bin"), zf = dir.file("z.bin");
    write_file(xf, x.data(), bytes);
    write_file(zf, x.data(), bytes);
    runtime::copy_thread_engine engine;
    {
      runtime::file_store xs(xf, runtime::file_store::read_only), ys(yf, runtime::file_store::create, bytes);
      on_stores(ys, xs, &engine);
      ys.commit();
    }
    std::vector<char> got = file_bytes(yf);
    ASSERT_EQ(got.size(), bytes);
    EXPECT_EQ(0, std::memcmp(got.data(), y.data(), bytes)) << "file to file: other bits than in memory";
    EXPECT_EQ(engine.stats().bytes_in, engine.stats().bytes_out);
    EXPECT_EQ(engine.stats().bytes_in % bytes, 0u) << "passes x data size";
    if (specs[i].second == DataLayout::Block) {
      runtime::file_store zs(zf, runtime::file_store::read_write);
      on_stores(zs, zs, &engine);
      got = file_bytes(zf);
      EXPECT_EQ(0, std::memcmp(got.data(), y.data(), bytes)) << "in place on one file";
    }
    write_file(xf, x.data(), bytes - 16);  // one complex number short
    write_file(yf, "old", 3);
    try {
      runtime::file_store xs(xf, runtime::file_store::read_only), ys(yf, runtime::file_store::create, bytes);
      on_stores(ys, xs, &engine);
      ys.commit();
      ADD_FAILURE() << "a short input file ran";
    } catch (const std::length_error &e) {
      std::string m = e.what();
      EXPECT_NE(m.find(fmt::format("{}_stores: x and y must hold {} bytes, not {}", name, bytes, bytes - 16)), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    got = file_bytes(yf);
    EXPECT_EQ(std::string(got.begin(), got.end()), "old") << "a failed run left a half-written output";
  }
}

void expect_error(const std::string &spec, DataLayout layout, int64_t local_memory, const std::string &want) {
  driver::GenOptions o;
  o.layout = layout, o.local_memory = local_memory;
  try {
    driver::run_pipeline(spec, o);
    ADD_FAILURE() << spec << ": no error";
  } catch (const FormulaError &e) {
    std::string m = e.what();
    EXPECT_NE(m.find(want), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(LayoutKernels, BadParametersAreOneLineErrors) {
  expect_error("tiled(3)[DFT(16 x 16)]", DataLayout::Block, 0, "tiled(3): the block size k must divide n = 16");
  expect_error("cubic(5)[DFT(8 x 8 x 8)]", DataLayout::Natural, 0, "cubic(5): the block size k must divide n = 8");
  expect_error("tiled(4)[DFT(16 x 16)]", DataLayout::Block, 100, "local memory of 100 bytes is too small");
  expect_error("DFT(16 x 16)", DataLayout::Block, 0, "--layout block: needs a tiled(k)[DFT(n x n)]");
  expect_error("tiled(2)[DFT(128)]", DataLayout::Block, 0, "tiled(2)[DFT(128)]: the 1D tiled form (eq. (19)) needs a square size");
}

}  // namespace
}  // namespace splgen
