// A straight-line program over complex values: the form of a kernel that is one DFT codelet
// on a vector target (complex-interleaved vectorisation, as FFTW's n1fv codelets; built by
// generator/lower/complex_codelet.h, printed by backends/cpp/complex_codelet.h). It is the
// loop program of such a kernel, what `--dump-after loops` shows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "generator/ir/dense.h"

namespace splgen {

struct ComplexCodelet {
  // x[index] (Load), a op b, c0 * a (Scale), a * (c0 + i c1) (MulConst), +-i a (MulI, MulMinusI).
  enum class Op { Load, Add, Sub, Neg, Scale, MulI, MulMinusI, MulConst };
  struct Node {
    Op op;
    int id = 0;          // value number (printed names use it)
    int a = -1, b = -1;  // operand ids
    int64_t index = 0;   // Load
    double c0 = 0, c1 = 0;
  };
  int64_t n = 0;               // DFT(n, k): n complex values in, n out
  int64_t k = 1;
  std::vector<Node> nodes;     // the values the outputs use, in dependency order
  std::vector<int> outputs;    // y[j] = value outputs[j]
};

// y = program(x), for tests and `verify`.
std::vector<cplx> interpret(const ComplexCodelet &c, const std::vector<cplx> &x);
// Human-readable dump (--dump-after loops): one value per line, then the stores.
std::string to_string(const ComplexCodelet &c, const std::string &name);

}  // namespace splgen
