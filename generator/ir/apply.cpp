#include "generator/ir/apply.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "generator/ir/dense.h"

namespace splgen {

namespace {

using Vec = std::vector<cplx>;

class Evaluator {
 public:
  Vec run(const Spl &f, const Vec &x) {
    if (int64_t(x.size()) != f->cols)
      throw FormulaError(fmt::format("apply: a vector of {} for a formula of {} columns", x.size(), f->cols));
    switch (f->kind) {
      case SplKind::DFT: return dft(f->a, f->b, x);
      case SplKind::DFTnd: {
        std::vector<Spl> dims;
        for (int64_t n : f->perm) dims.push_back(make_dft(n, f->b));
        return tensor(dims, 0, x);
      }
      case SplKind::Identity: return x;
      case SplKind::Stride: {  // y[i n + j] = x[j m + i], m = s, n = N/s
        int64_t m = f->b, n = f->a / f->b;
        Vec y(x.size());
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) y[std::size_t(i * n + j)] = x[std::size_t(j * m + i)];
        return y;
      }
      case SplKind::Twiddle: {  // w_N^(k i j) at position i n + j
        int64_t N = f->a, n = f->b, k = f->c;
        const Vec &w = roots(N);
        Vec y(x.size());
        for (int64_t i = 0; i < N / n; ++i)
          for (int64_t j = 0; j < n; ++j) {
            int64_t e = int64_t((__int128)mod64(i * j, N) * k % N);
            y[std::size_t(i * n + j)] = w[std::size_t(e)] * x[std::size_t(i * n + j)];
          }
        return y;
      }
      case SplKind::Diag: {
        Vec y(x.size());
        const std::vector<cplx> &d = diag_values(*f);
        for (std::size_t i = 0; i < x.size(); ++i) y[i] = d[i] * x[i];
        return y;
      }
      case SplKind::Perm: {
        Vec y(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[std::size_t(f->perm[i])];
        return y;
      }
      case SplKind::Dense: {
        Vec y(static_cast<std::size_t>(f->rows));
        for (int64_t r = 0; r < f->rows; ++r)
          for (int64_t c = 0; c < f->cols; ++c) y[std::size_t(r)] += f->diag[std::size_t(r * f->cols + c)] * x[std::size_t(c)];
        return y;
      }
      case SplKind::Tensor: return tensor(f->children, 0, x);
      case SplKind::Compose: {
        Vec v = x;
        for (std::size_t i = f->children.size(); i-- > 0;) v = run(f->children[i], v);
        return v;
      }
      case SplKind::DirectSum: {
        Vec y;
        std::size_t at = 0;
        for (const Spl &c : f->children) {
          Vec part = run(c, Vec(x.begin() + std::ptrdiff_t(at), x.begin() + std::ptrdiff_t(at + std::size_t(c->cols))));
          y.insert(y.end(), part.begin(), part.end());
          at += std::size_t(c->cols);
        }
        return y;
      }
      case SplKind::Tagged: return run(f->children.front(), x);
      case SplKind::RealTransform: return f->perm.empty() ? real_transform(real_kind(f), f->a, x) : real_transform_nd(f, x);
      case SplKind::WideDense: return apply_matrix(to_dense(f), x);
      case SplKind::TileTensor: case SplKind::Fence: case SplKind::Transpose: case SplKind::FormulaVar:
      case SplKind::Call: case SplKind::Sum: case SplKind::Gather: case SplKind::Scatter:
        break;  // rule-only kinds are no SplNode
    }
    throw FormulaError("apply: unknown formula node");
  }

 private:
  // n -> w_n^e for e in [0, n), shared by the calls of a thread (the checker applies both
  // sides of many instances of similar sizes); dropped when it holds too many entries.
  static std::map<int64_t, Vec> &root_tables() {
    thread_local std::map<int64_t, Vec> tables;
    return tables;
  }

  const Vec &roots(int64_t n) {
    std::map<int64_t, Vec> &tables = root_tables();
    if (!tables.count(n)) {
      std::size_t held = 0;
      for (const auto &entry : tables) held += entry.second.size();
      if (held + std::size_t(n) > (std::size_t(1) << 23)) tables.clear();
    }
    Vec &w = tables[n];
    if (w.empty()) {
      w.resize(std::size_t(n));
      // In double: the checker compares within 1e-9, far above these rounding errors.
      const double step = -2.0 * M_PI / double(n);
      for (int64_t e = 0; e < n; ++e) w[std::size_t(e)] = std::polar(1.0, step * double(e));
    }
    return w;
  }

  // (A0 (x) A1 (x) ...) x for the factors from `first` on: B = the rest, A = factors[first];
  // B on each of A's column blocks, then A on each stride-rb column.
  Vec tensor(const std::vector<Spl> &factors, std::size_t first, const Vec &x) {
    if (first + 1 == factors.size()) return run(factors[first], x);
    const Spl &a = factors[first];
    int64_t rb = 1, cb = 1;
    for (std::size_t i = first + 1; i < factors.size(); ++i) rb *= factors[i]->rows, cb *= factors[i]->cols;
    bool rest_identity = true;
    for (std::size_t i = first + 1; i < factors.size(); ++i) rest_identity = rest_identity && factors[i]->kind == SplKind::Identity;
    Vec t = rest_identity ? x : Vec(std::size_t(a->cols * rb));
    for (int64_t i = 0; i < a->cols && !rest_identity; ++i) {
      Vec block(x.begin() + std::ptrdiff_t(i * cb), x.begin() + std::ptrdiff_t((i + 1) * cb));
      Vec out = tensor(factors, first + 1, block);
      std::copy(out.begin(), out.end(), t.begin() + std::ptrdiff_t(i * rb));
    }
    if (a->kind == SplKind::Identity) return t;
    Vec y(std::size_t(a->rows * rb)), column(std::size_t(a->cols));
    for (int64_t q = 0; q < rb; ++q) {
      for (int64_t i = 0; i < a->cols; ++i) column[std::size_t(i)] = t[std::size_t(i * rb + q)];
      Vec out = run(a, column);
      for (int64_t p = 0; p < a->rows; ++p) y[std::size_t(p * rb + q)] = out[std::size_t(p)];
    }
    return y;
  }

  // In-place radix-2 DFT (w_n = exp(-2 pi i / n)) of a power-of-two length.
  void fft_pow2(Vec &v) {
    const std::size_t n = v.size();
    for (std::size_t i = 1, j = 0; i < n; ++i) {
      std::size_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(v[i], v[j]);
    }
    const Vec &w = roots(int64_t(n));
    for (std::size_t len = 2; len <= n; len <<= 1) {
      const std::size_t step = n / len;
      for (std::size_t s = 0; s < n; s += len)
        for (std::size_t k = 0; k < len / 2; ++k) {
          cplx u = v[s + k], t = w[k * step] * v[s + k + len / 2];
          v[s + k] = u + t;
          v[s + k + len / 2] = u - t;
        }
    }
  }

  // DFT(n) x by Bluestein's identity p l = (p^2 + l^2 - (p-l)^2) / 2, as a power-of-two convolution.
  Vec bluestein(const Vec &x) {
    const int64_t n = int64_t(x.size());
    std::size_t m = 1;
    while (m < std::size_t(2 * n - 1)) m <<= 1;
    const Vec &w2 = roots(2 * n);  // chirp c_j = w_2n^(j^2)
    auto chirp = [&](int64_t j) { return w2[std::size_t((j * j) % (2 * n))]; };
    Vec a(m), b(m);
    for (int64_t j = 0; j < n; ++j) a[std::size_t(j)] = x[std::size_t(j)] * chirp(j);
    for (int64_t j = 0; j < n; ++j) b[std::size_t(j)] = std::conj(chirp(j));
    for (int64_t j = 1; j < n; ++j) b[m - std::size_t(j)] = std::conj(chirp(j));
    fft_pow2(a);
    fft_pow2(b);
    for (std::size_t i = 0; i < m; ++i) a[i] *= b[i];
    for (cplx &v : a) v = std::conj(v);  // inverse by conjugation
    fft_pow2(a);
    Vec y(static_cast<std::size_t>(n));
    for (int64_t p = 0; p < n; ++p) y[std::size_t(p)] = std::conj(a[std::size_t(p)]) / double(m) * chirp(p);
    return y;
  }

  // DFT(n) x: radix 2 for powers of two; a small prime factor p splits it (decimation in
  // time, p sub-DFTs of n/p); Bluestein otherwise.
  Vec dft_forward(const Vec &x) {
    const int64_t n = int64_t(x.size());
    if ((n & (n - 1)) == 0) {
      Vec v = x;
      fft_pow2(v);
      return v;
    }
    if (n <= 8) return naive_dft(x);
    int64_t p = n % 2 == 0 ? 2 : 3;
    while (p <= 16 && n % p != 0) p += 2;
    if (p > 16) return n <= 64 ? naive_dft(x) : bluestein(x);
    const int64_t m = n / p;
    std::vector<Vec> sub(static_cast<std::size_t>(p), Vec(static_cast<std::size_t>(m)));
    for (int64_t r = 0; r < p; ++r) {
      for (int64_t l = 0; l < m; ++l) sub[std::size_t(r)][std::size_t(l)] = x[std::size_t(l * p + r)];
      sub[std::size_t(r)] = dft_forward(sub[std::size_t(r)]);
    }
    const Vec &w = roots(n);
    Vec y(static_cast<std::size_t>(n));
    for (int64_t s = 0; s < p; ++s)
      for (int64_t q = 0; q < m; ++q) {
        const int64_t out = q + s * m;
        cplx acc = sub[0][std::size_t(q)];
        for (int64_t r = 1, e = out; r < p; ++r, e = e + out >= n ? e + out - n : e + out)
          acc += w[std::size_t(e)] * sub[std::size_t(r)][std::size_t(q)];
        y[std::size_t(out)] = acc;
      }
    return y;
  }

  Vec naive_dft(const Vec &x) {
    const int64_t n = int64_t(x.size());
    const Vec &w = roots(n);
    Vec y(static_cast<std::size_t>(n));
    for (int64_t p = 0; p < n; ++p)
      for (int64_t l = 0; l < n; ++l) y[std::size_t(p)] += w[std::size_t(p * l % n)] * x[std::size_t(l)];
    return y;
  }

  // DFT(n, k) x: y[p] = sum_l w_n^(k p l) x[l] = DFT(n) x at k p mod n.
  // The real transforms through one DFT(N) of an embedding z of Re(x) (docs/transforms.md):
  // y_k = s_k * part(DFT(N) z)[o(k)], with z[e(j)] = c_j Re(x_j); IRDFT through its Hermitian
  // extension. The same definitions as generator/ir/real_dense.cpp.
  Vec real_transform(RealKind kind, int64_t n, const Vec &x) {
    Vec y(std::size_t(real_kind_rows(kind, n)));
    if (kind == RealKind::WHT) {
      for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i].real();
      for (int64_t h = 1; h < n; h *= 2)
        for (int64_t i = 0; i < n; i += 2 * h)
          for (int64_t j = i; j < i + h; ++j) {
            cplx a = y[std::size_t(j)], b = y[std::size_t(j + h)];
            y[std::size_t(j)] = a + b, y[std::size_t(j + h)] = a - b;
          }
      return y;
    }
    if (kind == RealKind::RDFT || kind == RealKind::IRDFT) {
      Vec z(static_cast<std::size_t>(n));
      for (int64_t j = 0; j < n; ++j)
        if (kind == RealKind::RDFT) z[std::size_t(j)] = x[std::size_t(j)].real();
        else if (2 * j <= n) z[std::size_t(j)] = (j == 0 || 2 * j == n) ? cplx(x[std::size_t(j)].real()) : x[std::size_t(j)];
        else z[std::size_t(j)] = std::conj(x[std::size_t(n - j)]);
      Vec w = dft(n, kind == RealKind::RDFT ? 1 : n - 1, z);
      for (std::size_t k = 0; k < y.size(); ++k) y[k] = kind == RealKind::RDFT ? w[k] : cplx(w[k].real());
      return y;
    }
    const bool dct = kind == RealKind::DCT2 || kind == RealKind::DCT3 || kind == RealKind::DCT4;
    const bool type4 = kind == RealKind::DCT4 || kind == RealKind::DST4;
    const int64_t N = type4 ? 8 * n : 4 * n;
    Vec z(static_cast<std::size_t>(N));
    for (int64_t j = 0; j < n; ++j) {
      double v = x[std::size_t(j)].real();
      switch (kind) {
        case RealKind::DCT2: case RealKind::DST2: case RealKind::DCT4: case RealKind::DST4:
          z[std::size_t(2 * j + 1)] = 2 * v; break;                       // angle (2j+1) o(k) / N
        case RealKind::DCT3: z[std::size_t(j)] = j == 0 ? v : 2 * v; break;  // angle j (2k+1) / 4n
        case RealKind::DST3: z[std::size_t(j + 1)] = j == n - 1 ? v : 2 * v; break;
        default: break;
      }
    }
    Vec w = dft(N, 1, z);
    for (int64_t k = 0; k < n; ++k) {
      int64_t o = (kind == RealKind::DCT2) ? k : kind == RealKind::DST2 ? k + 1 : 2 * k + 1;
      cplx v = w[std::size_t(o)];
      y[std::size_t(k)] = dct ? v.real() : -v.imag();
    }
    return y;
  }

  // Rank >= 2 by rows and columns (FFTW's multi-dimensional r2c/c2r/r2r): the kind along
  // the last dimension on every row, the rest as complex DFTs (r2c, c2r) or as the same kind
  // (r2r) along the other dimensions; c2r runs the complex DFTs first.
  Vec real_transform_nd(const Spl &f, const Vec &x) {
    const RealKind kind = real_kind(f);
    std::vector<int64_t> dims = real_transform_dims(f);
    const int64_t last = dims.back(), outer = f->a / last;
    dims.pop_back();
    const Spl row = make_real_transform(kind, last);
    const Spl rows = make_tensor({make_identity(outer), row});
    if (kind == RealKind::RDFT || kind == RealKind::IRDFT) {
      const Spl columns = make_tensor({make_dft_nd(dims, kind == RealKind::RDFT ? 1 : -1),
                                       make_identity(kind == RealKind::RDFT ? row->rows : row->cols)});
      return kind == RealKind::RDFT ? run(columns, run(rows, x)) : run(rows, run(columns, x));
    }
    Vec y = run(rows, x);
    for (std::size_t d = 0, before = 1; d < dims.size(); before *= std::size_t(dims[d]), ++d) {
      const int64_t after = f->a / int64_t(before) / dims[d];
      y = run(make_tensor({make_identity(int64_t(before)), make_real_transform(kind, dims[d]), make_identity(after)}), y);
    }
    return y;
  }

  Vec dft(int64_t n, int64_t k, const Vec &x) {
    Vec full = dft_forward(x);
    if (k == 1) return full;
    Vec y(static_cast<std::size_t>(n));
    for (int64_t p = 0; p < n; ++p) y[std::size_t(p)] = full[std::size_t((__int128)p * k % n)];
    return y;
  }
};

}  // namespace

std::vector<cplx> apply_spl(const Spl &f, const std::vector<cplx> &x) { return Evaluator().run(f, x); }

Matrix apply_dense(const Spl &f) {
  return probe_matrix(f->rows, f->cols, [&](const std::vector<cplx> &x) { return apply_spl(f, x); });
}

}  // namespace splgen
