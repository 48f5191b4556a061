// A searched plan: the ruletree the search chose, as a formula that driver::GenOptions::plan
// uses in place of the default expansion (wisdom files hold it as text that `splgen expand`
// reads), with the target parameters searched alongside it (the vector width; with --threads,
// mu of the smp tag) and a short description for people.
#pragma once
#include <string>

#include "generator/ir/spl.h"
#include "generator/driver/pipeline.h"

namespace splgen::search {

struct Plan {
  Spl formula;             // fully expanded: DFT leaves are codelets ("(DFT(32) (x) I(32)) * T(1024,32) * ...")
  int vector_width = 0;    // widest vector used; 0: the ISA's widest
  int smp_packet = 0;      // with --threads: mu of smp(threads, mu); 0: one cache line
  std::string tree;        // "dit(32,32)", "dif(4,dit(8,32))", "16": the ruletree in short
  bool is_default = false; // the generator's default expansion (no search)
  // GPU kernels: the codelet size and knobs (measure::CudaVariant's label, "codelet=16,block=..."),
  // which with_plan gives the options; the formula is then the spec (the expansion is gen's).
  std::string gpu;
};

// The driver::GenOptions that generate the plan's kernel.
driver::GenOptions with_plan(driver::GenOptions options, const Plan &plan);

// The default plan of a spec for a target: the expansion `splgen gen` makes without a plan
// (the driver's stages up to Expand).
Plan default_plan(const std::string &spec_text, const driver::GenOptions &options);

// Why PLAN does not compute SPEC (empty when it does), proved as the search proves its
// candidates (evaluate.h, KernelCheck: FFTW3's output for a random input) but without a
// compiler: the plan is lowered with OPTIONS, as `gen` would lower it, and its loop program is
// interpreted. For plans that do not come from this process's search: wisdom files.
std::string plan_mismatch(const Spl &spec, const Plan &plan, const driver::GenOptions &options);

// "w=2", "mu=8", "w=2 mu=8", "": the target parameters that are not the defaults, in short.
std::string describe_target(int vector_width, int smp_packet);

}  // namespace splgen::search
