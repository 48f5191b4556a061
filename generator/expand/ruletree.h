// Ruletrees: which breakdown rule expanded each non-terminal, and with which choice.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "generator/ir/spl.h"

namespace splgen::expand {

struct Ruletree;
using RuletreePtr = std::shared_ptr<const Ruletree>;
struct Ruletree {
  Spl node;                          // the non-terminal, e.g. DFT(1024)
  std::string rule;                  // e.g. "dft_ct_dit" (rules/dft.rules) or "DFT_Codelet"
  std::string choice;                // e.g. "32 x 32"
  std::string source;                // "FILE:LINE" of a rule-file rule; empty for the C++ leaves
  std::vector<RuletreePtr> children;  // ruletrees of the non-terminals the rule produced
  Spl expanded;                      // the fully expanded formula of this subtree
};

// "DFT(1024) -> dft_ct_dit(k=1, m=32, n=32) [rules/dft.rules:13]\n  DFT(32) -> DFT_Codelet(unrolled)\n ...":
// each rule-file rule with its file and line (a file below the working directory relative to it).
std::string print(const RuletreePtr &tree);
// "FILE:LINE" of a rule as print shows it: a file below the working directory relative to it.
std::string shown_source(const std::string &file_and_line);

}  // namespace splgen::expand
