#include "generator/lower/grows_in_place.h"

#include <stdexcept>
#include <vector>

namespace splgen::lower {

namespace {

class GrowsInPlace {
 public:
  explicit GrowsInPlace(const std::function<bool(const Spl &)> &straight) : straight_(straight) {}

  bool check(const Sigma &s) {
    written_.assign(std::size_t(s->rows), 0);
    try {
      return walk(s, fn_identity(s->rows), fn_identity(s->cols));
    } catch (const std::logic_error &) {  // a loop variable from outside s
      return false;
    }
  }

 private:
  const std::function<bool(const Spl &)> &straight_;
  std::vector<char> written_;
  Env env_;
  int64_t budget_ = int64_t(1) << 22;

  bool walk(const Sigma &s, IndexFn out, IndexFn in) {
    if (s->kind == SigmaKind::Sum) {
      for (int64_t v = 0; v < s->var.extent; ++v) {
        env_[s->var.id] = v;
        if (!walk(s->children.front(), out, in)) return false;
      }
      env_.erase(s->var.id);
      return true;
    }
    if (s->kind == SigmaKind::SumList) {
      for (const Sigma &t : s->children)
        if (!walk(t, out, in)) return false;
      return true;
    }
    std::vector<Sigma> rest = s->kind == SigmaKind::Compose ? s->children : std::vector<Sigma>{s};
    for (; !rest.empty() && rest.front()->kind == SigmaKind::Scatter; rest.erase(rest.begin()))
      out = compose(out, rest.front()->fn);
    for (; !rest.empty() && rest.back()->kind == SigmaKind::Gather; rest.pop_back()) in = compose(in, rest.back()->fn);
    if (rest.size() == 1 && (rest[0]->kind == SigmaKind::Sum || rest[0]->kind == SigmaKind::SumList))
      return walk(rest[0], out, in);
    bool kernel = false;
    for (const Sigma &f : rest) {
      if (f->kind == SigmaKind::Kernel && straight_(f->source)) kernel = true;
      else if (f->kind != SigmaKind::Diag) return false;
    }
    if (!kernel || (budget_ -= in->domain + out->domain) < 0) return false;
    for (int64_t i = 0; i < in->domain; ++i)
      if (written_[std::size_t(eval(in, i, env_))]) return false;
    for (int64_t i = 0; i < out->domain; ++i) written_[std::size_t(eval(out, i, env_))] = 1;
    return true;
  }
};


}  // namespace

bool grows_in_place(const Sigma &s, const std::function<bool(const Spl &)> &straight) {
  return GrowsInPlace(straight).check(s);
}

}  // namespace splgen::lower
