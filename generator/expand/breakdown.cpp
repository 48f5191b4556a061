#include "generator/expand/breakdown.h"

#include <fmt/format.h>

#include <stdexcept>

namespace splgen {

int64_t largest_prime_factor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) largest = p, n /= p;
  return n > 1 ? n : largest;
}

bool is_codelet_size(int64_t n) {
  return n <= ExpansionKnobs::kCodeletMax;
}

namespace {

bool is_dft(const Spl &f) { return f->kind == SplKind::DFT; }

// DFT_Codelet: DFT(n) for small n is a leaf, emitted as straight-line code
// (generator/lower/codelet.h builds it from the rules below, fully unrolled).
BreakdownRule codelet_rule() {
  return {"DFT_Codelet", [](const Spl &f) { return is_dft(f) && is_codelet_size(f->a); },
          [](const Spl &) { return std::vector<BreakdownChoice>{{"unrolled", {}}}; },
          [](const Spl &f, const BreakdownChoice &, const std::vector<Spl> &) { return f; }};
}

// DFT_Direct: y[k] = sum_l x[l] w_p^(k l) as an O(p^2) loop, for primes too large to unroll.
// (Rader and Bluestein replace it in a later issue.)
BreakdownRule direct_rule() {
  return {"DFT_Direct",
          [](const Spl &f) { return is_dft(f) && !is_codelet_size(f->a) && largest_prime_factor(f->a) == f->a; },
          [](const Spl &) { return std::vector<BreakdownChoice>{{"O(n^2) loop", {}}}; },
          [](const Spl &f, const BreakdownChoice &, const std::vector<Spl> &) { return f; }};
}

// DFT_CooleyTukey (DESIGN.md; Cooley & Tukey 1965; Van Loan, "Computational Frameworks
// for the FFT", thm 1.3.2):
//   DFT(mn, k) -> (DFT(m, k) (x) I(n)) * T(mn, n, k) * (I(m) (x) DFT(n, k)) * L(mn, m)
BreakdownRule cooley_tukey_rule() {
  return {"DFT_CooleyTukey",
          [](const Spl &f) { return is_dft(f) && f->a > 3 && largest_prime_factor(f->a) != f->a; },
          [](const Spl &f) {
            std::vector<BreakdownChoice> out;
            int64_t N = f->a, k = f->b;
            for (int64_t m = 2; m < N; ++m)
              if (N % m == 0)
                out.push_back({fmt::format("{} x {}", m, N / m), {make_dft(m, k), make_dft(N / m, k)}});
            return out;
          },
          [](const Spl &f, const BreakdownChoice &c, const std::vector<Spl> &kids) {
            int64_t N = f->a, m = c.children[0]->a, n = c.children[1]->a;
            return make_compose({tensor(kids[0], make_identity(n)), make_twiddle(N, n, f->b),
                                 tensor(make_identity(m), kids[1]), make_stride(N, m)});
          }};
}

}  // namespace

const std::vector<BreakdownRule> &dft_breakdown_rules() {
  static const std::vector<BreakdownRule> rules = {codelet_rule(), direct_rule(), cooley_tukey_rule()};
  return rules;
}

const BreakdownRule &find_breakdown_rule(const std::string &name) {
  for (const BreakdownRule &r : dft_breakdown_rules())
    if (r.name == name) return r;
  throw std::invalid_argument("unknown breakdown rule " + name);
}

}  // namespace splgen
