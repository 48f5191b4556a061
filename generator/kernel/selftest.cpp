#include "generator/kernel/selftest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace splgen::kernel {

namespace {

using lcplx = std::complex<long double>;

// w_n^e = exp(-2 pi i e / n), e reduced mod n in integers first.
lcplx root(int64_t n, int64_t e) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  int64_t r = e % n;
  if (r < 0) r += n;
  long double t = two_pi * (long double)r / (long double)n;
  return lcplx(std::cos(t), -std::sin(t));
}

int64_t mulmod(int64_t a, int64_t b, int64_t m) {
  int64_t r = int64_t((__int128)a * b % m);
  return r < 0 ? r + m : r;
}

// sqrt(sum |a - b|^2 / sum |b|^2).
double relative_error(const lvec &a, const lvec &b) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) num += std::norm(a[i] - b[i]), den += std::norm(b[i]);
  if (!std::isfinite((double)num)) return std::numeric_limits<double>::infinity();
  return double(den == 0 ? std::sqrt(num) : std::sqrt(num / den));
}

class Checker {
 public:
  Checker(const ApplyKernel &apply, int64_t n, int64_t k, const SelftestOptions &o)
      : apply_(apply), n_(n), k_(k), rounds_(o.rounds), rng_(o.seed) {}

  double impulse() {
    lvec e0(static_cast<std::size_t>(n_), 0.0L), ones(static_cast<std::size_t>(n_), 1.0L);
    e0[0] = 1;
    double err = relative_error(apply_(e0), ones);
    for (int round = 0; round < rounds_; ++round) {
      lvec r = random_vector(), rest(static_cast<std::size_t>(n_));
      for (int64_t i = 0; i < n_; ++i) rest[std::size_t(i)] = e0[std::size_t(i)] - r[std::size_t(i)];
      err = std::max(err, relative_error(add(apply_(r), apply_(rest)), ones));
    }
    return err;
  }

  double linearity() {
    double err = 0;
    for (int round = 0; round < rounds_; ++round) {
      lvec x = random_vector(), y = random_vector(), mix(static_cast<std::size_t>(n_));
      lcplx a = random_value(), b = random_value();
      for (int64_t i = 0; i < n_; ++i) mix[std::size_t(i)] = a * x[std::size_t(i)] + b * y[std::size_t(i)];
      lvec ax = apply_(x), by = apply_(y), expected(static_cast<std::size_t>(n_));
      for (int64_t i = 0; i < n_; ++i) expected[std::size_t(i)] = a * ax[std::size_t(i)] + b * by[std::size_t(i)];
      err = std::max(err, relative_error(apply_(mix), expected));
    }
    return err;
  }

  double time_shift() {
    double err = 0;
    for (int round = 0; round < rounds_; ++round) {
      int64_t s = round == 0 ? 1 : std::uniform_int_distribution<int64_t>(0, n_ - 1)(rng_);
      lvec x = random_vector(), shifted(static_cast<std::size_t>(n_));
      for (int64_t j = 0; j < n_; ++j) shifted[std::size_t((j + s) % n_)] = x[std::size_t(j)];
      lvec y = apply_(x), expected(static_cast<std::size_t>(n_));
      for (int64_t r = 0; r < n_; ++r)
        expected[std::size_t(r)] = root(n_, mulmod(mulmod(k_, r, n_), s, n_)) * y[std::size_t(r)];
      err = std::max(err, relative_error(apply_(shifted), expected));
    }
    return err;
  }

 private:
  lcplx random_value() {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    double re = u(rng_);
    return lcplx(re, u(rng_));
  }
  lvec random_vector() {
    lvec v(static_cast<std::size_t>(n_));
    for (lcplx &x : v) x = random_value();
    return v;
  }
  static lvec add(lvec a, const lvec &b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    return a;
  }

  const ApplyKernel &apply_;
  int64_t n_, k_;
  int rounds_;
  std::mt19937_64 rng_;
};

template <class T>
ApplyKernel applier(void *function, int64_t n) {
  using Fn = void(T *, const T *);
  Fn *kernel;
  std::memcpy(&kernel, &function, sizeof kernel);  // object pointer -> function pointer
  return [kernel, n](const lvec &x) {
    std::vector<T> in(std::size_t(2 * n)), out(std::size_t(2 * n));
    for (int64_t i = 0; i < n; ++i) in[std::size_t(2 * i)] = T(x[std::size_t(i)].real()), in[std::size_t(2 * i + 1)] = T(x[std::size_t(i)].imag());
    kernel(out.data(), in.data());
    lvec y(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) y[std::size_t(i)] = lcplx(out[std::size_t(2 * i)], out[std::size_t(2 * i + 1)]);
    return y;
  };
}

}  // namespace

double default_tolerance(int64_t n, Precision precision) {
  double eps = precision == Precision::Float ? std::numeric_limits<float>::epsilon()
                                             : std::numeric_limits<double>::epsilon();
  return 100 * eps * (std::log2(double(n)) + 1);
}

std::vector<SelftestCheck> selftest_dft(const ApplyKernel &apply, int64_t n, int64_t k, Precision precision,
                                        const SelftestOptions &options) {
  const double tol = options.tolerance > 0 ? options.tolerance : default_tolerance(n, precision);
  Checker checker(apply, n, k, options);
  std::vector<SelftestCheck> checks = {{"impulse", checker.impulse()},
                                       {"linearity", checker.linearity()},
                                       {"time shift", checker.time_shift()}};
  for (SelftestCheck &c : checks) c.tolerance = tol, c.ok = c.max_error <= tol;  // NaN fails
  return checks;
}

ApplyKernel kernel_applier(void *function, int64_t n, Precision precision) {
  return precision == Precision::Float ? applier<float>(function, n) : applier<double>(function, n);
}

}  // namespace splgen::kernel
