// splgen run-file (docs/cli.md): the streamed kernel run out of core on a file of complex
// numbers larger than the local memory, against an O(n^2) long-double DFT; the input is left
// as it was; bad input is one line with the old output file intact.
#include <cmath>
#include <complex>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;
using test::ProgramResult;
using cx = std::complex<double>;

class RunFileCliTest : public test::SplgenCommandTest {
 protected:
  RunFileCliTest() : SplgenCommandTest("splgen-run-file-cli") {}
  std::string path(const std::string &name) const { return (dir.path() / name).string(); }
  void write(const std::string &name, const std::vector<cx> &v) const {
    std::ofstream(path(name), std::ios::binary).write(reinterpret_cast<const char *>(v.data()), std::streamsize(v.size() * sizeof(cx)));
  }
  std::vector<cx> read(const std::string &name) const {
    std::ifstream in(path(name), std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<cx> v(bytes.size() / sizeof(cx));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(cx));
    return v;
  }
};

std::vector<cx> random_input(std::size_t n) {
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cx> x(n);
  for (cx &v : x) v = cx(u(rng), u(rng));
  return x;
}

// Relative RMS error of y against the O(n^2) DFT of x in long double (exactly reduced twiddles).
double dft_error(const std::vector<cx> &x, const std::vector<cx> &y) {
  const std::size_t n = x.size();
  const long double pi = 3.141592653589793238462643383279502884L;
  long double num = 0, den = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::complex<long double> s = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const long double a = -2 * pi * (long double)((j * k) % n) / (long double)n;
      s += std::complex<long double>(x[j].real(), x[j].imag()) * std::complex<long double>(std::cos(a), std::sin(a));
    }
    num += std::norm(std::complex<long double>(y[k].real(), y[k].imag()) - s), den += std::norm(s);
  }
  return double(std::sqrt(num / den));
}

// In place (tiled(4)[DFT(1024)], 16 KiB of data, 8 KiB of local memory) and file to file
// (stream(16)[DFT(1024)], 4 KiB): the DFT, the input untouched, the report against the bound.
TEST_F(RunFileCliTest, RunsStreamedKernelsOnFilesLargerThanTheLocalMemory) {
  struct Case {
    const char *spec;
    std::size_t n;
    bool in_place;
    const char *local_memory;
  };
  for (const Case &c : {Case{"tiled(4)[DFT(1024)]", 1024, true, "8192"}, Case{"stream(16)[DFT(1024)]", 1024, false, "4096"}}) {
    const std::vector<cx> x = random_input(c.n);
    write("in.bin", x);
    std::vector<std::string> args = {"run-file", c.spec, "--file", path("in.bin"), "-o", path("out.bin"), "--local-memory",
                                     c.local_memory, "--isa", "scalar", "--flags=-O1"};
    if (c.in_place) args.push_back("--in-place");
    ProgramResult r = splgen(args);
    ASSERT_EQ(r.exit_code, 0) << c.spec << "\n" << r.err << r.out;
    for (const std::string &part : std::vector<std::string>{"x the bound", "transfer bound", "blocks got", "check: 4 bins against O(n) long double sums",
                                                             "wrote " + path("out.bin")})
      EXPECT_TRUE(contains(r.out, part)) << part << "\n" << r.out;
    EXPECT_EQ(read("in.bin"), x) << c.spec;
    const std::vector<cx> y = read("out.bin");
    ASSERT_EQ(y.size(), c.n);
    EXPECT_LT(dft_error(x, y), 1e-14) << c.spec;
  }
  // in place onto the input itself: replaced whole, by the transform
  const std::vector<cx> x = random_input(1024);
  write("data.bin", x);
  ASSERT_EQ(splgen({"run-file", "tiled(4)[DFT(1024)]", "--in-place", "--file", path("data.bin"), "-o", path("data.bin"),
                    "--local-memory", "8192", "--isa", "scalar", "--flags=-O1"}).exit_code, 0);
  EXPECT_LT(dft_error(x, read("data.bin")), 1e-14);
}

TEST_F(RunFileCliTest, BadInputIsOneLineAndLeavesTheOldOutput) {
  const std::vector<cx> old = random_input(16);
  write("out.bin", old);
  write("short.bin", random_input(1023));
  const std::vector<std::string> tail = {"-o", path("out.bin"), "--in-place", "--local-memory", "8192", "--isa", "scalar"};
  auto with = [&tail](std::vector<std::string> head) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  expect_error(with({"run-file", "tiled(4)[DFT(1024)]", "--file", path("short.bin")}),
               "short.bin: holds 16368 bytes; tiled(4)[ DFT(1024) ] needs 1024 complex double = 16384 bytes");
  expect_error(with({"run-file", "tiled(4)[DFT(1024)]", "--file", path("missing.bin")}), "missing.bin: not a readable regular file");
  write("in.bin", random_input(1024));
  expect_error({"run-file", "tiled(4)[DFT(1024)]", "--file", path("in.bin"), "-o", path("no_such_dir/out.bin"), "--in-place",
                "--local-memory", "8192", "--isa", "scalar"},
               "no_such_dir/out.bin: cannot open for writing: No such file or directory", 3);
  write("in64.bin", random_input(64));
  expect_error({"run-file", "DFT(64)", "--file", path("in64.bin"), "-o", path("out.bin")}, "has no");
  expect_error({"run-file", "tiled(4)[DFT(1024)]", "--file", path("in.bin"), "-o", path("out.bin"), "--in-place", "--local-memory", "100"},
               "too small");
  expect_error({"run-file", "tiled(4)[DFT(1024)]", "-o", path("out.bin")}, "--file");
  EXPECT_EQ(read("out.bin"), old);
}

}  // namespace
}  // namespace splgen
