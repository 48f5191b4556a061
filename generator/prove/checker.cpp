#include "generator/prove/checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "generator/ir/dense.h"
#include "generator/lower/merge_loops.h"
#include "generator/lower/sigma_to_loops.h"
#include "generator/lower/spl_to_sigma.h"
#include "generator/prove/large_instances.h"
#include "generator/prove/size_tuples.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::prove {

using namespace rewrite;

namespace {

struct FormulaVarInfo {
  std::vector<SizeExpr> shape;  // {} when written without one anywhere
  bool diagonal = false;        // the D of a Diag(D o f): a random diagonal
};

// The size variables and formula variables of a left side (its loop variables are bound by
// its sums, not enumerated).
void collect(const Term &t, std::set<std::string> &sizes, std::map<std::string, FormulaVarInfo> &formulas,
             std::set<std::string> &loops) {
  for (const SizeExpr &e : t.sizes) size_vars(e, sizes);
  if (t.has_root) size_vars(t.root, sizes);
  for (const SizeExpr &e : t.shape) size_vars(e, sizes);
  for (const SizeExpr &e : t.fn.args) size_vars(e, sizes);
  if (t.kind == SplKind::Sum) loops.insert(t.name);
  if (t.kind == SplKind::FormulaVar) {
    FormulaVarInfo &info = formulas[t.name];
    if (info.shape.empty()) info.shape = t.shape;
  }
  if (t.kind == SplKind::Diag && t.children.at(0).kind == SplKind::FormulaVar)
    formulas[t.children[0].name].diagonal = true;
  for (const Term &c : t.children) collect(c, sizes, formulas, loops);
}

Spl random_diagonal(int64_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cplx> v(static_cast<std::size_t>(n));
  for (cplx &x : v) x = cplx(2.0 + u(rng), u(rng));  // never 1: make_diag would make it I
  return make_diag(std::move(v));
}

// The left side as a dense matrix: SPL, or (a Sigma-SPL pattern) Sigma-SPL at the shape it
// fixes on its own.
struct LeftSide {
  Spl spl;
  Sigma sigma;
  int64_t rows = 0, cols = 0;
};
LeftSide instantiate_left(const Rule &rule, const Match &m) {
  LeftSide l;
  if (is_sigma_rule(rule)) {
    auto [rows, cols] = sigma_shape(rule.lhs, m);
    l.sigma = instantiate_sigma(rule.lhs, m, rows, cols, [](const Spl &part) { return lower::lower_to_sigma(part); });
    l.rows = rows, l.cols = cols;
  } else {
    l.spl = instantiate_spl(rule.lhs, m);
    l.rows = l.spl->rows, l.cols = l.spl->cols;
  }
  return l;
}

double frobenius(const Matrix &m) {
  double s = 0;
  for (const cplx &v : m.data) s += std::norm(v);
  return std::sqrt(s);
}

Spl random_dense(int64_t rows, int64_t cols, std::mt19937 &rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cplx> v(std::size_t(rows * cols));
  for (cplx &x : v) x = cplx(u(rng), u(rng));
  return make_dense(rows, cols, std::move(v));
}

// Size variables of the conditions and the right side must be bound by the left side, a
// `let` before them, or (on the right) an enclosing Sum.
void right_vars(const Term &t, std::set<std::string> bound, std::set<std::string> &unbound) {
  std::set<std::string> used;
  for (const SizeExpr &e : t.sizes) size_vars(e, used);
  if (t.has_root) size_vars(t.root, used);
  for (const SizeExpr &e : t.shape) size_vars(e, used);
  if (t.kind == SplKind::Sum) {
    used.clear();
    size_vars(t.sizes.at(0), used);
    for (const std::string &v : used)
      if (!bound.count(v)) unbound.insert(v);
    used.clear();
    bound.insert(t.name);
  }
  for (const SizeExpr &e : t.fn.args) size_vars(e, used);
  for (const std::string &v : used)
    if (!bound.count(v)) unbound.insert(v);
  for (const Term &c : t.children) right_vars(c, bound, unbound);
}

std::string unbound_variables(const Rule &rule, std::set<std::string> bound) {
  std::set<std::string> unbound;
  for (const Condition &c : rule.conditions) {
    std::set<std::string> used;
    for (const SizeExpr &e : c.args) size_vars(e, used);
    for (const std::string &v : used)
      if (!bound.count(v)) unbound.insert(v);
    if (c.kind == ConditionKind::Let) bound.insert(c.name);
  }
  right_vars(rule.rhs, bound, unbound);
  if (unbound.empty()) return "";
  std::string names;
  for (const std::string &v : unbound) names += (names.empty() ? "" : ", ") + v;
  return fmt::format("size variable(s) {} bound neither by the left side nor by a let", names);
}

}  // namespace

CheckResult check_rule_limited(const Rule &rule, const CheckOptions &options, int max_instances) {
  CheckResult res;
  res.rule = &rule;
  std::set<std::string> size_names, loop_names;
  std::map<std::string, FormulaVarInfo> formula_vars;
  collect(rule.lhs, size_names, formula_vars, loop_names);
  for (const std::string &l : loop_names) size_names.erase(l);
  // The variables enumerated: size variables, then rows and columns of shapeless formulas.
  std::vector<std::string> names(size_names.begin(), size_names.end());
  for (const auto &[name, info] : formula_vars)
    if (info.shape.empty()) {
      names.push_back(name + ".rows");
      names.push_back(name + ".cols");
    }
  std::map<std::pair<int64_t, int64_t>, Spl> zeros;
  auto stand_in = [&](int64_t r, int64_t c) {
    if (r == c) return make_identity(r);
    Spl &z = zeros[{r, c}];
    if (!z) z = make_dense(r, c, std::vector<cplx>(std::size_t(r * c)));
    return z;
  };
  if (std::string unbound = unbound_variables(rule, size_names); !unbound.empty()) {
    res.error = unbound;
    return res;
  }
  std::mt19937 rng(options.seed);
  double spent = 0;
  const bool sigma = is_sigma_term(rule.rhs) || is_sigma_rule(rule);
  bool stop = false;
  // One size tuple: false ends the walk (a verdict, or enough instances).
  auto try_tuple = [&](const std::vector<int64_t> &tuple) -> bool {
    if (res.instances >= max_instances) return false;
    Match m;
    for (std::size_t i = 0; i < size_names.size(); ++i) m.sizes.emplace_hint(m.sizes.end(), names[i], tuple[i]);
    try {
      if (!conditions_hold(rule, m)) return true;
    } catch (const FormulaError &e) {
      res.error = e.what();
      stop = true;
      return false;
    }
    std::string label;
    for (std::size_t i = 0; i < size_names.size(); ++i)
      label += fmt::format("{}{}={}", label.empty() ? "" : ", ", names[i], tuple[i]);
    // Formula variables: first cheap stand-ins of their shapes (an identity, or a zero
    // matrix shared by all instances) to see whether this is an instance at all, then
    // random dense matrices.
    std::vector<std::pair<int64_t, int64_t>> shapes;
    bool shapes_ok = true;
    std::size_t next = size_names.size();
    for (const auto &[name, info] : formula_vars) {
      int64_t r = 0, c = 0;
      if (info.shape.empty()) {
        r = tuple[next++], c = tuple[next++];
        label += fmt::format("{}{}={}x{}", label.empty() ? "" : ", ", name, r, c);
      } else {
        auto rv = eval_size(info.shape[0], m.sizes);
        auto cv = info.shape.size() > 1 ? eval_size(info.shape[1], m.sizes) : rv;
        if (!rv || !cv) {
          shapes_ok = false;
          break;
        }
        r = *rv, c = *cv;
      }
      if (r < 1 || c < 1 || r > options.max_size || c > options.max_size) {
        shapes_ok = false;
        break;
      }
      if (info.diagonal && r != c) {
        shapes_ok = false;
        break;
      }
      shapes.push_back({r, c});
      m.formulas[name] = info.diagonal ? random_diagonal(r, rng) : stand_in(r, c);
    }
    if (!shapes_ok) return true;
    LeftSide lhs;
    try {
      lhs = instantiate_left(rule, m);
    } catch (const FormulaError &) {
      return true;  // not an instance (a root not coprime to its size, a stride not dividing ...)
    } catch (const std::logic_error &) {
      return true;  // Sigma-SPL whose index functions leave their ranges for these sizes
    }
    if (lhs.rows > options.max_size || lhs.cols > options.max_size) return true;
    // The work of the dense checks grows like rows*cols*max(rows, cols); beyond the budget
    // only cheaper instances are compared (the first one always is).
    // (Sigma-SPL right sides cost about four times as much: their loop code is interpreted.)
    double cost = double(lhs.rows) * double(lhs.cols) * double(std::max(lhs.rows, lhs.cols)) * (sigma ? 4 : 1);
    if (res.instances > 0 && spent + cost > kCheckBudget) return true;
    spent += cost;
    if (!formula_vars.empty()) {
      std::size_t i = 0;
      for (const auto &entry : formula_vars) {
        if (!entry.second.diagonal) m.formulas[entry.first] = random_dense(shapes[i].first, shapes[i].second, rng);
        ++i;
      }
      try {
        lhs = instantiate_left(rule, m);
      } catch (const FormulaError &) {
        return true;
      }
    }
    ++res.instances;
    try {
      Matrix want = lhs.spl ? to_dense(lhs.spl) : to_dense(lhs.sigma);
      double tol = 1e-8 * std::max(1.0, frobenius(want));
      std::vector<std::pair<const char *, Matrix>> got;
      if (sigma) {
        Sigma s = instantiate_sigma(rule.rhs, m, lhs.rows, lhs.cols, [](const Spl &part) { return lower::lower_to_sigma(part); });
        got.push_back({"", to_dense(s)});
        got.push_back({" (loop code)", to_dense(lower::sigma_to_loops(lower::merge_loops(s), "check"))});
      } else {
        got.push_back({"", to_dense(instantiate_spl(rule.rhs, m))});
      }
      for (const auto &[what, g] : got) {
        double err = max_abs_difference(want, g);
        if (!(err <= tol)) {
          res.counterexample = std::isinf(err) ? fmt::format("{}: the right side is {}x{}, the left side {}x{}{}", label,
                                                             g.rows, g.cols, want.rows, want.cols, what)
                                               : fmt::format("{}: max abs error {:.3g}{}", label, err, what);
          stop = true;
          return false;
        }
      }
    } catch (const std::exception &e) {
      res.error = fmt::format("{}: the right side does not instantiate or lower: {}", label.empty() ? "(no sizes)" : label, e.what());
      stop = true;
      return false;
    }
    return true;
  };
  const int64_t visited = for_each_size_tuple(names.size(), options.max_size, kMaxCheckTuples, try_tuple);
  if (stop) return res;
  if (res.instances == 0) {
    res.error = visited >= kMaxCheckTuples
                    ? fmt::format("no instance among the first {} size tuples up to size {}", kMaxCheckTuples,
                                  options.max_size)
                    : fmt::format("no instance satisfies the conditions up to size {}", options.max_size);
    return res;
  }
  LargeCheckResult large = check_large_instances(rule, options);
  res.large_instances = large.instances;
  if (!large.counterexample.empty()) {
    res.counterexample = large.counterexample;
    return res;
  }
  res.ok = true;
  return res;
}

CheckResult check_rule(const Rule &rule, const CheckOptions &options) {
  return check_rule_limited(rule, options, kMaxCheckInstances);
}

}  // namespace splgen::prove
