// The portable C++ backend: hand-built loop-IR functions are emitted in both precisions,
// compiled with g++ and clang++ (-Wall -Wextra -Werror), loaded, run on random input and
// compared with interpret().
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpp/complex_codelet.h"
#include "generator/lower/complex_codelet.h"
#include "backends/cpp/cpp_backend.h"
#include "generator/ir/loops.h"
#include "generator/lower/prepare_for_printing.h"
#include "tests/support/kernel_loader.h"

namespace splgen {
namespace {

constexpr double kPi = 3.14159265358979323846;

// ---- building blocks ----------------------------------------------------------------------

Idx av(LoopVar v, int64_t coeff = 1, int64_t c = 0) { return idx_affine(Affine::var(v, coeff) + c); }
Idx ac(int64_t c) { return idx_const(c); }
Expr ld(int buffer, Idx i, int part) { return e_load(buffer, std::move(i), part); }
Expr sc(int s) { return e_scalar(s); }
Stmt st(int buffer, Idx i, int part, Expr v) { return make_store(buffer, std::move(i), part, std::move(v)); }
// both parts: buffer[i] = src[j]
Stmt copy(int dst, Idx i, int src, Idx j) {
  return make_block({st(dst, i, 0, ld(src, j, 0)), st(dst, i, 1, ld(src, j, 1))});
}

Function base(const std::string &name, int64_t rows, int64_t cols) {
  Function f;
  f.name = name;
  f.rows = rows, f.cols = cols;
  f.buffers.push_back(Buffer{0, BufferRole::Input, cols, "x", {}});
  f.buffers.push_back(Buffer{1, BufferRole::Output, rows, "y", {}});
  return f;
}

int add_buffer(Function &f, BufferRole role, int64_t size, const std::string &name, std::vector<cplx> values = {}) {
  int id = int(f.buffers.size());
  f.buffers.push_back(Buffer{id, role, size, name, std::move(values)});
  return id;
}

cplx root(int64_t n, int64_t k) { return std::polar(1.0, -2 * kPi * double(k % n) / double(n)); }

// ---- the functions ------------------------------------------------------------------------

// y[i] = x[15 - i]: a plain loop, negative coefficient
Function make_copy() {
  Function f = base("copy", 16, 16);
  LoopVar i{0, 16};
  f.body = make_for(i, copy(kOutputBuffer, av(i), kInputBuffer, av(i, -1, 15)));
  return f;
}

// DFT(4) (x) I(4) style: gather at stride into a temp, twiddle with a table, constants
Function make_twiddle() {
  Function f = base("twiddle", 16, 16);
  std::vector<cplx> w;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j) w.push_back(root(16, i * j));
  int t = add_buffer(f, BufferRole::Temp, 16, "x");  // name collides with the input: renamed
  int tw = add_buffer(f, BufferRole::Table, 16, "tw", w);
  LoopVar i0{0, 4}, i1{1, 4}, k{2, 16};
  Stmt gather = make_for(i0, make_for(i1, copy(t, idx_affine(Affine::var(i0, 4) + Affine::var(i1)), kInputBuffer,
                                               idx_affine(Affine::var(i1, 4) + Affine::var(i0)))));
  // complex multiply with scalars, then a scaled output
  Expr ar = ld(t, av(k), 0), ai = ld(t, av(k), 1), wr = ld(tw, av(k), 0), wi = ld(tw, av(k), 1);
  Stmt mul = make_block({
      make_assign(0, e_sub(e_mul(ar, wr), e_mul(ai, wi))),
      make_assign(1, e_add(e_mul(ar, wi), e_mul(ai, wr))),
      st(kOutputBuffer, av(k), 0, e_mul(e_const(0.70710678118654752440), e_add(sc(0), e_const(-0.25)))),
      st(kOutputBuffer, av(k), 1, e_sub(e_mul(e_const(1.7320508075688772), sc(1)), e_mul(e_const(0.5), sc(0)))),
  });
  f.scalars = 2;
  f.body = make_block({gather, make_for(k, mul)});
  return f;
}

// lookup-table permutations and Add/Mul/Div/Mod indices
Function make_lookup() {
  Function f = base("lookup", 64, 16);
  auto rev = std::make_shared<const std::vector<int64_t>>(
      std::vector<int64_t>{0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15});
  auto rev_copy = std::make_shared<const std::vector<int64_t>>(*rev);  // same content: one table
  std::vector<int64_t> bigv;
  for (int64_t i = 0; i < 16; ++i) bigv.push_back((int64_t(1) << 40) + 3 * i + i % 2);  // not affine: stays a lookup
  auto big = std::make_shared<const std::vector<int64_t>>(bigv);
  LoopVar i{0, 16};
  Idx perm = idx_add(idx_scale(idx_mod(av(i), 4), 4), idx_div(av(i), 4));  // (i % 4)*4 + i / 4
  f.body = make_block({
      make_for(i, copy(kOutputBuffer, av(i), kInputBuffer, idx_lookup(rev, av(i)))),
      make_for(i, copy(kOutputBuffer, av(i, 1, 16), kInputBuffer, perm)),
      make_for(i, copy(kOutputBuffer, idx_add(ac(32), idx_lookup(rev_copy, av(i))), kInputBuffer,
                       idx_lookup(rev, idx_lookup(rev_copy, av(i))))),
      make_for(i, copy(kOutputBuffer, av(i, 1, 48), kInputBuffer,
                       idx_add(idx_mul(idx_mod(av(i), 2), idx_div(av(i), 2)),
                               idx_mod(idx_lookup(big, idx_add(av(i, -1, 15), ac(0))), 8)))),
  });
  return f;
}

// O(n^2) DFT(8): mutable scalars accumulating in a loop, a table named like a keyword
Function make_accumulate() {
  const int64_t n = 8;
  Function f = base("accumulate", n, n);
  std::vector<cplx> w;
  for (int64_t k = 0; k < n; ++k)
    for (int64_t l = 0; l < n; ++l) w.push_back(root(n, k * l));
  int tw = add_buffer(f, BufferRole::Table, n * n, "for", w);
  LoopVar k{0, n}, l{1, n};
  Idx wi = idx_affine(Affine::var(k, n) + Affine::var(l));
  Expr xr = ld(kInputBuffer, av(l), 0), xi = ld(kInputBuffer, av(l), 1);
  Expr cr = ld(tw, wi, 0), ci = ld(tw, wi, 1);
  Stmt inner = make_block({
      make_assign(0, e_add(sc(0), e_sub(e_mul(xr, cr), e_mul(xi, ci))), false),
      make_assign(1, e_add(sc(1), e_add(e_mul(xr, ci), e_mul(xi, cr))), false),
  });
  f.scalars = 2;
  f.body = make_for(k, make_block({make_assign(0, e_const(0)), make_assign(1, e_const(0)), make_for(l, inner),
                                   st(kOutputBuffer, av(k), 0, sc(0)), st(kOutputBuffer, av(k), 1, sc(1))}));
  return f;
}

// straight-line code: shared constants, parentheses that must stay
Function make_straight() {
  Function f = base("straight", 6, 6);
  auto r = [](int i) { return ld(kInputBuffer, ac(i), 0); };
  auto im = [](int i) { return ld(kInputBuffer, ac(i), 1); };
  Expr c1 = e_const(0.70710678118654752440), c1b = e_const(0.7071067811);  // same genfft name
  Expr c2 = e_const(0.86602540378443864676), c3 = e_const(-2.5), c4 = e_const(1e-20), c5 = e_const(1234.5);
  f.scalars = 4;
  f.body = make_block({
      make_assign(0, e_sub(r(0), e_sub(r(1), r(2)))),                   // a - (b - c)
      make_assign(1, e_sub(e_sub(r(0), r(1)), r(2))),                   // (a - b) - c
      make_assign(2, e_mul(e_add(r(3), r(4)), e_sub(im(0), im(1)))),    // (a + b) * (c - d)
      make_assign(3, e_mul(c1, e_mul(r(5), e_mul(im(2), im(3))))),      // k * (a * (b * c))
      st(kOutputBuffer, ac(0), 0, e_add(sc(0), e_mul(c1, sc(1)))),
      st(kOutputBuffer, ac(0), 1, e_sub(sc(1), e_mul(c2, sc(2)))),
      st(kOutputBuffer, ac(1), 0, e_add(e_mul(c3, sc(3)), e_mul(c1b, r(1)))),
      st(kOutputBuffer, ac(1), 1, e_add(e_mul(c4, r(2)), e_mul(c5, im(4)))),
      st(kOutputBuffer, ac(2), 0, e_neg(e_add(r(0), im(5)))),
      st(kOutputBuffer, ac(2), 1, e_add(e_neg(sc(2)), e_mul(c2, e_neg(r(4))))),
      st(kOutputBuffer, ac(3), 0, e_sub(e_const(2), e_mul(e_const(0.5), r(3)))),
      st(kOutputBuffer, ac(3), 1, e_add(e_const(1), e_const(0))),
      st(kOutputBuffer, ac(4), 0, e_add(r(1), e_add(r(2), r(3)))),     // a + (b + c)
      st(kOutputBuffer, ac(4), 1, e_sub(e_neg(im(3)), e_neg(im(4)))),
      st(kOutputBuffer, ac(5), 0, e_mul(c2, e_sub(c3, r(5)))),
      st(kOutputBuffer, ac(5), 1, e_const(-2.5)),
  });
  return f;
}

// scoping corner cases the emitter must repair, dead code, extent-1 loops
Function make_scoping() {
  Function f = base("scoping", 8, 8);
  LoopVar i{0, 4}, j{1, 2}, one{2, 1}, dead{3, 8};
  // a raw -(-x), which the factories would cancel
  auto neg_neg = std::make_shared<ExprNode>();
  neg_neg->kind = ExprKind::Neg;
  neg_neg->a = e_neg(ld(kInputBuffer, ac(7), 0));
  f.scalars = 7;
  f.body = make_block({
      // s0 declared in a loop and read after it (interpreter: the last iteration's value)
      make_for(i, make_assign(0, e_mul(e_const(2), ld(kInputBuffer, av(i), 0)))),
      st(kOutputBuffer, ac(0), 0, sc(0)),
      // s1 declared twice in the same scope (as an unroller might leave it)
      make_assign(1, ld(kInputBuffer, ac(0), 1)),
      st(kOutputBuffer, ac(0), 1, sc(1)),
      make_assign(1, e_add(ld(kInputBuffer, ac(1), 1), sc(1))),
      st(kOutputBuffer, ac(1), 0, sc(1)),
      // s2 declared in two sibling loops
      make_for(j, make_block({make_assign(2, ld(kInputBuffer, av(j), 0)), st(kOutputBuffer, av(j, 1, 2), 0, sc(2))})),
      make_for(j, make_block({make_assign(2, ld(kInputBuffer, av(j), 1)), st(kOutputBuffer, av(j, 1, 2), 1, sc(2))})),
      // dead: a chain never read, a self-accumulation never read (its loop disappears)
      make_assign(3, ld(kInputBuffer, ac(0), 0)),
      make_assign(4, e_mul(e_const(3), sc(3))),
      make_assign(5, e_const(0)),
      make_for(dead, make_assign(5, e_add(sc(5), ld(kInputBuffer, av(dead), 0)), false)),
      // extent-1 loop
      make_for(one, make_block({st(kOutputBuffer, av(one, 1, 4), 0, ld(kInputBuffer, av(one, 3, 2), 0)),
                                st(kOutputBuffer, av(one, 1, 4), 1, e_const(0))})),
      // s6 assigned (declare=false) without any declaration
      make_assign(6, ld(kInputBuffer, ac(6), 1), false),
      st(kOutputBuffer, ac(5), 0, sc(6)),
      st(kOutputBuffer, ac(5), 1, neg_neg),
      st(kOutputBuffer, ac(1), 1, ld(kOutputBuffer, ac(0), 0)),  // reads y back
  });
  return f;
}

// y = 0.5 * L(4096, 64) x through a temporary too large for the stack
Function make_big_temp() {
  Function f = base("big_temp", 4096, 4096);
  int t = add_buffer(f, BufferRole::Temp, 4096, "big");
  LoopVar i{0, 64}, j{1, 64}, k{2, 4096};
  f.body = make_block({
      make_for(i, make_for(j, copy(t, idx_affine(Affine::var(i, 64) + Affine::var(j)), kInputBuffer,
                                   idx_affine(Affine::var(j, 64) + Affine::var(i))))),
      make_for(k, make_block({st(kOutputBuffer, av(k), 0, e_mul(e_const(0.5), ld(t, av(k), 0))),
                              st(kOutputBuffer, av(k), 1, e_mul(e_const(0.5), ld(t, av(k), 1)))})),
  });
  return f;
}

// x is never read
Function make_constant_only() {
  Function f = base("constant_only", 2, 2);
  LoopVar i{0, 2};
  f.body = make_for(i, make_block({st(kOutputBuffer, av(i), 0, e_const(1)), st(kOutputBuffer, av(i), 1, e_const(-1))}));
  return f;
}

// straight-line DFT(4) through a small temporary (as a fully unrolled kernel would be)
Function make_unrolled() {
  Function f = base("unrolled", 4, 4);
  int t = add_buffer(f, BufferRole::Temp, 4, "t");
  std::vector<Stmt> body;
  for (int part = 0; part < 2; ++part) {
    body.push_back(st(t, ac(0), part, e_add(ld(kInputBuffer, ac(0), part), ld(kInputBuffer, ac(2), part))));
    body.push_back(st(t, ac(1), part, e_sub(ld(kInputBuffer, ac(0), part), ld(kInputBuffer, ac(2), part))));
    body.push_back(st(t, ac(2), part, e_add(ld(kInputBuffer, ac(1), part), ld(kInputBuffer, ac(3), part))));
    body.push_back(st(t, ac(3), part, e_sub(ld(kInputBuffer, ac(1), part), ld(kInputBuffer, ac(3), part))));
  }
  for (int part = 0; part < 2; ++part) {
    body.push_back(st(kOutputBuffer, ac(0), part, e_add(ld(t, ac(0), part), ld(t, ac(2), part))));
    body.push_back(st(kOutputBuffer, ac(2), part, e_sub(ld(t, ac(0), part), ld(t, ac(2), part))));
  }
  // y1 = t1 - i t3, y3 = t1 + i t3
  body.push_back(st(kOutputBuffer, ac(1), 0, e_add(ld(t, ac(1), 0), ld(t, ac(3), 1))));
  body.push_back(st(kOutputBuffer, ac(1), 1, e_sub(ld(t, ac(1), 1), ld(t, ac(3), 0))));
  body.push_back(st(kOutputBuffer, ac(3), 0, e_sub(ld(t, ac(1), 0), ld(t, ac(3), 1))));
  body.push_back(st(kOutputBuffer, ac(3), 1, e_add(ld(t, ac(1), 1), ld(t, ac(3), 0))));
  f.body = make_block(std::move(body));
  return f;
}

std::vector<Function> all_functions() {
  return {make_copy(),      make_twiddle(), make_lookup(),   make_accumulate(),
          make_straight(),  make_scoping(), make_big_temp(), make_constant_only(),
          make_unrolled()};
}

// ---- compile, run, compare ------------------------------------------------------------------

std::vector<cplx> random_input(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<cplx> x;
  for (int64_t i = 0; i < n; ++i) x.emplace_back(d(gen), d(gen));
  return x;
}

template <class T>
std::vector<cplx> run_kernel(void (*kernel)(T *, const T *), const std::vector<cplx> &x, int64_t rows) {
  std::vector<T> in(2 * x.size()), out(std::size_t(2 * rows), T(0));
  for (std::size_t i = 0; i < x.size(); ++i) in[2 * i] = T(x[i].real()), in[2 * i + 1] = T(x[i].imag());
  kernel(out.data(), in.data());
  std::vector<cplx> y;
  for (int64_t i = 0; i < rows; ++i) y.emplace_back(double(out[std::size_t(2 * i)]), double(out[std::size_t(2 * i + 1)]));
  return y;
}

double relative_error(const std::vector<cplx> &got, const std::vector<cplx> &want) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return err / std::max(scale, 1e-300);
}

std::string kernel_name(const Function &f, Precision p) { return f.name + (p == Precision::Float ? "_f" : "_d"); }

void check_with_compiler(const std::string &compiler) {
  if (!test::have_program(compiler)) GTEST_SKIP() << compiler << " not found";
  test::TempDir dir;
  std::vector<Function> fs = all_functions();
  std::vector<std::string> sources;
  for (const Function &f : fs)
    for (Precision p : {Precision::Double, Precision::Float}) {
      Function g = f;
      g.name = kernel_name(f, p);
      sources.push_back(dir.write(g.name + ".cpp", backends::emit_cpp(lower::prepare_for_printing(g), {p, {"generated by splgen test -- do not edit"}})));
    }
  std::string so;
  try {
    so = test::compile_shared_object(sources, dir.file("kernels.so"), compiler, "-O2");
  } catch (const std::runtime_error &e) {
    FAIL() << e.what();
  }
  test::SharedObject lib(so);
  unsigned seed = 1;
  for (const Function &f : fs) {
    std::vector<cplx> x = random_input(f.cols, seed++);
    std::vector<cplx> want = interpret(f, x);
    auto *kd = lib.symbol<void(double *, const double *)>(kernel_name(f, Precision::Double));
    EXPECT_LT(relative_error(run_kernel(kd, x, f.rows), want), 1e-12) << f.name << " double, " << compiler;
    // float: compare with the interpreter on the rounded input
    std::vector<cplx> xf;
    for (cplx c : x) xf.emplace_back(double(float(c.real())), double(float(c.imag())));
    std::vector<cplx> wantf = interpret(f, xf);
    auto *kf = lib.symbol<void(float *, const float *)>(kernel_name(f, Precision::Float));
    EXPECT_LT(relative_error(run_kernel(kf, xf, f.rows), wantf), 1e-5) << f.name << " float, " << compiler;
  }
}

TEST(CppBackend, CompiledKernelsMatchInterpreterGcc) { check_with_compiler("g++"); }
TEST(CppBackend, CompiledKernelsMatchInterpreterClang) { check_with_compiler("clang++"); }

// ---- text -------------------------------------------------------------------------------------

std::string emit(const Function &f, Precision p = Precision::Double, std::vector<std::string> header = {}) {
  return backends::emit_cpp(lower::prepare_for_printing(f), backends::CppEmitOptions{p, std::move(header)});
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

TEST(CppBackend, Deterministic) {
  for (Precision p : {Precision::Double, Precision::Float})
    for (const Function &f : all_functions()) {
      std::string a = emit(f, p, {"h"});
      EXPECT_EQ(a, emit(f, p, {"h"})) << f.name;
      // a separately built, equal function prints the same bytes
      for (const Function &g : all_functions()) {
        if (g.name == f.name) {
          EXPECT_EQ(a, emit(g, p, {"h"})) << f.name;
        }
      }
    }
}

// A lone codelet on a vector target: one 128-bit vector per complex value, whole complex
// loads and stores, no scalar access; DFT(4) is 4 loads, 8 additions, one +-i, 4 stores.
TEST(CppBackend, ComplexCodeletOneVectorPerComplex) {
  auto count = [](const std::string &s, const std::string &part) {
    std::size_t k = 0;
    for (std::size_t p = s.find(part); p != std::string::npos; p = s.find(part, p + 1)) ++k;
    return k;
  };
  std::string d = backends::emit_complex_codelet(lower::lower_complex_codelet(4, 1), "k4", backends::CppEmitOptions{Precision::Double, {"h"}, Isa::Avx2});
  EXPECT_EQ(count(d, "_mm_loadu_pd(x + "), 4u) << d;
  EXPECT_EQ(count(d, "_mm_storeu_pd(y + "), 4u) << d;
  EXPECT_EQ(count(d, "_mm_add_pd(") + count(d, "_mm_sub_pd("), 8u) << d;
  EXPECT_EQ(count(d, "_mm_shuffle_pd("), 1u) << d;
  EXPECT_FALSE(contains(d, "x[")) << d;
  EXPECT_TRUE(contains(d, "target(\"avx2,fma\")")) << d;
  std::string f = backends::emit_complex_codelet(lower::lower_complex_codelet(12, -1), "k12", backends::CppEmitOptions{Precision::Float, {}, Isa::Sse2});
  EXPECT_TRUE(contains(f, "_mm_load_sd(reinterpret_cast<const double *>(x + 22))")) << f;
  EXPECT_TRUE(contains(f, "_mm_store_sd(reinterpret_cast<double *>(y + 22)")) << f;
  EXPECT_EQ(f, backends::emit_complex_codelet(lower::lower_complex_codelet(12, -1), "k12", backends::CppEmitOptions{Precision::Float, {}, Isa::Sse2}));
}

TEST(CppBackend, HeaderLinesAndSignature) {
  std::string s = emit(make_copy(), Precision::Double,
                       {"generated by splgen 0.1.0 -- do not edit", "spec: DFT(16)", "formula: L(16, 4)\nsecond line \\"});
  EXPECT_EQ(s.rfind("// generated by splgen 0.1.0 -- do not edit\n// spec: DFT(16)\n// formula: L(16, 4)\n"
                    "// second line \\ |\n",
                    0),
            0u)
      << s;
  EXPECT_TRUE(contains(s, "extern \"C\" void copy(double *__restrict y, const double *__restrict x) {")) << s;
  EXPECT_FALSE(contains(s, "#include")) << s;
  EXPECT_TRUE(contains(s, "for (long i0 = 0; i0 < 16; ++i0) {\n    y[2*i0] = x[-2*i0 + 30];\n")) << s;
  std::string fl = emit(make_copy(), Precision::Float);
  EXPECT_TRUE(contains(fl, "extern \"C\" void copy(float *__restrict y, const float *__restrict x) {")) << fl;
}

TEST(CppBackend, HeaderDeclaresTheKernel) {
  backends::CppEmitOptions o{Precision::Float, {"generated by splgen 0.1.0 -- do not edit", "spec: DFT(16)"}};
  std::string h = backends::emit_header("fft16", o);
  EXPECT_EQ(h,
            "// generated by splgen 0.1.0 -- do not edit\n// spec: DFT(16)\n\n"
            "#ifndef SPLGEN_FFT16_H\n#define SPLGEN_FFT16_H\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
            "void fft16(float *__restrict y, const float *__restrict x);\n\n"
            "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n\n#endif  // SPLGEN_FFT16_H\n");
  EXPECT_TRUE(contains(backends::emit_header("splgen_dft8", {}), "#ifndef SPLGEN_DFT8_H\n")) << "no SPLGEN_SPLGEN_ guard";
  // The same prototype as the definition, the target attribute of a vector ISA included.
  std::string decl = backends::kernel_declaration("copy", Precision::Double, Isa::Avx2);
  EXPECT_EQ(decl, "__attribute__((target(\"avx2,fma\"))) void copy(double *__restrict y, const double *__restrict x)");
  EXPECT_TRUE(contains(emit(make_copy()), "extern \"C\" " + backends::kernel_declaration("copy", Precision::Double, Isa::Scalar)));
  EXPECT_THROW(backends::emit_header("not a name", o), std::invalid_argument);
}

TEST(CppBackend, ConstantsTablesAndParentheses) {
  std::string s = emit(make_straight());
  EXPECT_TRUE(contains(s, "static constexpr double KP707106781 = 0.70710678118654757;")) << s;
  EXPECT_TRUE(contains(s, "static constexpr double KP707106781_v2 = 0.70710678110000003;")) << s;
  EXPECT_TRUE(contains(s, "static constexpr double KN2_500000000 = -2.5;")) << s;
  EXPECT_TRUE(contains(s, "KP1234_500000000")) << s;
  EXPECT_TRUE(contains(s, "x[0] - (x[2] - x[4])")) << s;
  EXPECT_TRUE(contains(s, "x[0] - x[2] - x[4]")) << s;
  EXPECT_TRUE(contains(s, "y[11] = KN2_500000000;")) << s;
  EXPECT_TRUE(contains(s, "y[7] = 1.0;")) << s;
  EXPECT_TRUE(contains(s, "2.0 - 0.5 * x[6]")) << s;
  EXPECT_EQ(s.find("KP707106781 ="), s.rfind("KP707106781 =")) << "one definition per value";
  std::string fl = emit(make_straight(), Precision::Float);
  EXPECT_TRUE(contains(fl, "static constexpr float KP707106781 = 0.707106769f;")) << fl;
  EXPECT_TRUE(contains(fl, "2.0f - 0.5f * x[6]")) << fl;

  std::string t = emit(make_twiddle());
  EXPECT_TRUE(contains(t, "_detail {")) << t;  // tables in the kernel's own namespace (unity builds)
  EXPECT_TRUE(contains(t, "static const double tw[32] = {\n    1.0, ")) << t;
  EXPECT_TRUE(contains(t, "double tmp2[32];")) << t;  // the temp named "x" was renamed
  EXPECT_TRUE(contains(t, "const double s0 = ")) << t;
}

TEST(CppBackend, LookupTablesAndIndices) {
  std::string s = emit(make_lookup());
  EXPECT_TRUE(contains(s, "static const int lut0[16] = {")) << s;
  EXPECT_TRUE(contains(s, "static const long lut1[16] = {")) << s;
  EXPECT_FALSE(contains(s, "lut2")) << "tables with equal content are shared";
  EXPECT_TRUE(contains(s, "x[2*lut0[i0]]")) << s;
  EXPECT_TRUE(contains(s, "x[2*(i0 % 4 * 4 + i0 / 4) + 1]") || contains(s, "x[2*(4*(i0 % 4)) + 2*(i0 / 4) + 1]") ||
              contains(s, "x[8*(i0 % 4) + 2*(i0 / 4) + 1]") || contains(s, "x[2*(4*(i0 % 4)) + 2*(i0 / 4) + 1]"))
      << s;
  EXPECT_TRUE(contains(s, "lut0[lut0[i0]]")) << s;
}

TEST(CppBackend, ScalarsScopesAndDeadCode) {
  std::string s = emit(make_scoping());
  EXPECT_FALSE(contains(s, "s3")) << s;
  EXPECT_FALSE(contains(s, "s4")) << s;
  EXPECT_FALSE(contains(s, "s5")) << s;
  EXPECT_FALSE(contains(s, "i3")) << "the dead loop is dropped\n" << s;
  EXPECT_TRUE(contains(s, "  double s0 = 0.0;\n")) << s;     // read outside its loop: function scope
  EXPECT_TRUE(contains(s, "  double s1 = x[1];\n")) << s;   // declared twice: mutable
  EXPECT_TRUE(contains(s, "  s1 = x[3] + s1;\n") || contains(s, "  s1 = s1 + x[3];\n")) << s;
  EXPECT_TRUE(contains(s, "const double s2 = x[2*i1];")) << s;
  EXPECT_TRUE(contains(s, "  y[11] = -(-x[14]);\n")) << s;
  EXPECT_FALSE(contains(s, "long i2")) << "extent-1 loop variable substituted\n" << s;

  std::string a = emit(make_accumulate());
  EXPECT_TRUE(contains(a, "double s0 = 0.0;")) << a;
  EXPECT_TRUE(contains(a, "static const double tab2[128]")) << a;  // "for" is a keyword

  std::string c = emit(make_constant_only());
  EXPECT_TRUE(contains(c, "(void)x;")) << c;
}

TEST(CppBackend, HeapTemporary) {
  std::string s = emit(make_big_temp());
  EXPECT_TRUE(contains(s, "#include <vector>")) << s.substr(0, 400);
  // kept per thread between calls, not allocated (and zeroed) on every call
  // and 2 KiB past its storage's start, off the page grid of the caller's buffers
  EXPECT_TRUE(contains(s, "static thread_local std::vector<double> big_storage(8448);")) << s.substr(0, 400);
  EXPECT_TRUE(contains(s, "double *const big = big_storage.data() + 256;")) << s.substr(0, 400);
  std::string small = emit(make_twiddle());
  EXPECT_FALSE(contains(small, "#include")) << small;
}

TEST(CppBackend, RejectsInvalidFunctions) {
  Function f = make_copy();
  f.name = "not an identifier";
  EXPECT_THROW(emit(f), std::invalid_argument);
  Function g = make_copy();
  g.body = st(kInputBuffer, ac(0), 0, e_const(1));
  EXPECT_THROW(emit(g), std::invalid_argument);
  Function h = make_copy();
  h.body = st(kOutputBuffer, av(LoopVar{9, 4}), 0, e_const(1));  // unbound loop variable
  EXPECT_THROW(emit(h), std::invalid_argument);
}

TEST(CppBackendLoader, CompileErrorsAreReported) {
  if (!test::have_program(test::default_compiler())) GTEST_SKIP() << "no C++ compiler";
  test::TempDir dir;
  std::string bad = dir.write("bad.cpp", "extern \"C\" int f() { return undeclared_name; }\n");
  try {
    test::compile_shared_object({bad}, dir.file("bad.so"));
    FAIL() << "expected a compile error";
  } catch (const std::runtime_error &e) {
    EXPECT_TRUE(contains(e.what(), "undeclared_name")) << e.what();
  }
  std::string good = dir.write("good.cpp", "extern \"C\" int answer() { return 42; }\n");
  test::SharedObject lib(test::compile_shared_object({good}, dir.file("good.so")));
  EXPECT_EQ(lib.symbol<int()>("answer")(), 42);
  EXPECT_THROW(lib.symbol<int()>("missing"), std::runtime_error);
  std::filesystem::path p = dir.path();
  {
    test::TempDir moved = std::move(dir);
    EXPECT_TRUE(std::filesystem::exists(p));
  }
  EXPECT_FALSE(std::filesystem::exists(p));
}

}  // namespace
}  // namespace splgen
