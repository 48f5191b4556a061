#include "generator/lower/vectorise_batch.h"

namespace splgen::lower {

namespace {

// I(nu) (x) A = L(n nu, nu) (A (x) I(nu)) L(n nu, n): lane l of I(nu) is column l of A (x) I(nu).
Spl across(const Spl &a, int64_t nu) {
  const int64_t n = a->cols, m = a->rows;
  return make_compose({make_stride(m * nu, nu), tensor(a, make_identity(nu)), make_stride(n * nu, n)});
}

Spl batch(int64_t b, const Spl &a) { return b == 1 ? a : tensor(make_identity(b), a); }

}  // namespace

Spl vectorise_batch(const Spl &formula, const std::vector<int> &widths) {
  if (formula->kind != SplKind::Tensor || formula->children.size() != 2 || !is_identity(formula->children[0]))
    return formula;
  const int64_t b = formula->children[0]->a;
  const Spl &a = formula->children[1];
  std::vector<Spl> terms;  // the batch in blocks of nu transforms, widest first
  int64_t done = 0;
  for (int nu : widths) {
    const int64_t blocks = (b - done) / nu;
    if (nu < 2 || blocks == 0) continue;
    terms.push_back(batch(blocks, across(a, nu)));
    done += blocks * nu;
  }
  if (terms.empty()) return formula;
  if (done < b) terms.push_back(batch(b - done, a));
  return terms.size() == 1 ? terms.front() : make_direct_sum(std::move(terms));
}

}  // namespace splgen::lower
