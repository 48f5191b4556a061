#include "backends/cpp/computed_diag.h"

#include <fmt/format.h>

#include <stdexcept>

namespace splgen::backends {

namespace {

// The generator's long double DFT (generator/rewrite/long_dft.cpp) and its to_double
// (generator/rewrite/functions.cpp), operation for operation: keep them in step.
constexpr const char *kLongDft = R"(// The generator's long double DFT (generator/rewrite/long_dft.cpp): radix 2, mixed radix for
// factors up to 64, Bluestein over a power of two for larger primes. The same roots of unity,
// but each w_n^j computed once per size n (splgen_roots): the recursion asks for the same sizes
// again and again, and long double sin and cos were most of the time.
using splgen_lcplx = std::complex<long double>;

static splgen_lcplx splgen_long_root(long n, long e) {  // exp(-2 pi i e / n), e reduced first
  const long double two_pi = 6.283185307179586476925286766559005768L;
  long r = e % n;
  if (r < 0) r += n;
  const long double t = two_pi * (long double)r / (long double)n;
  return splgen_lcplx(std::cos(t), -std::sin(t));
}

struct splgen_roots {  // w_n^j, j < n, for each n asked for
  std::map<long, std::vector<splgen_lcplx>> of_size;
  const std::vector<splgen_lcplx> &of(long n) {
    std::vector<splgen_lcplx> &w = of_size[n];
    if (w.empty()) {
      w.resize(static_cast<std::size_t>(n));
      for (long j = 0; j < n; ++j) w[std::size_t(j)] = splgen_long_root(n, j);
    }
    return w;
  }
};

static splgen_lcplx splgen_mul(const splgen_lcplx &a, const splgen_lcplx &b) {
  return splgen_lcplx(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

static void splgen_radix2(std::vector<splgen_lcplx> &a, const std::vector<splgen_lcplx> &roots) {  // roots: w_size^j
  const long size = long(a.size());
  for (long i = 1, j = 0; i < size; ++i) {
    long bit = size >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[std::size_t(i)], a[std::size_t(j)]);
  }
  for (long len = 2; len <= size; len *= 2) {
    const long stride = size / len;
    for (long i = 0; i < size; i += len)
      for (long j = 0; j < len / 2; ++j) {
        splgen_lcplx u = a[std::size_t(i + j)];
        splgen_lcplx v = splgen_mul(a[std::size_t(i + j + len / 2)], roots[std::size_t(j * stride)]);
        a[std::size_t(i + j)] = u + v;
        a[std::size_t(i + j + len / 2)] = u - v;
      }
  }
}

static std::vector<splgen_lcplx> splgen_long_dft(const std::vector<splgen_lcplx> &x, splgen_roots &roots);

static std::vector<splgen_lcplx> splgen_bluestein(const std::vector<splgen_lcplx> &x, splgen_roots &roots) {
  const long size = long(x.size());
  long padded = 1;
  while (padded < 2 * size - 1) padded *= 2;
  const std::vector<splgen_lcplx> &w2size = roots.of(2 * size);
  std::vector<splgen_lcplx> c(static_cast<std::size_t>(size)), a(static_cast<std::size_t>(padded)), b(static_cast<std::size_t>(padded));
  for (long j = 0; j < size; ++j) {
    c[std::size_t(j)] = w2size[std::size_t(j * j % (2 * size))];
    a[std::size_t(j)] = splgen_mul(x[std::size_t(j)], c[std::size_t(j)]);
    b[std::size_t(j)] = std::conj(c[std::size_t(j)]);
    if (j > 0) b[std::size_t(padded - j)] = b[std::size_t(j)];
  }
  const std::vector<splgen_lcplx> &wpadded = roots.of(padded);
  splgen_radix2(a, wpadded);
  splgen_radix2(b, wpadded);
  for (long i = 0; i < padded; ++i) a[std::size_t(i)] = std::conj(splgen_mul(a[std::size_t(i)], b[std::size_t(i)]));
  splgen_radix2(a, wpadded);
  std::vector<splgen_lcplx> y(static_cast<std::size_t>(size));
  for (long r = 0; r < size; ++r)
    y[std::size_t(r)] = splgen_mul(c[std::size_t(r)], std::conj(a[std::size_t(r)])) / (long double)padded;
  return y;
}

static std::vector<splgen_lcplx> splgen_mixed_radix(const std::vector<splgen_lcplx> &x, long r, splgen_roots &roots) {
  const long size = long(x.size()), m = size / r;
  std::vector<std::vector<splgen_lcplx>> parts(static_cast<std::size_t>(r));
  std::vector<splgen_lcplx> sub(static_cast<std::size_t>(m));
  for (long s = 0; s < r; ++s) {
    for (long l = 0; l < m; ++l) sub[std::size_t(l)] = x[std::size_t(l * r + s)];
    parts[std::size_t(s)] = splgen_long_dft(sub, roots);
  }
  const std::vector<splgen_lcplx> &wr = roots.of(r), &wsize = roots.of(size);
  std::vector<splgen_lcplx> z(static_cast<std::size_t>(r)), y(static_cast<std::size_t>(size));
  for (long k = 0; k < m; ++k) {
    for (long s = 0; s < r; ++s) z[std::size_t(s)] = splgen_mul(wsize[std::size_t(s * k)], parts[std::size_t(s)][std::size_t(k)]);
    for (long q = 0; q < r; ++q) {
      splgen_lcplx sum = 0;
      for (long s = 0; s < r; ++s) sum += splgen_mul(z[std::size_t(s)], wr[std::size_t(s * q % r)]);
      y[std::size_t(k + m * q)] = sum;
    }
  }
  return y;
}

static std::vector<splgen_lcplx> splgen_long_dft(const std::vector<splgen_lcplx> &x, splgen_roots &roots) {
  const long size = long(x.size());
  if (size > 0 && (size & (size - 1)) == 0) {
    std::vector<splgen_lcplx> a(x);
    splgen_radix2(a, roots.of(size));
    return a;
  }
  if (size <= 16) {  // the O(size^2) sum
    const std::vector<splgen_lcplx> &w = roots.of(size);
    std::vector<splgen_lcplx> y(static_cast<std::size_t>(size));
    for (long r = 0; r < size; ++r) {
      splgen_lcplx s = 0;
      for (long j = 0; j < size; ++j) s += splgen_mul(x[std::size_t(j)], w[std::size_t(r * j % size)]);
      y[std::size_t(r)] = s;
    }
    return y;
  }
  for (long d = 2; d <= 64 && d < size; ++d)
    if (size % d == 0) return splgen_mixed_radix(x, d, roots);
  return splgen_bluestein(x, roots);
}

// Rounded to double; a part below the long double rounding noise of |v| is an exact zero.
static void splgen_to_double(const splgen_lcplx &v, double *out) {
  const long double noise = 16 * std::numeric_limits<long double>::epsilon() * std::abs(v);
  out[0] = double(std::fabs(v.real()) <= noise ? 0.0L : v.real());
  out[1] = double(std::fabs(v.imag()) <= noise ? 0.0L : v.imag());
}
)";

// The generator's root_of_unity (generator/ir/dense.cpp): long double cos and sin of the
// first-octant angle, then exact reflections and quarter turns, rounded to double.
constexpr const char *kOctantRoot = R"(// exp(-2 pi i e / n) as the generator's root_of_unity (generator/ir/dense.cpp): from the
// first octant by exact reflections and rotations.
static void splgen_octant_root(long n, long e, double *out) {
  e %= n;
  if (e < 0) e += n;
  const long quarter = 8 * e / n / 2;
  const long rem = 8 * e - quarter * 2 * n;
  const long r = rem <= n ? rem : 2 * n - rem;
  const long double two_pi = 6.283185307179586476925286766559005768L;
  const long double t = two_pi * (long double)r / (8.0L * (long double)n);
  long double c = std::cos(t), s = std::sin(t);
  if (rem > n) std::swap(c, s);
  for (long q = 0; q < quarter; ++q) {
    const long double nc = -s, ns = c;
    c = nc, s = ns;
  }
  out[0] = double(c);
  out[1] = double(-s);
}
)";

// Statements filling `all` (2 * diag_size doubles) with the whole Diag.
std::string fill_statements(const DiagRecipe &r) {
  switch (r.kind) {
    case DiagRecipe::Kind::Chirp:
      return fmt::format("    for (long l = 0; l < {n}L; ++l)\n"
                         "      splgen_octant_root({n2}L, l * l % {n2}L * {k}L % {n2}L, &all[std::size_t(2 * l)]);\n",
                         fmt::arg("n", r.n), fmt::arg("n2", 2 * r.n), fmt::arg("k", r.k));
    case DiagRecipe::Kind::ChirpSpectrum:
      return fmt::format("    std::vector<splgen_lcplx> b(std::size_t({M}L));\n"
                         "    for (long j = 0; j < {n}L; ++j) {{\n"
                         "      b[std::size_t(j)] = splgen_long_root({n2}L, -(j * j % {n2}L * {k}L % {n2}L));\n"
                         "      if (j > 0) b[std::size_t({M}L - j)] = b[std::size_t(j)];\n"
                         "    }}\n"
                         "    splgen_roots roots;\n"
                         "    const std::vector<splgen_lcplx> d = splgen_long_dft(b, roots);\n"
                         "    for (long r = 0; r < {M}L; ++r) splgen_to_double(d[std::size_t(r)] / (long double){M}L, "
                         "&all[std::size_t(2 * r)]);\n",
                         fmt::arg("n", r.n), fmt::arg("n2", 2 * r.n), fmt::arg("k", r.k), fmt::arg("M", r.M));
    case DiagRecipe::Kind::RaderSpectrum:
      return fmt::format("    std::vector<splgen_lcplx> c(std::size_t({N}L));\n"
                         "    for (long j = 0, v = 1; j < {N}L; ++j, v = v * {g}L % {p}L)\n"
                         "      c[std::size_t(j)] = splgen_long_root({p}L, {k}L * v % {p}L);\n"
                         "    splgen_roots roots;\n"
                         "    std::vector<splgen_lcplx> d = splgen_long_dft(c, roots);\n"
                         "    for (splgen_lcplx &e : d) e /= (long double){N}L;\n"
                         "    for (long j = 1; j < {N}L; ++j) splgen_to_double(d[std::size_t(j)], &all[std::size_t(2 * (j - 1))]);\n",
                         fmt::arg("p", r.n), fmt::arg("N", r.n - 1), fmt::arg("k", r.k), fmt::arg("g", r.g));
    case DiagRecipe::Kind::None: break;
  }
  throw std::invalid_argument("emit_cpp: a computed Diag table without a recipe");
}

std::string describe(const DiagRecipe &r) {
  switch (r.kind) {
    case DiagRecipe::Kind::Chirp: return fmt::format("Bluestein's chirp w_{}^({} l^2), l < {}", 2 * r.n, r.k, r.n);
    case DiagRecipe::Kind::ChirpSpectrum:
      return fmt::format("Bluestein's kernel spectrum DFT({}) b / {}, b_j = w_{}^(-{} j^2) for |j| < {}", r.M, r.M, 2 * r.n,
                         r.k, r.n);
    case DiagRecipe::Kind::RaderSpectrum:
      return fmt::format("Rader's diagonal d_1.., d = DFT({}) c / {}, c_j = w_{}^({} {}^j)", r.n - 1, r.n - 1, r.n, r.k, r.g);
    case DiagRecipe::Kind::None: break;
  }
  return "";
}

}  // namespace

bool is_computed_diag(const Buffer &b) {
  return b.role == BufferRole::Table && b.diag_recipe.kind != DiagRecipe::Kind::None &&
         diag_size(b.diag_recipe) > kMaxPrintedDiag;
}

bool needs_long_dft(const Buffer &b) { return b.diag_recipe.kind != DiagRecipe::Kind::Chirp; }

std::string computed_diag_helpers(bool with_dft, bool with_chirp) {
  std::string out = with_dft ? kLongDft : "";
  if (with_chirp) out += std::string(out.empty() ? "" : "\n") + kOctantRoot;
  return out;
}

std::string computed_diag_table(const std::string &name, const Buffer &b, const std::string &real) {
  const DiagRecipe &r = b.diag_recipe;
  const int64_t all = diag_size(r), last = b.diag_first + b.diag_step * (b.size - 1);
  if (b.size < 1 || b.diag_first < 0 || b.diag_first >= all || last < 0 || last >= all)
    throw std::invalid_argument(fmt::format("emit_cpp: table {} reads outside its Diag", b.name));
  const std::string entries = b.diag_first == 0 && b.diag_step == 1 && b.size == all
                                  ? ""
                                  : fmt::format(", entries {} + {} q", b.diag_first, b.diag_step);
  return fmt::format(
      "// {what}{entries}, computed on first use (backends/cpp/computed_diag.h).\n"
      "static const {real} *{name}_values() {{\n"
      "  static const std::vector<{real}> table = [] {{\n"
      "    std::vector<double> all(std::size_t(2 * {all}L));\n"
      "{fill}"
      "    std::vector<{real}> v(std::size_t(2 * {size}L));\n"
      "    for (long q = 0; q < {size}L; ++q) {{\n"
      "      v[std::size_t(2 * q)] = static_cast<{real}>(all[std::size_t(2 * ({first}L + {step}L * q))]);\n"
      "      v[std::size_t(2 * q + 1)] = static_cast<{real}>(all[std::size_t(2 * ({first}L + {step}L * q) + 1)]);\n"
      "    }}\n"
      "    return v;\n"
      "  }}();\n"
      "  return table.data();\n"
      "}}\n",
      fmt::arg("what", describe(r)), fmt::arg("entries", entries), fmt::arg("real", real), fmt::arg("name", name),
      fmt::arg("all", all), fmt::arg("fill", fill_statements(r)), fmt::arg("size", b.size),
      fmt::arg("first", b.diag_first), fmt::arg("step", b.diag_step));
}

}  // namespace splgen::backends
