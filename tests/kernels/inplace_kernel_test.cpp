// The large 1D DFT in place (tiled(k)[DFT(n)] --in-place, lower/inplace_passes.h): kernels
// compiled and run on one buffer through NAME_dma with the synchronous and the copy-thread
// engine, against FFTW3 in long double and the O(n^2) long-double sum; the same bits from both
// engines; blocks and bytes moved equal what the passes predict; the memory beyond the data
// (local buffers and temporaries) at most 1/8 of the data; on a file, in place, through
// NAME_stores.
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
#include "generator/lower/inplace_passes.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/reference.h"
#include "tests/support/spec_reference.h"

namespace splgen {
namespace {

struct Case {
  std::string spec;
  int buffers = 2;
  Precision precision = Precision::Double;
  Isa isa = Isa::Avx2;
  bool eighth = false;  // check: memory beyond the data <= 1/8 of it (sizes with m >= 32 k)
  std::string name(std::size_t i) const { return fmt::format("inplace{}", i); }
};

// Memory beyond the data: the local buffers and any temporary, in bytes.
int64_t extra_bytes(const Function &f, int64_t real_bytes) {
  int64_t bytes = local_memory_bytes(f, real_bytes);
  for (const Buffer &b : f.buffers)
    if (b.role == BufferRole::Temp) bytes += 2 * real_bytes * b.size;
  return bytes;
}

template <class T>
void check(const test::SharedObject &lib, const Case &c, const Spl &spec, std::size_t i) {
  SCOPED_TRACE(fmt::format("{} --in-place --buffers {}", c.spec, c.buffers));
  auto *kernel = lib.symbol<void(T *, runtime::dma_engine *)>(c.name(i) + "_dma");
  const lower::InplaceShape s = lower::inplace_shape(spec);
  const std::size_t n = std::size_t(spec->rows);
  std::mt19937_64 rng(n * 7 + std::size_t(c.buffers));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<long double>> x(n);
  for (auto &v : x) v = {T(uniform(rng)), T(uniform(rng))};
  const int sign = spec->children[0]->b == 1 ? -1 : +1;
  const std::vector<std::complex<long double>> fftw = test::spec_reference(spec, x, sign);
  const double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  runtime::sync_engine sync;
  runtime::copy_thread_engine threaded;
  std::vector<T> first;
  for (runtime::dma_engine *engine : {static_cast<runtime::dma_engine *>(&sync), static_cast<runtime::dma_engine *>(&threaded)}) {
    std::vector<T> xy(2 * n);
    for (std::size_t e = 0; e < n; ++e) xy[2 * e] = T(x[e].real()), xy[2 * e + 1] = T(x[e].imag());
    kernel(xy.data(), engine);
    std::vector<std::complex<T>> got(n);
    for (std::size_t e = 0; e < n; ++e) got[e] = {xy[2 * e], xy[2 * e + 1]};
    EXPECT_LE(test::relative_rms_error(got, fftw), 5 * eps * std::log2(double(n))) << "against FFTW3";
    if (n <= 1024) {  // the O(n^2) long-double sum
      std::vector<std::complex<long double>> direct(n);
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t l = 0; l < n; ++l) {
          const long double a = sign * 2 * 3.14159265358979323846264338327950288L * (long double)(k * l % n) / (long double)n;
          direct[k] += x[l] * std::complex<long double>(std::cos(a), std::sin(a));
        }
      EXPECT_LE(test::relative_rms_error(got, direct), 5 * eps * std::log2(double(n))) << "against the O(n^2) sum";
    }
    if (first.empty()) first = xy;
    else EXPECT_EQ(0, std::memcmp(first.data(), xy.data(), 2 * n * sizeof(T))) << "engines give other bits";
    const runtime::transfer_stats &st = engine->stats();
    const std::uint64_t data = 2 * n * sizeof(T), m = std::uint64_t(s.m), k = std::uint64_t(s.k);
    // a row pass: m / k chunks of one block; a transpose: (m/k)^2 / 2 chunks of 2 tiles of k rows
    const std::uint64_t blocks = 3 * m * m / k + std::uint64_t(s.passes() - 3) * m / k;
    EXPECT_EQ(st.bytes_in, std::uint64_t(s.passes()) * data) << "bytes in = passes x data size";
    EXPECT_EQ(st.bytes_out, std::uint64_t(s.passes()) * data) << "bytes out = passes x data size";
    EXPECT_EQ(st.gets, blocks) << "blocks got";
    EXPECT_EQ(st.puts, blocks) << "blocks put";
    EXPECT_EQ(st.smallest_block, k * std::uint64_t(s.pair) * 2 * sizeof(T)) << "smallest block: a tile row";
  }
}

void run_cases(const std::vector<Case> &cases) {
  test::TempDir dir("splgen-inplace");
  std::string unity;
  std::vector<Spl> specs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    driver::GenOptions o;
    o.name = c.name(i), o.precision = c.precision, o.isa = c.isa, o.dma_buffers = c.buffers, o.io.in_place = true;
    driver::Compilation r = driver::run_pipeline(c.spec, o);
    const int64_t real = c.precision == Precision::Float ? 4 : 8, data = 2 * real * r.spec->rows;
    const int64_t extra = extra_bytes(r.program.loops, real);
    if (c.eighth) {
      EXPECT_LE(8 * extra, data) << c.spec << ": " << extra << " bytes beyond the data of " << data;
    }
    o.local_memory = extra;  // L = the memory used fits; the local buffers are no larger
    EXPECT_EQ(driver::run_pipeline(c.spec, o).source, r.source) << "L = the bytes used fits";
    o.local_memory = 0;
    EXPECT_EQ(driver::run_pipeline(c.spec, o).source, r.source) << "deterministic";
    unity += fmt::format("#include \"{}\"\n", dir.write(c.name(i) + ".cpp", r.source));
    specs.push_back(r.spec);
  }
  std::string flags = "-O1 " + kernel::threading_flags(Threading::Team);
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", flags);
  for (const Case &c : cases)
    if (!host_supports(c.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(c.isa) << " code";
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].precision == Precision::Float) check<float>(lib, cases[i], specs[i], i);
    else check<double>(lib, cases[i], specs[i], i);
  }
}

// Square n = m^2 (5 passes) and 1:2 n = 2 m^2 (6 passes), many chunks: odd k, buffers not
// dividing the chunks, float and double, scalar and AVX2, inverse; sizes where the extra
// memory is at most 1/8 of the data (m >= 32 k).
TEST(InplaceKernels, SquareAndOneToTwo) {
  run_cases({{"tiled(2)[DFT(1024)]", 2, Precision::Double, Isa::Avx2},
             {"tiled(4)[DFT(512)]", 3, Precision::Double, Isa::Scalar},
             {"tiled(3)[DFT(144)]", 5, Precision::Float, Isa::Avx2},
             {"tiled(3)[DFT(72, -1)]", 1, Precision::Double, Isa::Scalar},
             {"tiled(4)[DFT(65536)]", 2, Precision::Double, Isa::Avx2, true},
             {"tiled(2)[DFT(32768, -1)]", 2, Precision::Float, Isa::Avx2, true},
             {"tiled(2)[DFT(8192)]", 2, Precision::Double, Isa::Avx2}});
}

std::vector<char> file_bytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Out of core: NAME_stores(ext_xy, engine) on one read-write file of more data than the local
// memory: the bits of the run in memory; a short file is one error before any transfer.
TEST(InplaceKernels, InPlaceOnAFile) {
  test::TempDir dir("splgen-inplace-file");
  const std::vector<std::string> specs = {"tiled(4)[DFT(16384)]", "tiled(4)[DFT(8192)]"};
  const int64_t L = 65536;
  std::string unity;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    driver::GenOptions o;
    o.name = fmt::format("ipf{}", i), o.io.in_place = true, o.local_memory = L;
    unity += fmt::format("#include \"{}\"\n", dir.write(o.name + ".cpp", driver::run_pipeline(specs[i], o).source));
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "",
                                               "-O1 " + kernel::threading_flags(Threading::Team));
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(specs[i]);
    const std::string name = fmt::format("ipf{}", i);
    auto *in_memory = lib.symbol<void(double *, runtime::dma_engine *)>(name + "_dma");
    auto *on_store = lib.symbol<void(runtime::external_store &, runtime::dma_engine *)>(name + "_stores");
    const std::size_t n = std::size_t(parse::parse_formula(specs[i])->rows), bytes = 16 * n;
    ASSERT_GT(bytes, std::size_t(L));
    std::vector<double> xy(2 * n);
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (double &v : xy) v = uniform(rng);
    const std::string zf = dir.file("z.bin");
    std::ofstream(zf, std::ios::binary).write(reinterpret_cast<const char *>(xy.data()), std::streamsize(bytes));
    runtime::sync_engine memory_engine;
    in_memory(xy.data(), &memory_engine);
    runtime::copy_thread_engine engine;
    {
      runtime::file_store zs(zf, runtime::file_store::read_write);
      on_store(zs, &engine);
    }
    std::vector<char> got = file_bytes(zf);
    ASSERT_EQ(got.size(), bytes);
    EXPECT_EQ(0, std::memcmp(got.data(), xy.data(), bytes)) << "in place on a file: other bits than in memory";
    EXPECT_EQ(engine.stats().bytes_in, engine.stats().bytes_out);
    EXPECT_EQ(engine.stats().bytes_in % bytes, 0u) << "passes x data size";
    std::ofstream(zf, std::ios::binary).write(reinterpret_cast<const char *>(xy.data()), std::streamsize(bytes - 16));
    try {
      runtime::file_store zs(zf, runtime::file_store::read_write);
      on_store(zs, &engine);
      ADD_FAILURE() << "a short file ran";
    } catch (const std::length_error &e) {
      std::string m = e.what();
      EXPECT_NE(m.find(fmt::format("{}_stores: xy must hold {} bytes, not {}", name, bytes, bytes - 16)), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    EXPECT_EQ(file_bytes(zf).size(), bytes - 16) << "the short file untouched";
  }
}

}  // namespace
}  // namespace splgen
