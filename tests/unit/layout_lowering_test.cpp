// Block data layouts lowered to streamed passes (lower/layout_passes.h): the loop program's
// matrix is the DFT (natural), P DFT P^-1 (block), P and P^-1 (the conversions), with P from
// block_layout_position; and the digit-swap index function l(a; N, m; mu) the cubic passes use.
#include <gtest/gtest.h>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "generator/lower/layout_passes.h"
#include "generator/parse/formula_parser.h"

namespace splgen {
namespace {

using lower::DataLayout;

Matrix loop_matrix(const std::string &spec, DataLayout layout, int buffers) {
  driver::GenOptions o;
  o.layout = layout, o.dma_buffers = buffers;
  driver::Compilation c = driver::start(spec, o);
  driver::run_until(c, driver::Stage::Loops);
  EXPECT_GT(c.program.loops.dma_tags, 0) << spec;
  return to_dense(c.program.loops);
}

// The matrix of y = P A P^-1 (in = block: x is P-ordered; out = block: y is).
Matrix in_layout(const Spl &spec, const Matrix &a, bool in, bool out) {
  Matrix m = a;
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t c = 0; c < a.cols; ++c)
      m.at(out ? lower::block_layout_position(spec, r) : r, in ? lower::block_layout_position(spec, c) : c) = a.at(r, c);
  return m;
}

TEST(LayoutLowering, KeepsTheMatrixInEveryLayout) {
  for (const char *text : {"tiled(2)[DFT(8 x 8)]", "tiled(4)[DFT(8 x 8)]", "tiled(2)[DFT(36)]", "tiled(2)[DFT(6 x 6)]",
                           "cubic(2)[DFT(4 x 4 x 4)]"}) {
    const Spl spec = parse::parse_formula(text);
    const Matrix dft = to_dense(spec), identity = to_dense(make_identity(spec->rows));
    for (int buffers : {1, 2, 3}) {
      SCOPED_TRACE(std::string(text) + " --buffers " + std::to_string(buffers));
      EXPECT_LT(max_abs_difference(loop_matrix(text, DataLayout::Natural, buffers), dft), 1e-9);
      EXPECT_LT(max_abs_difference(loop_matrix(text, DataLayout::Block, buffers), in_layout(spec, dft, true, true)), 1e-9);
      EXPECT_EQ(max_abs_difference(loop_matrix(text, DataLayout::ToBlock, buffers), in_layout(spec, identity, false, true)), 0);
      EXPECT_EQ(max_abs_difference(loop_matrix(text, DataLayout::FromBlock, buffers), in_layout(spec, identity, true, false)), 0);
    }
  }
}

TEST(LayoutLowering, BlockLayoutPositionIsTheTiledLayout) {
  const Spl spec = parse::parse_formula("tiled(2)[DFT(4 x 4)]");
  // rows 0, 1 of the 4 x 4 matrix: tiles (0,0) = 0 1 4 5, (0,1) = 2 3 6 7
  const std::vector<int64_t> want = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
  for (int64_t i = 0; i < 16; ++i) EXPECT_EQ(lower::block_layout_position(spec, i), want[std::size_t(i)]) << i;
}

TEST(LayoutLowering, DigitSwapIndexFunction) {  // l(a; N, m; mu) = I(a) (x) L(N, m) (x) I(mu)
  const IndexFn f = fn_stride(2, 6, 3, 2);      // 2 blocks of L(6, 3) on packets of 2
  const Matrix want = to_dense(make_tensor({make_identity(2), make_stride(6, 3), make_identity(2)}));
  for (int64_t i = 0; i < 24; ++i) {
    EXPECT_EQ(want.at(i, eval(f, i, {})), cplx(1)) << "gathers like the SPL permutation, at " << i;
    EXPECT_EQ(eval(apply_index(f, idx_const(i)), {}), eval(f, i, {})) << "symbolic, at " << i;
    EXPECT_EQ(eval(*inverse(f), eval(f, i, {}), {}), i) << "inverse, at " << i;
  }
  EXPECT_EQ(to_string(f), "l(2; 6, 3; 2)");
  EXPECT_TRUE(same(fn_stride(1, 6, 3, 1), fn_stride(6, 3)));
  EXPECT_FALSE(same(fn_stride(2, 6, 3, 2), fn_stride(1, 6, 3, 4)));
  LoopVar c{0, 4};  // symbolic in a loop variable: div and mod, the values of eval
  const Idx at = apply_index(compose(fn_stride(1, 4, 2, 6), fn_h(6, 24, Affine::var(c, 6), 1)), idx_const(1));
  for (int64_t v = 0; v < 4; ++v) EXPECT_EQ(eval(at, {{0, v}}), eval(fn_stride(1, 4, 2, 6), 6 * v + 1, {}));
}

}  // namespace
}  // namespace splgen
