#include "backends/simd/simd_isa.h"

#include <fmt/format.h>

#include <stdexcept>

namespace splgen::backends::simd {

namespace {
bool is_double(const VectorKind &k) { return k.precision == Precision::Double; }
std::string prefix(const VectorKind &k) {
  switch (k.bits()) {
    case 128: return "_mm_";
    case 256: return "_mm256_";
    case 512: return "_mm512_";
  }
  throw std::invalid_argument(fmt::format("no vector registers of {} bits", k.bits()));
}
}  // namespace

std::string VectorKind::type() const {
  return fmt::format("__m{}{}", bits(), is_double(*this) ? "d" : "");
}

std::string VectorKind::op(const std::string &name) const {
  return prefix(*this) + name + (is_double(*this) ? "_pd" : "_ps");
}

std::string VectorKind::suffix() const { return fmt::format("{}{}", is_double(*this) ? "d" : "f", lanes); }

std::vector<int> VectorKind::lane_order() const {
  // Two registers of interleaved data, v0 = elements 0 .. lanes/2-1 and v1 the rest; an
  // in-chunk unpack (double) or shuffle (float) takes c elements of each 128-bit chunk of v0,
  // then c of v1 (c = 1 double, 2 float).
  const int c = is_double(*this) ? 1 : 2, chunks = bits() / 128, half = lanes / 2;
  std::vector<int> order;
  for (int j = 0; j < chunks; ++j) {
    for (int i = 0; i < c; ++i) order.push_back(j * c + i);
    for (int i = 0; i < c; ++i) order.push_back(half + j * c + i);
  }
  return order;
}

int VectorKind::group() const { return lanes / 2; }  // d2: a complex element is already a whole register

std::string VectorKind::negate(const std::string &a) const {
  if (bits() == 512) {  // AVX-512F has no floating-point xor (that is AVX-512DQ)
    std::string si = is_double(*this) ? "pd" : "ps";
    return fmt::format("_mm512_castsi512_{0}(_mm512_xor_si512(_mm512_cast{0}_si512({1}), _mm512_cast{0}_si512({2})))",
                       si, a, broadcast(is_double(*this) ? "-0.0" : "-0.0f"));
  }
  return fmt::format("{}({}, {})", op("xor"), a, broadcast(is_double(*this) ? "-0.0" : "-0.0f"));
}

std::string VectorKind::broadcast(const std::string &scalar) const { return fmt::format("{}({})", op("set1"), scalar); }

std::string target_attribute(Isa isa) {
  switch (isa) {
    case Isa::Scalar: return "";
    case Isa::Sse2: return "__attribute__((target(\"sse2\")))";
    case Isa::Avx2: return "__attribute__((target(\"avx2,fma\")))";
    case Isa::Avx512: return "__attribute__((target(\"avx512f,avx2,fma\")))";
  }
  return "";
}

namespace {

// Pointer parameter lists: "const double *p0, ..., const double *p3".
std::string params(const std::string &type, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += fmt::format("{}{} *p{}", i ? ", " : "", type, i);
  return s;
}

// 128-bit register holding whole complex elements: double c_a | c_b, or float c_a c_b | c_c c_d.
std::string load128(bool dbl, int a, int b) {
  if (dbl) return fmt::format("_mm_loadu_pd(p{})", a);
  return fmt::format("_mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)p{}), (const __m64 *)p{})", a, b);
}

std::string store128(bool dbl, const std::string &v, int a, int b) {
  if (dbl) return fmt::format("  _mm_storeu_pd(p{}, {});\n", a, v);
  return fmt::format("  _mm_storel_pi((__m64 *)p{0}, {2});\n  _mm_storeh_pi((__m64 *)p{1}, {2});\n", a, b, v);
}

// An in-place transpose of the lanes x lanes matrix whose rows are v[0..lanes-1].
std::string transpose(const VectorKind &k) {
  const std::string V = k.type();
  std::string out;
  auto line = [&](const std::string &s) { out += "  " + s + "\n"; };
  if (k.precision == Precision::Double && k.lanes == 4) {
    line(fmt::format("const {0} t0 = _mm256_unpacklo_pd(v[0], v[1]), t1 = _mm256_unpackhi_pd(v[0], v[1]);", V));
    line(fmt::format("const {0} t2 = _mm256_unpacklo_pd(v[2], v[3]), t3 = _mm256_unpackhi_pd(v[2], v[3]);", V));
    line("v[0] = _mm256_permute2f128_pd(t0, t2, 0x20);");
    line("v[1] = _mm256_permute2f128_pd(t1, t3, 0x20);");
    line("v[2] = _mm256_permute2f128_pd(t0, t2, 0x31);");
    line("v[3] = _mm256_permute2f128_pd(t1, t3, 0x31);");
  } else if (k.precision == Precision::Float && k.lanes == 4) {
    line(fmt::format("const {0} t0 = _mm_unpacklo_ps(v[0], v[1]), t1 = _mm_unpackhi_ps(v[0], v[1]);", V));
    line(fmt::format("const {0} t2 = _mm_unpacklo_ps(v[2], v[3]), t3 = _mm_unpackhi_ps(v[2], v[3]);", V));
    line("v[0] = _mm_movelh_ps(t0, t2);");
    line("v[1] = _mm_movehl_ps(t2, t0);");
    line("v[2] = _mm_movelh_ps(t1, t3);");
    line("v[3] = _mm_movehl_ps(t3, t1);");
  } else if (k.precision == Precision::Float && k.lanes == 8) {
    line(fmt::format("{} t[8], u[8];", V));
    line("for (int i = 0; i < 8; i += 2) t[i] = _mm256_unpacklo_ps(v[i], v[i + 1]), t[i + 1] = _mm256_unpackhi_ps(v[i], v[i + 1]);");
    line("for (int h = 0; h < 8; h += 4) {");
    line("  u[h] = _mm256_shuffle_ps(t[h], t[h + 2], 0x44);");
    line("  u[h + 1] = _mm256_shuffle_ps(t[h], t[h + 2], 0xEE);");
    line("  u[h + 2] = _mm256_shuffle_ps(t[h + 1], t[h + 3], 0x44);");
    line("  u[h + 3] = _mm256_shuffle_ps(t[h + 1], t[h + 3], 0xEE);");
    line("}");
    line("for (int i = 0; i < 4; ++i) v[i] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20), v[i + 4] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);");
  } else if (k.precision == Precision::Double && k.lanes == 8) {
    // unpack pairs of rows, then 128-bit chunks 0/2 and 1/3 of two registers, twice:
    // 0x88 takes chunks (a0, a2, b0, b2), 0xDD (a1, a3, b1, b3).
    line(fmt::format("{} t[8], u[8];", V));
    line("for (int i = 0; i < 8; i += 2) t[i] = _mm512_unpacklo_pd(v[i], v[i + 1]), t[i + 1] = _mm512_unpackhi_pd(v[i], v[i + 1]);");
    line("for (int h = 0; h < 8; h += 4) {");
    line("  u[h] = _mm512_shuffle_f64x2(t[h], t[h + 2], 0x88);");
    line("  u[h + 1] = _mm512_shuffle_f64x2(t[h], t[h + 2], 0xDD);");
    line("  u[h + 2] = _mm512_shuffle_f64x2(t[h + 1], t[h + 3], 0x88);");
    line("  u[h + 3] = _mm512_shuffle_f64x2(t[h + 1], t[h + 3], 0xDD);");
    line("}");
    // u[j] holds columns first[j] and first[j] + 4 of rows 0-3, u[j + 4] the same of rows 4-7
    line("static const int first[4] = {0, 2, 1, 3};");
    line("for (int j = 0; j < 4; ++j) v[first[j]] = _mm512_shuffle_f64x2(u[j], u[j + 4], 0x88), v[first[j] + 4] = _mm512_shuffle_f64x2(u[j], u[j + 4], 0xDD);");
  } else if (k.precision == Precision::Float && k.lanes == 16) {
    // 4x4 transposes within each 128-bit chunk (as for 8 lanes), then chunk c of rows 4h..4h+3
    // gathered into column 4c + j across the four groups of rows.
    line(fmt::format("{} t[16], u[16];", V));
    line("for (int i = 0; i < 16; i += 2) t[i] = _mm512_unpacklo_ps(v[i], v[i + 1]), t[i + 1] = _mm512_unpackhi_ps(v[i], v[i + 1]);");
    line("for (int h = 0; h < 16; h += 4) {");
    line("  u[h] = _mm512_shuffle_ps(t[h], t[h + 2], 0x44);");
    line("  u[h + 1] = _mm512_shuffle_ps(t[h], t[h + 2], 0xEE);");
    line("  u[h + 2] = _mm512_shuffle_ps(t[h + 1], t[h + 3], 0x44);");
    line("  u[h + 3] = _mm512_shuffle_ps(t[h + 1], t[h + 3], 0xEE);");
    line("}");
    line("for (int j = 0; j < 4; ++j) {");
    line(fmt::format("  const {} w0 = _mm512_shuffle_f32x4(u[j], u[j + 4], 0x44), w1 = _mm512_shuffle_f32x4(u[j], u[j + 4], 0xEE);", V));
    line(fmt::format("  const {} w2 = _mm512_shuffle_f32x4(u[j + 8], u[j + 12], 0x44), w3 = _mm512_shuffle_f32x4(u[j + 8], u[j + 12], 0xEE);", V));
    line("  v[j] = _mm512_shuffle_f32x4(w0, w2, 0x88), v[j + 4] = _mm512_shuffle_f32x4(w0, w2, 0xDD);");
    line("  v[j + 8] = _mm512_shuffle_f32x4(w1, w3, 0x88), v[j + 12] = _mm512_shuffle_f32x4(w1, w3, 0xDD);");
    line("}");
  } else {
    throw std::invalid_argument(fmt::format("no transpose for {}", k.suffix()));
  }
  return out;
}

// A 512-bit register from the 256-bit halves at p and p + lanes / 2 (AVX-512F alone has no
// 256-bit insert for float: the halves travel as double).
std::string load512_halves(const VectorKind &k, const std::string &p) {
  const bool dbl = k.precision == Precision::Double;
  std::string lo = fmt::format("_mm256_loadu_pd((const double *)({}))", p);
  std::string hi = fmt::format("_mm256_loadu_pd((const double *)({} + {}))", p, k.lanes / 2);
  std::string v = fmt::format("_mm512_insertf64x4(_mm512_castpd256_pd512({}), {}, 1)", lo, hi);
  return dbl ? v : "_mm512_castpd_ps(" + v + ")";
}

// Rows of the transpose are lanes (register order): re_0 im_0 re_1 im_1 ... of one lane.
std::string group_helpers(const VectorKind &k, const std::string &attrs) {
  const bool dbl = k.precision == Precision::Double;
  const std::string real = dbl ? "double" : "float", V = k.type();
  const int g = k.group();
  std::string regs_out, regs_in, assign_in, assign_out;
  for (int i = 0; i < g; ++i) {
    regs_out += fmt::format("{0}{1} &r{2}, {1} &i{2}", i ? ", " : "", V, i);
    regs_in += fmt::format(", {0} r{1}, {0} i{1}", V, i);
    assign_in += fmt::format("{}r{}, i{}", i ? ", " : "", i, i);
    assign_out += fmt::format("  r{0} = v[{1}];\n  i{0} = v[{2}];\n", i, 2 * i, 2 * i + 1);
  }
  std::string out = fmt::format("{}void splgen_transpose_{}({} *v) {{\n{}}}\n", attrs, k.suffix(), V, transpose(k));
  out += fmt::format("{}void {}({}, {}) {{\n", attrs, k.load_group_helper(), regs_out, params("const " + real, k.lanes));
  out += fmt::format("  {} v[{}];\n", V, k.lanes);
  for (int l = 0; l < k.lanes; ++l) out += fmt::format("  v[{0}] = {1}(p{0});\n", l, k.op("loadu"));
  out += fmt::format("  splgen_transpose_{}(v);\n{}}}\n", k.suffix(), assign_out);
  if (k.bits() == 512) {
    out += fmt::format("{}void {}({}, {}) {{\n", attrs, k.load_group_halves_helper(), regs_out, params("const " + real, k.lanes));
    out += fmt::format("  {} v[{}];\n", V, k.lanes);
    for (int l = 0; l < k.lanes; ++l) out += fmt::format("  v[{}] = {};\n", l, load512_halves(k, fmt::format("p{}", l)));
    out += fmt::format("  splgen_transpose_{}(v);\n{}}}\n", k.suffix(), assign_out);
  }
  out += fmt::format("{}void {}({}{}) {{\n", attrs, k.store_group_helper(), params(real, k.lanes), regs_in);
  out += fmt::format("  {} v[{}] = {{{}}};\n  splgen_transpose_{}(v);\n", V, k.lanes, assign_in, k.suffix());
  for (int l = 0; l < k.lanes; ++l) out += fmt::format("  {1}(p{0}, v[{0}]);\n", l, k.op("storeu"));
  out += "}\n";
  return out;
}

// The first n complex elements at p as the contiguous helpers: register a holds elements
// 0 .. lanes/2 - 1, b the rest, so a's mask has the low 2 min(n, lanes/2) bits set.
std::string masked_helpers(const VectorKind &k, const std::string &attrs) {
  const bool dbl = k.precision == Precision::Double;
  const std::string real = dbl ? "double" : "float", V = k.type(), M = dbl ? "__mmask8" : "__mmask16";
  const int half = k.lanes / 2;
  std::string masks = fmt::format(
      "  const {0} ka = ({0})((1u << (2 * (n < {1} ? n : {1}))) - 1u), kb = ({0})((1u << (2 * (n > {1} ? n - {1} : 0))) - 1u);\n",
      M, half);
  std::string out = fmt::format("{}void {}({} &re, {} &im, const {} *p, int n) {{\n", attrs,
                                k.load_contiguous_masked_helper(), V, V, real);
  out += masks;
  out += fmt::format("  const {0} a = {1}(ka, p);\n  const {0} b = {1}(kb, p + {2});\n", V, k.op("maskz_loadu"), k.lanes);
  if (dbl)
    out += fmt::format("  re = {}(a, b);\n  im = {}(a, b);\n", k.op("unpacklo"), k.op("unpackhi"));
  else
    out += fmt::format("  re = {0}(a, b, _MM_SHUFFLE(2, 0, 2, 0));\n  im = {0}(a, b, _MM_SHUFFLE(3, 1, 3, 1));\n", k.op("shuffle"));
  out += "}\n";
  out += fmt::format("{}void {}({} *p, {} re, {} im, int n) {{\n", attrs, k.store_contiguous_masked_helper(), real, V, V);
  out += masks;
  out += fmt::format("  {0}(p, ka, {1}(re, im));\n  {0}(p + {2}, kb, {3}(re, im));\n", k.op("mask_storeu"),
                     k.op("unpacklo"), k.lanes, k.op("unpackhi"));
  out += "}\n";
  return out;
}

}  // namespace

// Lane order: 128-bit chunk j of register A holds the complex elements of lanes
// 2j*c .. (2j+1)*c - 1 and chunk j of B the next c lanes (c = complex elements per chunk:
// 1 double, 2 float); an in-chunk unpack (double) or shuffle (float) then separates real and
// imaginary parts into lanes in natural order.
std::string VectorKind::helpers(const std::string &target) const {
  const bool dbl = is_double(*this);
  const std::string real = dbl ? "double" : "float", V = type();
  const int per_chunk = dbl ? 1 : 2, chunks = bits() / 128;
  std::string guard = fmt::format("SPLGEN_SIMD_HELPERS_{}", suffix());
  std::string out = fmt::format("#ifndef {0}\n#define {0}\n", guard);
  // unused: each file prints the whole vocabulary of its kinds; clang warns of the unused ones.
  std::string attrs = "static inline __attribute__((always_inline, unused)) " + target + (target.empty() ? "" : " ");

  // chunk j of A: lanes (2j)*c ..; of B: lanes (2j+1)*c ..
  auto chunk = [&](int j, int which) {
    int first = (2 * j + which) * per_chunk;
    return load128(dbl, first, first + 1);
  };
  auto build = [&](int which) {
    if (chunks == 1) return chunk(0, which);
    std::string s = dbl ? "pd" : "ps";
    if (chunks == 2)
      return fmt::format("_mm256_insertf128_{0}(_mm256_cast{0}128_{0}256({1}), {2}, 1)", s, chunk(0, which), chunk(1, which));
    std::string ins = dbl ? "_mm512_insertf64x2" : "_mm512_insertf32x4";
    if (dbl) {  // AVX-512F has no insertf64x2: build 256-bit halves
      std::string lo = fmt::format("_mm256_insertf128_pd(_mm256_castpd128_pd256({}), {}, 1)", chunk(0, which), chunk(1, which));
      std::string hi = fmt::format("_mm256_insertf128_pd(_mm256_castpd128_pd256({}), {}, 1)", chunk(2, which), chunk(3, which));
      return fmt::format("_mm512_insertf64x4(_mm512_castpd256_pd512({}), {}, 1)", lo, hi);
    }
    std::string r = fmt::format("_mm512_castps128_ps512({})", chunk(0, which));
    for (int j = 1; j < 4; ++j) r = fmt::format("{}({}, {}, {})", ins, r, chunk(j, which), j);
    return r;
  };
  out += fmt::format("{}void {}({} &re, {} &im, {}) {{\n", attrs, load_helper(), V, V, params("const " + real, lanes));
  out += fmt::format("  const {0} a = {1};\n  const {0} b = {2};\n", V, build(0), build(1));
  if (dbl)
    out += fmt::format("  re = {}(a, b);\n  im = {}(a, b);\n", op("unpacklo"), op("unpackhi"));
  else
    out += fmt::format("  re = {0}(a, b, _MM_SHUFFLE(2, 0, 2, 0));\n  im = {0}(a, b, _MM_SHUFFLE(3, 1, 3, 1));\n", op("shuffle"));
  out += "}\n";

  out += fmt::format("{}void {}({}, {} re, {} im) {{\n", attrs, store_helper(), params(real, lanes), V, V);
  out += fmt::format("  const {0} a = {1}(re, im);\n  const {0} b = {2}(re, im);\n", V, op("unpacklo"), op("unpackhi"));
  for (int which = 0; which < 2; ++which) {
    std::string v = which == 0 ? "a" : "b";
    for (int j = 0; j < chunks; ++j) {
      std::string part;
      std::string s = dbl ? "pd" : "ps";
      if (chunks == 1)
        part = v;
      else if (chunks == 2)
        part = j == 0 ? fmt::format("_mm256_cast{}256_{}128({})", s, s, v) : fmt::format("_mm256_extractf128_{}({}, 1)", s, v);
      else if (dbl)
        part = fmt::format("_mm256_extractf128_pd(_mm512_extractf64x4_pd({}, {}), {})", v, j / 2, j % 2);
      else
        part = fmt::format("_mm512_extractf32x4_ps({}, {})", v, j);
      int first = (2 * j + which) * per_chunk;
      out += store128(dbl, part, first, first + 1);
    }
  }
  out += "}\n";
  // contiguous: two whole registers, one unpack/shuffle each way
  std::string loadu = op("loadu"), storeu = op("storeu");
  out += fmt::format("{}void {}({} &re, {} &im, const {} *p) {{\n", attrs, load_contiguous_helper(), V, V, real);
  out += fmt::format("  const {0} a = {1}(p);\n  const {0} b = {1}(p + {2});\n", V, loadu, lanes);
  if (dbl)
    out += fmt::format("  re = {}(a, b);\n  im = {}(a, b);\n", op("unpacklo"), op("unpackhi"));
  else
    out += fmt::format("  re = {0}(a, b, _MM_SHUFFLE(2, 0, 2, 0));\n  im = {0}(a, b, _MM_SHUFFLE(3, 1, 3, 1));\n", op("shuffle"));
  out += "}\n";
  if (bits() == 512) {
    out += fmt::format("{}void {}({} &re, {} &im, const {} *p) {{\n", attrs, load_contiguous_halves_helper(), V, V, real);
    out += fmt::format("  const {0} a = {1};\n  const {0} b = {2};\n", V, load512_halves(*this, "p"),
                       load512_halves(*this, fmt::format("p + {}", lanes)));
    if (dbl)
      out += fmt::format("  re = {}(a, b);\n  im = {}(a, b);\n", op("unpacklo"), op("unpackhi"));
    else
      out += fmt::format("  re = {0}(a, b, _MM_SHUFFLE(2, 0, 2, 0));\n  im = {0}(a, b, _MM_SHUFFLE(3, 1, 3, 1));\n", op("shuffle"));
    out += "}\n";
  }
  out += fmt::format("{}void {}({} *p, {} re, {} im) {{\n", attrs, store_contiguous_helper(), real, V, V);
  out += fmt::format("  {0}(p, {1}(re, im));\n  {0}(p + {2}, {3}(re, im));\n", storeu, op("unpacklo"), lanes, op("unpackhi"));
  out += "}\n";
  if (bits() == 512) out += masked_helpers(*this, attrs);
  if (group() > 1) out += group_helpers(*this, attrs);
  out += fmt::format("#endif  // {}\n", guard);
  return out;
}

}  // namespace splgen::backends::simd
