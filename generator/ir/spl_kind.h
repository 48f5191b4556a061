// The constructs of the SPL language, one enumeration for SPL nodes (SplNode::kind) and rule
// terms (Term::kind, generator/ir/rule.h), and one table of their names: the parsers, the
// printers and the rule dump all read the spellings from here.
#pragma once
#include <cstddef>

namespace splgen {

enum class SplKind {
  // The kinds of an SplNode.
  DFT, DFTnd, Identity, Stride, Twiddle, Diag, Perm, Dense, Tensor, Compose, DirectSum, Tagged,
  RealTransform,  // RDFT, IRDFT, WHT, DCTk, DSTk (the RealKind in SplNode::b; real_kind.h)
  WideDense,      // WMat(r, c, [M], [C]): y = M x + C conj(x), a small real-linear block
  // Rule terms only. TileTensor and Fence are an SplNode's marked Tensor and Compose, and the
  // factories push a transpose down to the leaves; rules keep them as written.
  TileTensor, Fence, Transpose,
  FormulaVar,  // A pattern variable: A, A[m], A[r, c]
  Call,        // @name(sizes...)
  // Sigma-SPL in rule terms (a term's Diag is Diag(D o f), the diagonal D read through f).
  Sum, Gather, Scatter,
};

struct SplKindInfo {
  SplKind kind;
  const char *name;   // the enumerator, as the rule dump prints it
  const char *token;  // how it is written: a keyword, or an operator without spaces
};

inline constexpr SplKindInfo kSplKinds[] = {
    {SplKind::DFT, "DFT", "DFT"},
    {SplKind::DFTnd, "DFTnd", "DFT"},
    {SplKind::Identity, "Identity", "I"},
    {SplKind::Stride, "Stride", "L"},
    {SplKind::Twiddle, "Twiddle", "T"},
    {SplKind::Diag, "Diag", "Diag"},
    {SplKind::Perm, "Perm", "Perm"},
    {SplKind::Dense, "Dense", "Mat"},
    {SplKind::Tensor, "Tensor", "(x)"},
    {SplKind::Compose, "Compose", "*"},
    {SplKind::DirectSum, "DirectSum", "(+)"},
    {SplKind::Tagged, "Tagged", ""},  // spelled by its tag (tag_name)
    {SplKind::RealTransform, "RealTransform", ""},  // spelled by its RealKind (real_kind_name)
    {SplKind::WideDense, "WideDense", "WMat"},
    {SplKind::TileTensor, "TileTensor", "(x)~"},
    {SplKind::Fence, "Fence", "|"},
    {SplKind::Transpose, "Transpose", "'"},
    {SplKind::FormulaVar, "FormulaVar", ""},
    {SplKind::Call, "Call", "@"},
    {SplKind::Sum, "Sum", "Sum"},
    {SplKind::Gather, "Gather", "G"},
    {SplKind::Scatter, "Scatter", "S"},
};

constexpr bool spl_kind_table_in_order() {
  for (std::size_t i = 0; i < std::size(kSplKinds); ++i)
    if (static_cast<std::size_t>(kSplKinds[i].kind) != i) return false;
  return static_cast<std::size_t>(SplKind::Scatter) + 1 == std::size(kSplKinds);
}
static_assert(spl_kind_table_in_order(), "kSplKinds lists every SplKind once, in order");

constexpr const char *kind_name(SplKind kind) { return kSplKinds[static_cast<std::size_t>(kind)].name; }
constexpr const char *kind_token(SplKind kind) { return kSplKinds[static_cast<std::size_t>(kind)].token; }

}  // namespace splgen
