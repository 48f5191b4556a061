// The large 1D DFT in place (lower/inplace_passes.h): the loop program of tiled(k)[DFT(n)]
// --in-place is the DFT (square n = m^2 and 1:2 n = 2 m^2, odd k, inverse), reads and writes one
// buffer, has no temporary beyond its local buffers, and its passes each put a chunk where
// they got it; the packet table index function table(p; mu); the one-line errors.
#include <gtest/gtest.h>

#include "generator/driver/pipeline.h"
#include "generator/ir/dense.h"
#include "generator/lower/inplace_passes.h"
#include "generator/measure/bench.h"
#include "generator/parse/formula_parser.h"

namespace splgen {
namespace {

driver::Compilation lowered(const std::string &spec, int buffers) {
  driver::GenOptions o;
  o.io.in_place = true, o.dma_buffers = buffers;
  driver::Compilation c = driver::start(spec, o);
  driver::run_until(c, driver::Stage::Loops);
  return c;
}

int count_streams(const Sigma &s) {
  int n = s->kind == SigmaKind::Sum && s->mode == SumMode::Stream;
  for (const Sigma &c : s->children) n += count_streams(c);
  return n;
}

TEST(InplaceLowering, IsTheDftInPlaceWithoutTemporaries) {
  for (const char *text : {"tiled(2)[DFT(16)]", "tiled(2)[DFT(64)]", "tiled(4)[DFT(64)]", "tiled(2)[DFT(32)]",
                           "tiled(3)[DFT(72)]", "tiled(3)[DFT(144)]", "tiled(2)[DFT(128, -1)]"}) {
    const Spl spec = parse::parse_formula(text);
    const Matrix dft = to_dense(spec->children.front());
    for (int buffers : {1, 2, 3}) {
      SCOPED_TRACE(std::string(text) + " --buffers " + std::to_string(buffers));
      driver::Compilation c = lowered(text, buffers);
      EXPECT_TRUE(c.program.loops.in_place);
      EXPECT_EQ(count_streams(c.merged), lower::inplace_shape(spec).passes());
      EXPECT_LT(max_abs_difference(to_dense(c.program.loops), dft), 1e-9);
      for (const Buffer &b : c.program.loops.buffers)
        EXPECT_NE(b.role, BufferRole::Temp) << b.name << ": a temporary of " << b.size << " elements";
    }
  }
}

TEST(InplaceLowering, ShapesAndPasses) {
  const lower::InplaceShape sq = lower::inplace_shape(parse::parse_formula("tiled(32)[DFT(16777216)]"));
  EXPECT_EQ(sq.m, 4096);
  EXPECT_EQ(sq.pair, 1);
  EXPECT_EQ(sq.passes(), 5);
  EXPECT_EQ(sq.row_chunk(), 32 * 4096);
  EXPECT_EQ(sq.tile_chunk(), 2 * 32 * 32);
  const lower::InplaceShape rect = lower::inplace_shape(parse::parse_formula("tiled(32)[DFT(8388608)]"));
  EXPECT_EQ(rect.m, 2048);
  EXPECT_EQ(rect.pair, 2);
  EXPECT_EQ(rect.passes(), 6);
  EXPECT_EQ(rect.tile_chunk(), 2 * 32 * 32 * 2);
}

TEST(InplaceLowering, PacketTableIndexFunction) {  // table(p; mu): packet i / mu at p[i / mu]
  const IndexFn f = fn_table({2, 0, 1}, 2);
  const std::vector<int64_t> want = {4, 5, 0, 1, 2, 3};
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(eval(f, i, {}), want[std::size_t(i)]) << i;
    EXPECT_EQ(eval(apply_index(f, idx_const(i)), {}), want[std::size_t(i)]) << "symbolic, at " << i;
    EXPECT_EQ(eval(*inverse(f), want[std::size_t(i)], {}), i) << "inverse, at " << i;
  }
  EXPECT_EQ(to_string(f), "perm(2,0,1; 2)");
  EXPECT_FALSE(same(f, fn_table({2, 0, 1})));
}

TEST(InplaceLowering, EntryPointsTakeOneBuffer) {
  driver::GenOptions o;
  o.io.in_place = true, o.name = "ip";
  const driver::Compilation c = driver::run_pipeline("tiled(2)[DFT(64)]", o);
  for (const std::string &want : {"void ip(double *__restrict xy)", "void ip_dma(double *__restrict xy, splgen::runtime::dma_engine *dma)",
                                  "void ip_stores(splgen::runtime::external_store &ext_xy, splgen::runtime::dma_engine *dma)",
                                  "NAME(xy) uses the thread DMA engine", "in place: 5 passes"}) {
    EXPECT_NE(c.source.find(want), std::string::npos) << want;
    if (want.rfind("void", 0) == 0) EXPECT_NE(c.header.find(want), std::string::npos) << "header: " << want;
  }
  EXPECT_EQ(c.source.find("ext_x,"), std::string::npos) << "no second store";
  EXPECT_EQ(driver::run_pipeline("tiled(2)[DFT(64)]", o).source, c.source) << "deterministic";
}

TEST(InplaceLowering, BenchColumns) {  // in place: FFTW_MEASURE out of place and in place
  measure::BenchOptions b;
  b.spec = "tiled(32)[DFT(4194304)]", b.in_place = true, b.isa = Isa::Avx2;
  std::vector<std::string> ids;
  for (const measure::Implementation &i : measure::bench_implementations(b)) ids.push_back(i.id + (i.in_place ? "+" : ""));
  EXPECT_EQ(ids, (std::vector<std::string>{"splgen_avx2+", "splgen_sync+", "fftw_measure", "fftw_measure_inplace+", "copy_floor"}));
}

void expect_error(const std::string &spec, driver::GenOptions o, const std::string &want) {
  o.io.in_place = true;
  try {
    driver::run_pipeline(spec, o);
    ADD_FAILURE() << spec << ": no error";
  } catch (const FormulaError &e) {
    std::string m = e.what();
    EXPECT_NE(m.find(want), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(InplaceLowering, BadParametersAreOneLineErrors) {
  driver::GenOptions o;
  expect_error("tiled(2)[DFT(48)]", o, "tiled(2)[DFT(48)] --in-place: n must be m^2 or 2 m^2");
  expect_error("tiled(2)[DFT(36)]", o, "tiled(2)[DFT(36)] --in-place: k must be at least 2 and divide m = 6 into an even");
  expect_error("tiled(5)[DFT(64)]", o, "tiled(5)[DFT(64)] --in-place: k must be at least 2 and divide m = 8");
  expect_error("tiled(8)[DFT(64)]", o, "divide m = 8 into an even number of tiles");
  expect_error("stream(4)[DFT(64)]", o, "--in-place and --format split with threads");
  driver::GenOptions small = o;
  small.local_memory = 100;
  expect_error("tiled(2)[DFT(64)]", small, "local memory of 100 bytes is too small");
  driver::GenOptions block = o;
  block.layout = lower::DataLayout::Block;
  expect_error("tiled(2)[DFT(64)]", block, "--in-place --layout block: the in-place large 1D DFT takes and returns the natural");
}

}  // namespace
}  // namespace splgen
