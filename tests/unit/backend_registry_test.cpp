// The backend interface (backends/backend.h): a backend written and registered here, in one
// file, is picked by the driver through GenOptions::target without any edit of the driver.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backends/registry.h"
#include "generator/driver/pipeline.h"
#include "generator/ir/spl.h"

namespace splgen::backends {
namespace {

// Prints one line per loop-IR statement kind it meets: enough to show it got the program.
class ToyBackend final : public Backend {
 public:
  std::string name() const override { return "toy"; }
  std::string summary() const override { return "a test backend"; }
  bool accepts(Isa isa, Precision) const override { return isa == Isa::Scalar; }
  std::vector<TagKind> consumed_tags() const override { return {}; }
  std::string emit(const LoopProgram &p, const EmitOptions &o) const override {
    return "toy kernel " + p.name() + " " + std::to_string(p.loops.rows) + "x" + std::to_string(p.loops.cols) +
           (p.codelet ? " codelet" : " loops") + " (" + std::to_string(o.header_lines.size()) + " header lines)\n";
  }
  std::string emit_header(const LoopProgram &p, const EmitOptions &) const override { return "toy " + p.name() + "\n"; }
};

void register_toy_once() {
  static const bool done = (register_backend(std::make_unique<ToyBackend>()), true);
  (void)done;
}

TEST(BackendRegistry, AToyBackendIsPickedByTarget) {
  register_toy_once();
  driver::GenOptions o;
  o.target = "toy";
  driver::Compilation c = driver::run_pipeline("DFT(64)", o);
  EXPECT_EQ(c.source, "toy kernel splgen_dft64 64x64 loops (3 header lines)\n");
  EXPECT_EQ(c.header, "toy splgen_dft64\n");
  // The same spec through the built-in backend is still C++.
  driver::Compilation cpp = driver::run_pipeline("DFT(64)", driver::GenOptions{});
  EXPECT_NE(cpp.source.find("void splgen_dft64("), std::string::npos);
}

TEST(BackendRegistry, ABackendWithoutComplexCodeletsGetsLoops) {
  register_toy_once();
  driver::GenOptions o;
  o.target = "toy";
  o.isa = Isa::Scalar;
  driver::Compilation c = driver::run_pipeline("DFT(8)", o);
  EXPECT_FALSE(c.program.codelet);
  o.target = "cpp";
  o.isa = Isa::Avx2;
  EXPECT_TRUE(driver::run_pipeline("DFT(8)", o).program.codelet);  // the C++ backend prints them
}

TEST(BackendRegistry, RefusesWhatItDoesNotAccept) {
  register_toy_once();
  driver::GenOptions o;
  o.target = "toy";
  o.isa = Isa::Avx2;
  EXPECT_THROW(driver::run_pipeline("DFT(8)", o), FormulaError);
  o.target = "no-such-backend";
  try {
    driver::start("DFT(8)", o);
    FAIL() << "an unknown target was accepted";
  } catch (const FormulaError &e) {
    EXPECT_STREQ(e.what(), "unknown target 'no-such-backend' (one of: cpp, cuda, mpi, toy)");  // sorted
  }
}

TEST(BackendRegistry, ANameRegisteredTwiceIsRefused) {
  register_toy_once();
  EXPECT_THROW(register_backend(std::make_unique<ToyBackend>()), std::invalid_argument);
  ASSERT_NE(find_backend("toy"), nullptr);
  EXPECT_EQ(find_backend("toy")->summary(), "a test backend");
}

}  // namespace
}  // namespace splgen::backends
