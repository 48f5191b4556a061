// Threaded kernels (--threads P, docs/threads.md) against FFTW3 in long double (fftwl) and,
// for 1D, output entries from the O(n) long-double sum: 1D sizes that p divides and that it
// does not, below the threshold (one thread) and primes; 2D, 3D and batches; P = 2, 3, 4 (more
// workers than cores is allowed); OpenMP and the thread team; double and float; repeated calls
// and concurrent calls from 4 user threads, which must give the same bits as a single call.
#include <gtest/gtest.h>

#include <fftw3.h>
#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>

#include "generator/driver/pipeline.h"
#include "generator/parse/formula_parser.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/spec_reference.h"
#include "tests/support/reference.h"

namespace splgen {
namespace {

struct Case {
  std::string spec;
  int threads;
  Precision precision = Precision::Double;
  Isa isa = Isa::Avx2;
  Threading threading = Threading::OpenMP;
  bool inverse = false;
  std::string name(std::size_t i) const { return fmt::format("threaded{}", i); }
};

template <class T>
void check(const test::SharedObject &lib, const Case &c, std::size_t i) {
  SCOPED_TRACE(fmt::format("{} --threads {} --threading {} {} {}", c.spec, c.threads, threading_name(c.threading),
                           c.precision == Precision::Float ? "float" : "double", isa_name(c.isa)));
  auto *kernel = lib.symbol<void(T *, const T *)>(c.name(i));
  Spl spec = parse::parse_formula(c.spec);
  const std::size_t n = std::size_t(spec->rows);
  std::mt19937_64 rng(n * 31 + std::size_t(c.threads));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> x(2 * n), y(2 * n, T(std::nan("")));
  for (T &v : x) v = T(uniform(rng));
  std::vector<std::complex<long double>> exact(n);
  for (std::size_t k = 0; k < n; ++k) exact[k] = {x[2 * k], x[2 * k + 1]};
  const int sign = c.inverse ? +1 : -1;
  std::vector<std::complex<long double>> expected = test::spec_reference(spec, exact, sign);
  kernel(y.data(), x.data());
  std::vector<std::complex<T>> got(n);
  for (std::size_t k = 0; k < n; ++k) got[k] = {y[2 * k], y[2 * k + 1]};
  const double eps = std::is_same_v<T, float> ? FLT_EPSILON : DBL_EPSILON;
  const double tolerance = 5 * eps * std::max(1.0, std::log2(double(n)));
  EXPECT_LE(test::relative_rms_error(got, expected), tolerance) << "against FFTW3 (long double)";
  if (spec->kind == SplKind::DFT)  // an independent check: entries of the O(n) long-double sum
    for (std::size_t k : {std::size_t(0), std::size_t(1), n / 3, n - 1}) {
      std::complex<long double> want = test::reference_dft_entry(exact, k, sign);
      EXPECT_LE(double(std::abs(std::complex<long double>(got[k].real(), got[k].imag()) - want) /
                       std::sqrt((long double)n)),
                4 * tolerance)
          << "output " << k;
    }
  // Repeated calls, then 4 user threads calling at once: the same bits every time.
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<T> again(2 * n);
    kernel(again.data(), x.data());
    ASSERT_EQ(0, std::memcmp(again.data(), y.data(), 2 * n * sizeof(T))) << "call " << rep + 2 << " differs";
  }
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> users;
  for (int u = 0; u < 4; ++u)
    users.emplace_back([&, u] {
      std::vector<T> mine(2 * n);
      for (int rep = 0; rep < 5; ++rep) {
        kernel(mine.data(), x.data());
        mismatches[std::size_t(u)] += std::memcmp(mine.data(), y.data(), 2 * n * sizeof(T)) != 0;
      }
    });
  for (std::thread &t : users) t.join();
  for (int u = 0; u < 4; ++u) EXPECT_EQ(mismatches[std::size_t(u)], 0) << "user thread " << u;
}

// Generates every case, compiles them into one shared object, checks each; `parallel`: the
// cases must have parallel loops (false: they fall back to one thread, said in a note).
void run_cases(const std::vector<Case> &cases, bool parallel = true) {
  test::TempDir dir("splgen-threaded");
  std::string unity;
  std::string flags = "-O1";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    driver::GenOptions o;
    o.name = c.name(i), o.precision = c.precision, o.isa = c.isa, o.threads = c.threads;
    o.threading = c.threading, o.inverse = c.inverse;
    driver::Compilation r = driver::run_pipeline(c.spec, o);
    EXPECT_EQ(r.program.loops.workers > 1, parallel) << c.spec << " --threads " << c.threads;
    if (!parallel) {
      EXPECT_FALSE(r.notes.empty()) << c.spec << ": falling back to one thread says so";
    }
    unity += fmt::format("#include \"{}\"\n", dir.write(c.name(i) + ".cpp", r.source));
    std::string needs = measure::threading_flags(c.threading);
    if (flags.find(needs) == std::string::npos) flags += " " + needs;
  }
  std::string so = test::compile_shared_object({dir.write("kernels.cpp", unity)}, dir.file("kernels.so"), "", flags);
  for (const Case &c : cases)
    if (!host_supports(c.isa)) GTEST_SKIP() << "compiled; not run: this CPU cannot run " << isa_name(c.isa) << " code";
  measure::keep_openmp_loaded();
  test::SharedObject lib(so);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].precision == Precision::Float)
      check<float>(lib, cases[i], i);
    else
      check<double>(lib, cases[i], i);
  }
}

std::vector<Case> every_p(const std::string &spec, Isa isa = Isa::Avx2) {
  std::vector<Case> out;
  for (int p : {2, 3, 4})
    for (Precision precision : {Precision::Double, Precision::Float}) out.push_back({spec, p, precision, isa});
  return out;
}

TEST(ThreadedKernels, PowersOfTwo) {
  std::vector<Case> cases = every_p("DFT(16384)");
  for (Case &c : every_p("DFT(65536)")) cases.push_back(c);
  run_cases(cases);
}
TEST(ThreadedKernels, Large) { run_cases(every_p("DFT(1048576)")); }
TEST(ThreadedKernels, CompositesNotDividedByP) {
  std::vector<Case> cases = every_p("DFT(100000)");
  for (Case &c : every_p("DFT(24576)")) cases.push_back(c);  // 3 * 2^13: p = 2, 4 uneven at some stage
  run_cases(cases);
}
TEST(ThreadedKernels, ScalarAndSse2AndAvx512) {
  std::vector<Case> cases;
  for (Isa isa : {Isa::Scalar, Isa::Sse2})
    for (Case &c : every_p("DFT(16384)", isa)) cases.push_back(c);
  run_cases(cases);
  run_cases(every_p("DFT(32768)", Isa::Avx512));
}
TEST(ThreadedKernels, InverseAndTeam) {
  std::vector<Case> cases;
  for (int p : {2, 3, 4})
    for (Threading t : {Threading::OpenMP, Threading::Team}) {
      cases.push_back({"DFT(32768)", p, Precision::Double, Isa::Avx2, t, true});
      cases.push_back({"DFT(16384)", p, Precision::Float, Isa::Avx2, t, false});
    }
  run_cases(cases);
}
TEST(ThreadedKernels, MultiDimensional) {
  std::vector<Case> cases = every_p("DFT(256 x 256)");
  for (Case &c : every_p("DFT(32 x 32 x 32)")) cases.push_back(c);
  for (Case &c : every_p("DFT(96 x 160)")) cases.push_back(c);
  run_cases(cases);
}
TEST(ThreadedKernels, Batches) {
  std::vector<Case> cases = every_p("I(1024) (x) DFT(256)");
  for (Case &c : every_p("I(37) (x) DFT(1000)")) cases.push_back(c);
  run_cases(cases);
}
TEST(ThreadedKernels, SmallAndPrimeFallBackToOneThread) {
  run_cases({{"DFT(1024)", 2}, {"smp(2,4)[DFT(257)]", 1}, {"DFT(64)", 4, Precision::Float}}, /*parallel=*/false);
}
TEST(ThreadedKernels, TagFormWithExplicitMu) {
  run_cases({{"smp(4,8)[DFT(65536)]", 1}, {"smp(2,4)[DFT(16384)]", 1, Precision::Float}});
}

}  // namespace
}  // namespace splgen
