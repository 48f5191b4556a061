#include "generator/ir/affine.h"

#include <fmt/format.h>

#include <stdexcept>

#include "generator/ir/spl.h"

namespace splgen {

Affine Affine::var(LoopVar v, int64_t coeff) {
  Affine a;
  if (coeff != 0) a.terms.push_back({v, coeff});
  return a;
}

int64_t Affine::min() const {
  int64_t m = c0;
  for (auto &[v, c] : terms)
    if (c < 0) m += c * (v.extent - 1);
  return m;
}

int64_t Affine::max() const {
  int64_t m = c0;
  for (auto &[v, c] : terms)
    if (c > 0) m += c * (v.extent - 1);
  return m;
}

int64_t Affine::eval(const Env &env) const {
  int64_t r = c0;
  for (auto &[v, c] : terms) {
    auto it = env.find(v.id);
    if (it == env.end()) throw std::logic_error("unbound loop variable " + var_name(v.id));
    r += c * it->second;
  }
  return r;
}

bool Affine::divisible_by(int64_t d) const {
  if (c0 % d) return false;
  for (auto &[v, c] : terms)
    if (c % d) return false;
  return true;
}

Affine operator+(const Affine &x, const Affine &y) {
  Affine r{x.c0 + y.c0, {}};
  std::size_t i = 0, j = 0;
  while (i < x.terms.size() || j < y.terms.size()) {
    if (j == y.terms.size() || (i < x.terms.size() && x.terms[i].first.id < y.terms[j].first.id)) {
      r.terms.push_back(x.terms[i++]);
    } else if (i == x.terms.size() || y.terms[j].first.id < x.terms[i].first.id) {
      r.terms.push_back(y.terms[j++]);
    } else {
      int64_t c = x.terms[i].second + y.terms[j].second;
      if (c != 0) r.terms.push_back({x.terms[i].first, c});
      ++i, ++j;
    }
  }
  return r;
}

Affine operator*(const Affine &x, int64_t c) {
  if (c == 0) return Affine::constant(0);
  Affine r{x.c0 * c, x.terms};
  for (auto &t : r.terms) t.second *= c;
  return r;
}

Affine exact_div(const Affine &x, int64_t d) {
  Affine r{x.c0 / d, x.terms};
  for (auto &t : r.terms) t.second /= d;
  return r;
}

std::optional<std::pair<Affine, Affine>> divmod(const Affine &x, int64_t d) {
  if (d == 1) return std::pair{x, Affine::constant(0)};
  Affine high{0, {}}, low{mod64(x.c0, d), {}};
  high.c0 = (x.c0 - low.c0) / d;
  for (auto &[v, c] : x.terms) {
    if (c % d == 0)
      high.terms.push_back({v, c / d});
    else
      low.terms.push_back({v, c});
  }
  if (low.min() < 0 || low.max() >= d) return std::nullopt;
  return std::pair{high, low};
}

std::optional<Affine> affine_through_table(const std::vector<int64_t> &t, const Affine &x) {
  constexpr int64_t kBudget = int64_t(1) << 22;
  int64_t points = 1;
  for (auto &[v, c] : x.terms)
    if ((points *= v.extent) > kBudget) return std::nullopt;
  if (x.min() < 0 || x.max() >= int64_t(t.size())) return std::nullopt;
  auto at = [&](int64_t i) { return t[std::size_t(i)]; };
  // the fit from the origin and one step in each variable, then checked at every point
  std::vector<int64_t> step(x.terms.size(), 0), value(x.terms.size(), 0);
  Affine out = Affine::constant(at(x.c0));
  for (std::size_t k = 0; k < x.terms.size(); ++k) {
    const auto &[v, c] = x.terms[k];
    if (v.extent > 1) step[k] = at(x.c0 + c) - out.c0, out = out + Affine::var(v, step[k]);
  }
  int64_t in = x.c0, want = out.c0;
  while (true) {
    if (at(in) != want) return std::nullopt;
    std::size_t k = 0;
    for (; k < x.terms.size(); ++k) {  // odometer
      const auto &[v, c] = x.terms[k];
      if (++value[k] < v.extent) {
        in += c, want += step[k];
        break;
      }
      in -= c * (v.extent - 1), want -= step[k] * (v.extent - 1), value[k] = 0;
    }
    if (k == x.terms.size()) return out;
  }
}

std::string var_name(int id) { return fmt::format("i{}", id); }

std::string to_string(const Affine &x) {
  std::string s;
  for (auto &[v, c] : x.terms) {
    if (!s.empty()) s += c < 0 ? " - " : " + ";
    else if (c < 0) s += "-";
    int64_t a = c < 0 ? -c : c;
    s += a == 1 ? var_name(v.id) : fmt::format("{}*{}", a, var_name(v.id));
  }
  if (s.empty()) return fmt::format("{}", x.c0);
  if (x.c0 > 0) s += fmt::format(" + {}", x.c0);
  if (x.c0 < 0) s += fmt::format(" - {}", -x.c0);
  return s;
}

}  // namespace splgen
