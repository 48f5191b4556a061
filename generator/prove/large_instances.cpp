#include "generator/prove/large_instances.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "generator/ir/apply.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::prove {

using namespace rewrite;

namespace {

bool calls_functions(const Term &t) {
  if (t.kind == SplKind::Call) return true;
  for (const Term &c : t.children)
    if (calls_functions(c)) return true;
  return false;
}

void collect(const Term &t, std::set<std::string> &sizes, std::map<std::string, std::vector<SizeExpr>> &formulas) {
  for (const SizeExpr &e : t.sizes) size_vars(e, sizes);
  if (t.has_root) size_vars(t.root, sizes);
  for (const SizeExpr &e : t.shape) size_vars(e, sizes);
  if (t.kind == SplKind::FormulaVar) {
    auto &shape = formulas[t.name];
    if (shape.empty()) shape = t.shape;
  }
  for (const Term &c : t.children) collect(c, sizes, formulas);
}

// The primes up to kLargeMaxSize, in order (a sieve, once).
const std::vector<int64_t> &primes_up_to_limit() {
  static const std::vector<int64_t> primes = [] {
    std::vector<bool> composite(std::size_t(kLargeMaxSize + 1));
    std::vector<int64_t> out;
    for (int64_t i = 2; i <= kLargeMaxSize; ++i) {
      if (composite[std::size_t(i)]) continue;
      out.push_back(i);
      for (int64_t j = i * i; j <= kLargeMaxSize; j += i) composite[std::size_t(j)] = true;
    }
    return out;
  }();
  return primes;
}

// A random size: small, smooth or prime, log-uniform up to `limit`.
int64_t random_size(std::mt19937_64 &rng, int64_t limit) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double kind = u(rng);
  if (kind < 0.35) return 1 + int64_t(rng() % 8);
  const double target = std::exp(u(rng) * std::log(double(limit)));
  if (kind < 0.85) {  // smooth: mostly factors of 2
    static const int64_t primes[] = {2, 2, 2, 2, 3, 3, 5, 7};
    int64_t v = 1;
    while (double(v) * 2 <= target) {
      int64_t p = primes[rng() % 8];
      if (v > limit / p) break;
      v *= p;
    }
    return v;
  }
  const std::vector<int64_t> &primes = primes_up_to_limit();
  auto p = std::lower_bound(primes.begin(), primes.end(), int64_t(target));
  return p == primes.end() ? primes.back() : *p;
}

Spl random_dense(int64_t rows, int64_t cols, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cplx> v(std::size_t(rows * cols));
  for (cplx &x : v) x = cplx(u(rng), u(rng));
  return make_dense(rows, cols, std::move(v));
}

double norm2(const std::vector<cplx> &v) {
  double s = 0;
  for (const cplx &x : v) s += std::norm(x);
  return std::sqrt(s);
}

}  // namespace

bool has_large_instances(const Rule &rule) { return !is_sigma_rule(rule) && !is_sigma_term(rule.rhs); }

LargeCheckResult check_large_instances(const Rule &rule, const CheckOptions &options) {
  LargeCheckResult res;
  if (!has_large_instances(rule)) return res;
  const int64_t limit = calls_functions(rule.rhs) ? kLargeMaxSizeWithCalls : kLargeMaxSize;
  if (options.max_size >= limit) return res;
  std::set<std::string> size_set;
  std::map<std::string, std::vector<SizeExpr>> formulas;
  collect(rule.lhs, size_set, formulas);
  std::mt19937_64 rng(options.seed * 7919u + 17u);
  std::uniform_int_distribution<int64_t> dim(1, 64);
  int64_t spent = 0;
  for (int attempt = 0; attempt < kLargeAttempts && res.instances < kLargeInstances; ++attempt) {
    Match m;
    std::string label;
    for (const std::string &v : size_set) {
      m.sizes[v] = random_size(rng, limit);
      label += fmt::format("{}{}={}", label.empty() ? "" : ", ", v, m.sizes[v]);
    }
    try {
      if (!conditions_hold(rule, m)) continue;
      bool shapes_ok = true;
      for (const auto &[name, shape] : formulas) {
        int64_t r = dim(rng), c = dim(rng);
        if (!shape.empty()) {
          auto rv = eval_size(shape[0], m.sizes);
          auto cv = shape.size() > 1 ? eval_size(shape[1], m.sizes) : rv;
          if (!rv || !cv || *rv < 1 || *cv < 1 || *rv > 64 || *cv > 64) {
            shapes_ok = false;
            break;
          }
          r = *rv, c = *cv;
        } else {
          label += fmt::format("{}{}={}x{}", label.empty() ? "" : ", ", name, r, c);
        }
        m.formulas[name] = random_dense(r, c, rng);
      }
      if (!shapes_ok) continue;
      Spl lhs = instantiate_spl(rule.lhs, m);
      const int64_t big = std::max(lhs->rows, lhs->cols);
      if (big <= options.max_size || big > limit || spent + big > kLargeBudget) continue;
      spent += big;
      Spl rhs;
      try {
        rhs = instantiate_spl(rule.rhs, m);
      } catch (const FormulaError &e) {
        res.counterexample = fmt::format("{}: the right side does not instantiate: {}", label, e.what());
        return res;
      }
      ++res.instances;
      if (rhs->rows != lhs->rows || rhs->cols != lhs->cols) {
        res.counterexample = fmt::format("{}: the right side is {}x{}, the left side {}x{}", label, rhs->rows,
                                         rhs->cols, lhs->rows, lhs->cols);
        return res;
      }
      std::vector<cplx> x(std::size_t(lhs->cols));
      uint64_t state = rng();  // xorshift: millions of entries, cheaply
      auto next = [&state] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return double(state >> 11) * 0x1.0p-52 - 1.0;  // in [-1, 1)
      };
      for (cplx &v : x) v = cplx(next(), next());
      std::vector<cplx> want = apply_spl(lhs, x), got = apply_spl(rhs, x);
      std::vector<cplx> diff(want.size());
      for (std::size_t i = 0; i < want.size(); ++i) diff[i] = want[i] - got[i];
      const double err = norm2(diff) / std::max(1.0, norm2(want));
      if (!(err <= 1e-9)) {
        res.counterexample = fmt::format("{}: relative error {:.3g} (a large instance, applied to a random vector)",
                                         label, err);
        return res;
      }
    } catch (const FormulaError &) {
      continue;  // not an instance (a root not coprime to its size, a tag parameter out of range ...)
    }
  }
  return res;
}

}  // namespace splgen::prove
