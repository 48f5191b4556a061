#include "generator/ir/print.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace splgen {

namespace {

// Binding strength: composition < direct sum < tensor < atom.
int level(const Spl &f) {
  switch (f->kind) {
    case SplKind::Compose: return 0;
    case SplKind::DirectSum: return 1;
    case SplKind::Tensor: return 2;
    default: return 3;
  }
}

void print_to(std::string &out, const Spl &f, std::size_t max_list);

// An operand that is itself an infix expression is always parenthesised: the parser would not
// need it where the operand binds tighter, but "(A (x) I(4)) * T(16,4)" reads better.
void print_operand(std::string &out, const Spl &child, std::size_t max_list) {
  if (level(child) < 3) {
    out += '(';
    print_to(out, child, max_list);
    out += ')';
  } else {
    print_to(out, child, max_list);
  }
}

// The operator of kind `op` between the operands, with a space on either side.
void print_infix(std::string &out, const Spl &f, SplKind op, std::size_t max_list) {
  for (std::size_t i = 0; i < f->children.size(); ++i) {
    if (i) out += fmt::format(" {} ", kind_token(op));
    print_operand(out, f->children[i], max_list);
  }
}

// The entries of a list, or "<N entries>" where there are more than max_list (0: no limit).
template <class T, class Print>
void print_list(std::string &out, const std::vector<T> &v, std::size_t max_list, Print entry) {
  if (max_list > 0 && v.size() > max_list) {
    out += fmt::format("<{} entries>", v.size());
    return;
  }
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + entry(v[i]);
}

void print_to(std::string &out, const Spl &f, std::size_t max_list) {
  const char *name = kind_token(f->kind);  // the keyword of a leaf
  switch (f->kind) {
    case SplKind::DFT:
      if (f->b == 1 || f->a == 1)
        out += fmt::format("{}({})", name, f->a);
      else if (f->b == f->a - 1)
        out += fmt::format("{}({},-1)", name, f->a);
      else
        out += fmt::format("{}({},{})", name, f->a, f->b);
      break;
    case SplKind::DFTnd: {
      out += fmt::format("{}(", name);
      for (std::size_t i = 0; i < f->perm.size(); ++i) out += fmt::format("{}{}", i ? " x " : "", f->perm[i]);
      if (f->b != 1) out += f->b == f->a - 1 ? ",-1" : fmt::format(",{}", f->b);
      out += ')';
      break;
    }
    case SplKind::Dense: {
      out += fmt::format("{}({},{}, [", name, f->rows, f->cols);
      print_list(out, f->diag, max_list, print_complex);
      out += "])";
      break;
    }
    case SplKind::Identity: out += fmt::format("{}({})", name, f->a); break;
    case SplKind::RealTransform:
      out += fmt::format("{}({})", real_kind_name(real_kind(f)), fmt::join(real_transform_dims(f), " x "));
      break;
    case SplKind::WideDense: {
      std::size_t n = std::size_t(f->rows * f->cols);
      out += fmt::format("{}({},{}, [", name, f->rows, f->cols);
      if (max_list > 0 && 2 * n > max_list)
        out += fmt::format("<{} entries>], [<{} entries>", n, n);
      else
        for (std::size_t i = 0; i < 2 * n; ++i) out += (i == n ? "], [" : i ? ", " : "") + print_complex(f->diag[i]);
      out += "])";
      break;
    }
    case SplKind::Stride: out += fmt::format("{}({},{})", name, f->a, f->b); break;
    case SplKind::Twiddle:
      if (f->c == 1)
        out += fmt::format("{}({},{})", name, f->a, f->b);
      else if (f->c == f->a - 1)
        out += fmt::format("{}({},{},-1)", name, f->a, f->b);
      else
        out += fmt::format("{}({},{},{})", name, f->a, f->b, f->c);
      break;
    case SplKind::Diag: {
      out += fmt::format("{}(", name);
      if (f->lazy && max_list > 0 && std::size_t(f->rows) > max_list)  // abbreviated: not computed
        out += fmt::format("<{} entries>", f->rows);
      else
        print_list(out, diag_values(*f), max_list, print_complex);
      out += ')';
      break;
    }
    case SplKind::Perm: {
      out += fmt::format("{}(", name);
      print_list(out, f->perm, max_list, [](int64_t k) { return fmt::format("{}", k); });
      out += ')';
      break;
    }
    case SplKind::Tensor: print_infix(out, f, f->marked ? SplKind::TileTensor : SplKind::Tensor, max_list); break;
    case SplKind::Compose: print_infix(out, f, f->marked ? SplKind::Fence : SplKind::Compose, max_list); break;
    case SplKind::DirectSum: print_infix(out, f, SplKind::DirectSum, max_list); break;
    case SplKind::Tagged: {
      out += tag_name(f->tag.kind);
      out += '(';
      for (std::size_t i = 0; i < f->tag.params.size(); ++i) out += fmt::format("{}{}", i ? "," : "", f->tag.params[i]);
      out += ")[ ";
      print_to(out, f->children.front(), max_list);
      out += " ]";
      break;
    }
    case SplKind::TileTensor: case SplKind::Fence: case SplKind::Transpose: case SplKind::FormulaVar:
    case SplKind::Call: case SplKind::Sum: case SplKind::Gather: case SplKind::Scatter:
      break;  // rule-only kinds are no SplNode (listed, so a new kind warns here: -Wswitch)
  }
}

}  // namespace

std::string print_complex(cplx v) {
  if (v.imag() == 0.0) return fmt::format("{}", v.real());
  if (v.real() == 0.0) return fmt::format("{}i", v.imag());
  return fmt::format("{}{}{}i", v.real(), v.imag() < 0 ? "-" : "+", std::abs(v.imag()));
}

std::string print(const Spl &f) {
  std::string out;
  print_to(out, f, 0);
  return out;
}

std::string print_brief(const Spl &f, std::size_t max_list) {
  std::string out;
  print_to(out, f, max_list);
  return out;
}

}  // namespace splgen
