#include "generator/search/cuda_search.h"

#include <algorithm>
#include <set>

#include "generator/search/evaluate.h"

namespace splgen::search {

namespace {

// Every combination of the knobs the search varies, around `base`.
std::vector<measure::CudaVariant> knob_grid(const measure::CudaVariant &base, int64_t points) {
  std::vector<int64_t> codelets = {base.codelet_max};
  for (int64_t c : {int64_t(0), int64_t(8), int64_t(16), int64_t(32)})
    if (c != base.codelet_max) codelets.push_back(c);
  std::vector<int> blocks = {base.knobs.block_threads};
  for (int b : {64, 128, 256})
    if (b != base.knobs.block_threads) blocks.push_back(b);
  // The four-step's factor and the grid-stride kernels' blocks matter only past one group's size.
  std::vector<int64_t> factors = {base.knobs.factor_max};
  std::vector<int> grid_blocks = {base.knobs.grid_block_threads};
  if (points > 1024) {
    for (int64_t f : {int64_t(256), int64_t(512), int64_t(1024)})
      if (f != base.knobs.factor_max) factors.push_back(f);
    for (int g : {128, 512})
      if (g != base.knobs.grid_block_threads) grid_blocks.push_back(g);
  }
  std::vector<measure::CudaVariant> out;
  for (int64_t c : codelets)
    for (GpuStaging staging : {base.knobs.staging, base.knobs.staging == GpuStaging::Warp ? GpuStaging::Sector : GpuStaging::Warp})
      for (bool direct : {base.knobs.direct_stores, !base.knobs.direct_stores})
        for (int b : blocks)
          for (int64_t f : factors)
            for (int g : grid_blocks) {
              measure::CudaVariant v = base;
              v.codelet_max = c, v.knobs.staging = staging, v.knobs.direct_stores = direct;
              v.knobs.block_threads = b, v.knobs.factor_max = f, v.knobs.grid_block_threads = g;
              out.push_back(v);
            }
  return out;
}

int changed(const measure::CudaVariant &v, const measure::CudaVariant &base) {
  const GpuKnobs &a = v.knobs, &b = base.knobs;
  return (v.codelet_max != base.codelet_max) + (a.staging != b.staging) + (a.direct_stores != b.direct_stores) +
         (a.block_threads != b.block_threads) + (a.factor_max != b.factor_max) + (a.grid_block_threads != b.grid_block_threads);
}

}  // namespace

std::vector<measure::CudaVariant> cuda_candidates(const std::string &spec, const driver::GenOptions &gen, int limit) {
  const measure::CudaVariant base{gen.codelet_max, gen.gpu};
  driver::GenOptions one = gen;
  one.io.batch = 1;
  const int64_t points = driver::start(spec, one).spec->rows;
  std::vector<measure::CudaVariant> grid = knob_grid(base, points);
  std::stable_sort(grid.begin(), grid.end(),
                   [&](const auto &x, const auto &y) { return changed(x, base) < changed(y, base); });
  std::vector<measure::CudaVariant> out;
  std::set<std::string> sources;
  for (const measure::CudaVariant &v : grid) {
    if (int(out.size()) >= limit) break;
    driver::GenOptions g = gen;
    g.codelet_max = v.codelet_max, g.gpu = v.knobs, g.name = "splgen_candidate";
    std::string source = driver::run_pipeline(spec, g).source;
    source.erase(0, source.find("#include"));  // the header comment names the knobs
    if (sources.insert(source).second) out.push_back(v);
  }
  return out;
}

std::optional<std::size_t> best_cuda_row(const std::vector<measure::CudaBenchRow> &rows, Precision precision) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const measure::CudaBenchRow &r = rows[i];
    if (!r.failure.empty() || !(r.splgen_ns > 0) || !(r.error <= error_tolerance(precision))) continue;
    if (!best || r.cufft_ns / r.splgen_ns > rows[*best].cufft_ns / rows[*best].splgen_ns) best = i;
  }
  return best;
}

CudaSearchResult run_cuda_search(const std::string &spec, const driver::GenOptions &gen, measure::CudaBenchOptions bench,
                                 int limit, const std::function<void(const std::string &)> &progress) {
  bench.specs = {spec};
  bench.precision = gen.precision, bench.inverse = gen.inverse;
  driver::GenOptions g = gen;
  g.io.batch = 1;
  if (bench.batch == 0) bench.batch = measure::auto_batch(driver::start(spec, g).spec->rows, gen.precision);
  g.io.batch = bench.batch;
  bench.variants = cuda_candidates(spec, g, limit);
  CudaSearchResult r;
  r.bench = measure::run_cuda_bench(bench, progress);
  r.best = best_cuda_row(r.bench.rows, gen.precision);
  return r;
}

}  // namespace splgen::search
