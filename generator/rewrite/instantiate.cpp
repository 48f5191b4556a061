#include "generator/rewrite/instantiate.h"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

#include "generator/rewrite/functions.h"
#include "generator/rewrite/size_expr.h"

namespace splgen::rewrite {

namespace {

std::string where(const Term &t) {
  if (t.pos.file.empty() && t.pos.line == 0) return "";
  return fmt::format("{}:{}:{}: ", t.pos.file, t.pos.line, t.pos.column);
}

int64_t value(const Term &t, const SizeExpr &e, const Bindings &b, const char *what) {
  return eval_size_or_throw(e, b, where(t) + what);
}

int64_t dim(const Term &t, const SizeExpr &e, const Bindings &b, const char *what) {
  int64_t v = value(t, e, b, what);
  if (v < 1) throw FormulaError(fmt::format("{}{}: {} = {} is not a positive size", where(t), what, to_string(e), v));
  return v;
}

Spl spl_of(const Term &t, const Bindings &b, const std::map<std::string, Spl> &formulas) {
  auto kids = [&] {
    std::vector<Spl> out;
    for (const Term &c : t.children) out.push_back(spl_of(c, b, formulas));
    return out;
  };
  switch (t.kind) {
    case SplKind::DFT:
      return make_dft(dim(t, t.sizes.at(0), b, "DFT size"), t.sizes.size() > 1 ? value(t, t.sizes[1], b, "DFT root") : 1);
    case SplKind::DFTnd: {
      std::vector<int64_t> dims;
      for (const SizeExpr &e : t.sizes) dims.push_back(dim(t, e, b, "DFT dimension"));
      return make_dft_nd(std::move(dims), t.has_root ? value(t, t.root, b, "DFT root") : 1);
    }
    case SplKind::Identity: return make_identity(dim(t, t.sizes.at(0), b, "I size"));
    case SplKind::RealTransform: {
      std::vector<int64_t> dims;
      for (const SizeExpr &e : t.sizes) dims.push_back(dim(t, e, b, "transform size"));
      return make_real_transform_nd(t.real, std::move(dims));
    }
    case SplKind::Stride: return make_stride(dim(t, t.sizes.at(0), b, "L size"), dim(t, t.sizes.at(1), b, "L stride"));
    case SplKind::Twiddle:
      return make_twiddle(dim(t, t.sizes.at(0), b, "T size"), dim(t, t.sizes.at(1), b, "T size"),
                          t.sizes.size() > 2 ? value(t, t.sizes[2], b, "T root") : 1);
    case SplKind::Tensor: return make_tensor(kids());
    case SplKind::TileTensor: {
      std::vector<Spl> k = kids();
      return make_tile_tensor(k.at(0), k.at(1));
    }
    case SplKind::Compose: return make_compose(kids());
    case SplKind::Fence: return make_fence(kids());
    case SplKind::DirectSum: return make_direct_sum(kids());
    case SplKind::Tagged: {
      Tag tag{t.tag, {}};
      for (const SizeExpr &e : t.sizes) tag.params.push_back(dim(t, e, b, "tag parameter"));
      return make_tagged(std::move(tag), spl_of(t.children.at(0), b, formulas));
    }
    case SplKind::Transpose: return make_transpose(spl_of(t.children.at(0), b, formulas));
    case SplKind::FormulaVar: {
      auto it = formulas.find(t.name);
      if (it == formulas.end()) throw FormulaError(fmt::format("{}formula variable {} is not bound", where(t), t.name));
      const Spl &f = it->second;
      if (t.shape.size() == 1 || t.shape.size() == 2) {
        int64_t r = dim(t, t.shape[0], b, "shape"), c = t.shape.size() == 2 ? dim(t, t.shape[1], b, "shape") : r;
        if (f->rows != r || f->cols != c)
          throw FormulaError(fmt::format("{}{} is {}x{}, not {}x{}", where(t), t.name, f->rows, f->cols, r, c));
      }
      return f;
    }
    case SplKind::Call: {
      const RuleFunction *fn = find_rule_function(t.name);
      if (!fn) throw FormulaError(fmt::format("{}no function @{} is registered", where(t), t.name));
      std::vector<int64_t> args;
      for (const SizeExpr &e : t.sizes) args.push_back(value(t, e, b, "function argument"));
      if (args.size() != fn->arity)
        throw FormulaError(fmt::format("{}@{} takes {} argument(s), got {}", where(t), t.name, fn->arity, args.size()));
      return fn->make(args);
    }
    case SplKind::Sum:
    case SplKind::Gather:
    case SplKind::Scatter:
    case SplKind::Diag:
      throw FormulaError(where(t) + "Sigma-SPL (Sum, G, S, Diag) where an SPL formula is expected");
    case SplKind::Perm:
    case SplKind::Dense: case SplKind::WideDense: break;  // not in terms
  }
  throw FormulaError(where(t) + "unknown term");
}

using Dim = std::optional<int64_t>;

class SigmaBuilder {
 public:
  SigmaBuilder(const Match &m, const std::function<Sigma(const Spl &)> &lower)
      : sizes_(m.sizes), formulas_(m.formulas), sigmas_(m.sigmas), bound_loops_(m.loops), lower_(lower) {}

  // The shape t fixes on its own, a composition's ends taking their tightest ranges.
  std::pair<Dim, Dim> shape(const Term &t) { return hint(t); }

  Sigma build(const Term &t, Dim rows, Dim cols) {
    if (const Sigma *bound = sigma_bound(t)) {
      check(t, "rows", rows, (*bound)->rows);
      check(t, "columns", cols, (*bound)->cols);
      return *bound;
    }
    if (!is_sigma_term(t)) {
      Spl f = spl_of(t, sizes_, formulas_);
      check(t, "rows", rows, f->rows);
      check(t, "columns", cols, f->cols);
      return lower_(f);
    }
    switch (t.kind) {
      case SplKind::Gather: {
        if (!rows) throw FormulaError(where(t) + "cannot infer the domain of this gather from where it stands");
        return sigma_gather(make_fn(t, *rows, cols), t.dma);
      }
      case SplKind::Scatter: {
        if (!cols) throw FormulaError(where(t) + "cannot infer the domain of this scatter from where it stands");
        return sigma_scatter(make_fn(t, *cols, rows), t.dma);
      }
      case SplKind::Sum: {
        LoopVar v = enter(t);
        Sigma body = build(t.children.at(0), rows, cols);
        leave(t);
        return sigma_sum(v, body, t.mode);
      }
      case SplKind::Compose: {
        std::vector<const Term *> factors = compose_factors(t);
        std::vector<Dim> b = boundaries(factors, rows, cols);
        std::vector<Sigma> built;
        for (std::size_t i = 0; i < factors.size(); ++i) built.push_back(build(*factors[i], b[i], b[i + 1]));
        return sigma_compose(std::move(built));
      }
      case SplKind::Diag: {
        Dim n = rows ? rows : cols;
        if (!n) throw FormulaError(where(t) + "cannot infer the size of this diagonal from where it stands");
        check(t, "columns", cols, *n);
        Spl d = spl_of(t.children.at(0), sizes_, formulas_);
        if (d->kind != SplKind::Twiddle && d->kind != SplKind::Diag)
          throw FormulaError(where(t) + "Diag(D o f) needs a diagonal D (T, or a diagonal bound to a variable)");
        return sigma_diag(d, make_fn(t, *n, d->rows));
      }
      case SplKind::Tagged: return build(t.children.at(0), rows, cols);  // tags are passed through
      default:
        throw FormulaError(where(t) + "Sigma-SPL (Sum, G, S, Diag) may stand only in compositions and sums");
    }
  }

 private:
  Bindings sizes_;  // size variables; a Sum's variable shadows one of the same name
  const std::map<std::string, Spl> &formulas_;
  const std::map<std::string, Sigma> &sigmas_;         // formula variables bound to Sigma-SPL
  const std::map<std::string, LoopVar> &bound_loops_;  // loop variables bound by a Sigma-SPL match
  const std::function<Sigma(const Spl &)> &lower_;
  std::vector<std::pair<std::string, LoopVar>> loops_;  // innermost last
  std::vector<std::optional<int64_t>> shadowed_;
  int next_id_ = kRuleLoopVarBase;

  static void check(const Term &t, const char *what, Dim expected, int64_t got) {
    if (expected && *expected != got)
      throw FormulaError(fmt::format("{}dimension mismatch: {} {} where {} are needed", where(t), got, what, *expected));
  }

  const Sigma *sigma_bound(const Term &t) const {
    if (t.kind != SplKind::FormulaVar) return nullptr;
    auto it = sigmas_.find(t.name);
    return it == sigmas_.end() ? nullptr : &it->second;
  }

  // A loop the left side bound keeps its variable (what formula variables captured refers
  // to it); others get fresh ones.
  LoopVar enter(const Term &t) {
    int64_t extent = dim(t, t.sizes.at(0), sizes_, "Sum bound");
    LoopVar v{next_id_++, extent};
    if (auto it = bound_loops_.find(t.name); it != bound_loops_.end()) {
      if (it->second.extent != extent)
        throw FormulaError(fmt::format("{}loop {} has {} iterations on the left side, {} here", where(t), t.name,
                                       it->second.extent, extent));
      v = it->second;
    }
    auto it = sizes_.find(t.name);
    shadowed_.push_back(it == sizes_.end() ? std::nullopt : std::optional<int64_t>(it->second));
    sizes_.erase(t.name);
    loops_.push_back({t.name, v});
    return v;
  }

  void leave(const Term &t) {
    loops_.pop_back();
    if (shadowed_.back()) sizes_[t.name] = *shadowed_.back();
    shadowed_.pop_back();
  }

  const LoopVar *loop(const std::string &name) const {
    for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }

  // e as an affine function of the loop variables in scope (the rest evaluated).
  Affine affine(const Term &t, const SizeExpr &e) {
    std::set<std::string> names;
    size_vars(e, names);
    std::vector<LoopVar> vars;
    std::vector<std::string> var_names;
    for (const std::string &n : names)
      if (const LoopVar *v = loop(n)) vars.push_back(*v), var_names.push_back(n);
    if (vars.empty()) return Affine::constant(value(t, e, sizes_, "index function argument"));
    auto at = [&](const std::vector<int64_t> &point) {
      Bindings b = sizes_;
      for (std::size_t i = 0; i < vars.size(); ++i) b[var_names[i]] = point[i];
      if (auto v = eval_size(e, b)) return *v;
      throw FormulaError(fmt::format("{}'{}' is not an integer for every value of its loop variables", where(t),
                                     to_string(e)));
    };
    std::vector<int64_t> zero(vars.size(), 0);
    int64_t c0 = at(zero);
    Affine a = Affine::constant(c0);
    std::vector<int64_t> coeff;
    for (std::size_t i = 0; i < vars.size(); ++i) {
      std::vector<int64_t> p = zero;
      p[i] = 1;
      coeff.push_back(at(p) - c0);
      a = a + Affine::var(vars[i], coeff.back());
    }
    // Check affinity at a few more points: each variable at its largest value, all together.
    auto predicted = [&](const std::vector<int64_t> &p) {
      int64_t v = c0;
      for (std::size_t i = 0; i < p.size(); ++i) v += coeff[i] * p[i];
      return v;
    };
    std::vector<std::vector<int64_t>> probes;
    std::vector<int64_t> all_max(vars.size()), all_one(vars.size(), 1);
    for (std::size_t i = 0; i < vars.size(); ++i) {
      all_max[i] = vars[i].extent - 1;
      std::vector<int64_t> p = zero;
      p[i] = vars[i].extent - 1;
      probes.push_back(p);
    }
    probes.push_back(all_max);
    probes.push_back(all_one);
    for (const auto &p : probes)
      if (at(p) != predicted(p))
        throw FormulaError(fmt::format("{}'{}' is not affine in its loop variables", where(t), to_string(e)));
    return a;
  }

  int64_t constant(const Term &t, const SizeExpr &e, const char *what) {
    std::set<std::string> names;
    size_vars(e, names);
    for (const std::string &n : names)
      if (loop(n)) throw FormulaError(fmt::format("{}{} '{}' may not depend on a loop variable", where(t), what, to_string(e)));
    return value(t, e, sizes_, what);
  }

  struct FnParts {
    Affine base;
    int64_t s = 1, mu = 1;
  };

  FnParts parts(const Term &t) {
    const IndexFnTerm &fn = t.fn;
    std::size_t want = fn.kind == FnKind::Q ? 3 : 2;
    if (fn.kind != FnKind::H && fn.kind != FnKind::Q)
      throw FormulaError(where(t) + "gathers and scatters take h(b, s) or q(b, s, mu)");
    if (fn.args.size() != want)
      throw FormulaError(fmt::format("{}{}() takes {} arguments", where(t), fn.kind == FnKind::Q ? "q" : "h", want));
    FnParts p{affine(t, fn.args[0]), constant(t, fn.args[1], "stride")};
    if (fn.kind == FnKind::Q) p.mu = constant(t, fn.args[2], "packet size");
    if (p.s < 0) throw FormulaError(where(t) + "negative strides are not supported");
    return p;
  }

  // One past the largest index the function reaches.
  int64_t tight_range(const Term &t, int64_t domain) {
    FnParts p = parts(t);
    if (t.fn.kind == FnKind::H) return p.base.max() + (domain - 1) * p.s + 1;
    if (p.mu < 1 || domain % p.mu) throw FormulaError(where(t) + "q(b, s, mu): mu must divide the domain");
    return (p.base.max() + (domain / p.mu - 1) * p.s) * p.mu + p.mu;
  }

  IndexFn make_fn(const Term &t, int64_t domain, Dim range) {
    int64_t r = range ? *range : tight_range(t, domain);
    FnParts p = parts(t);
    if (p.base.min() < 0) throw FormulaError(where(t) + "index function base may be negative");
    try {
      if (t.fn.kind == FnKind::H) return fn_h(domain, r, p.base, p.s);
      if (p.mu < 1 || domain % p.mu) throw FormulaError(where(t) + "q(b, s, mu): mu must divide the domain");
      if ((p.base.max() + (domain / p.mu - 1) * p.s) * p.mu + p.mu > r)
        throw FormulaError(fmt::format("{}q leaves [0, {})", where(t), r));
      return fn_q(domain, r, p.base, p.s, p.mu);
    } catch (const std::logic_error &e) {
      throw FormulaError(where(t) + e.what());
    }
  }

  static std::vector<const Term *> compose_factors(const Term &t) {
    std::vector<const Term *> out;
    for (const Term &c : t.children) {
      if (c.kind == SplKind::Compose) {
        std::vector<const Term *> inner = compose_factors(c);
        out.insert(out.end(), inner.begin(), inner.end());
      } else {
        out.push_back(&c);
      }
    }
    return out;
  }

  // The shape a term has on its own, as far as it fixes it.
  std::pair<Dim, Dim> hint(const Term &t) {
    if (const Sigma *bound = sigma_bound(t)) return {(*bound)->rows, (*bound)->cols};
    if (!is_sigma_term(t)) {
      Spl f = spl_of(t, sizes_, formulas_);
      return {f->rows, f->cols};
    }
    switch (t.kind) {
      case SplKind::Sum: {
        enter(t);
        auto h = hint(t.children.at(0));
        leave(t);
        return h;
      }
      case SplKind::Compose: {
        std::vector<const Term *> factors = compose_factors(t);
        std::vector<Dim> b = boundaries(factors, std::nullopt, std::nullopt);
        return {b.front(), b.back()};
      }
      case SplKind::Tagged: return hint(t.children.at(0));
      default: return {std::nullopt, std::nullopt};
    }
  }

  // b[i] = rows of factor i = cols of factor i-1; b[0] = rows, b[k] = cols.
  std::vector<Dim> boundaries(const std::vector<const Term *> &factors, Dim rows, Dim cols) {
    std::size_t k = factors.size();
    std::vector<Dim> b(k + 1);
    b[0] = rows, b[k] = cols;
    auto set = [&](std::size_t i, Dim v, const Term &t) {
      if (!v) return false;
      if (b[i] && *b[i] != *v)
        throw FormulaError(fmt::format("{}dimension mismatch: {} where {} is needed", where(t), *v, *b[i]));
      bool fresh = !b[i];
      b[i] = v;
      return fresh;
    };
    for (std::size_t i = 0; i < k; ++i) {
      auto [r, c] = hint(*factors[i]);
      set(i, r, *factors[i]);
      set(i + 1, c, *factors[i]);
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < k; ++i) {
        const Term &f = *factors[i];
        if (f.kind == SplKind::Gather && b[i] && !b[i + 1]) changed |= set(i + 1, tight_range(f, *b[i]), f);
        if (f.kind == SplKind::Scatter && b[i + 1] && !b[i]) changed |= set(i, tight_range(f, *b[i + 1]), f);
        if (f.kind == SplKind::Diag && b[i] != b[i + 1]) changed |= set(b[i] ? i + 1 : i, b[i] ? b[i] : b[i + 1], f);
      }
    }
    return b;
  }
};

struct Renumber {
  int next = 0;
  std::vector<std::pair<int, int>> scope;  // old id -> new id, innermost last

  int lookup(int id) const {
    for (auto it = scope.rbegin(); it != scope.rend(); ++it)
      if (it->first == id) return it->second;
    return id;
  }

  Affine affine(const Affine &a) const {
    Affine r = Affine::constant(a.c0);
    for (const auto &[v, c] : a.terms) r = r + Affine::var(LoopVar{lookup(v.id), v.extent}, c);
    return r;
  }

  IndexFn fn(const IndexFn &f) const {
    switch (f->kind) {
      case FnKind::H: return fn_h(f->domain, f->range, affine(f->base), f->s);
      case FnKind::Q: return fn_q(f->domain, f->range, affine(f->base), f->s, f->mu);
      case FnKind::Compose: return compose(fn(f->f), fn(f->g));
      default: return f;
    }
  }

  Sigma go(const Sigma &s) {
    auto kids = [&] {
      std::vector<Sigma> out;
      for (const Sigma &c : s->children) out.push_back(go(c));
      return out;
    };
    switch (s->kind) {
      case SigmaKind::Compose: return sigma_compose(kids());
      case SigmaKind::SumList: return sigma_sum_list(kids());
      case SigmaKind::Sum: {
        LoopVar v{next++, s->var.extent};
        scope.push_back({s->var.id, v.id});
        Sigma body = go(s->children.front());
        scope.pop_back();
        return sigma_sum(v, body, s->mode);
      }
      case SigmaKind::Gather: return sigma_gather(fn(s->fn), s->dma);
      case SigmaKind::Scatter: return sigma_scatter(fn(s->fn), s->dma);
      case SigmaKind::Diag: return sigma_diag(s->source, fn(s->fn));
      case SigmaKind::Kernel: return s;
    }
    return s;
  }
};

}  // namespace

bool is_sigma_term(const Term &t) {
  if (t.kind == SplKind::Sum || t.kind == SplKind::Gather || t.kind == SplKind::Scatter || t.kind == SplKind::Diag)
    return true;
  for (const Term &c : t.children)
    if (is_sigma_term(c)) return true;
  return false;
}

Spl instantiate_spl(const Term &t, const Match &m) { return spl_of(t, m.sizes, m.formulas); }

Sigma instantiate_sigma_in_place(const Term &t, const Match &m, int64_t rows, int64_t cols,
                                 const std::function<Sigma(const Spl &)> &lower) {
  SigmaBuilder builder(m, lower);
  Sigma s = builder.build(t, rows, cols);
  if (s->rows != rows || s->cols != cols)
    throw FormulaError(fmt::format("{}the right side is {}x{}, not {}x{}", where(t), s->rows, s->cols, rows, cols));
  return s;
}

Sigma instantiate_sigma(const Term &t, const Match &m, int64_t rows, int64_t cols,
                        const std::function<Sigma(const Spl &)> &lower) {
  return renumber_loops(instantiate_sigma_in_place(t, m, rows, cols, lower));
}

std::pair<int64_t, int64_t> sigma_shape(const Term &t, const Match &m) {
  SigmaBuilder builder(m, [](const Spl &) -> Sigma { throw FormulaError("sigma_shape lowers nothing"); });
  auto [rows, cols] = builder.shape(t);
  if (!rows || !cols) throw FormulaError(where(t) + "the shape of this Sigma-SPL term does not follow from it");
  return {*rows, *cols};
}

Sigma renumber_loops(const Sigma &s) { return Renumber{}.go(s); }

}  // namespace splgen::rewrite
