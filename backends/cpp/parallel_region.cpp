#include "backends/cpp/parallel_region.h"

#include <fmt/format.h>

namespace splgen::backends {

RegionText region_text(Threading threading, int workers, const std::string &indent, const std::string &attribute) {
  RegionText t;
  if (threading == Threading::OpenMP) {
    // Fewer threads than asked (a nested call, OMP_THREAD_LIMIT) still cover every
    // iteration: the blocks are computed from omp_get_num_threads().
    t.include = "#include <omp.h>\n";
    t.open = fmt::format(
        "{0}#pragma omp parallel num_threads({1})\n{0}{{\n"
        "{0}  const long worker = omp_get_thread_num(), workers = omp_get_num_threads();\n",
        indent, workers);
    t.barrier = "#pragma omp barrier";
    t.close = indent + "}\n";
  } else if (threading == Threading::Spmd) {  // `worker` is the kernel's parameter (docs/mpi.md)
    t.open = fmt::format("{0}{{\n{0}  const long workers = {1};\n", indent, workers);
    t.barrier = "";
    t.close = indent + "}\n";
  } else {
    t.include = "#include <splgen/runtime/thread_team.h>\n";
    t.open = fmt::format(
        "{0}splgen::runtime::ThreadTeam &team = splgen::runtime::thread_team({1});\n"
        "{0}team.run([&](long worker){2} {{\n"
        "{0}  const long workers = {1};\n",
        indent, workers, attribute.empty() ? "" : " " + attribute);
    t.barrier = "team.barrier();";
    t.close = indent + "});\n";
  }
  return t;
}

std::string block_begin(int64_t extent) { return fmt::format("{}L * worker / workers", extent); }
std::string block_end(int64_t extent) { return fmt::format("{}L * (worker + 1) / workers", extent); }

}  // namespace splgen::backends
