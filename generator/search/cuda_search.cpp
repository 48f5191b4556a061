#include "generator/search/cuda_search.h"

#include <algorithm>
#include <functional>
#include <set>

#include "generator/search/evaluate.h"

namespace splgen::search {

namespace {

// One knob the search varies: its values (the base's first) as setters on a variant.
using Setter = std::function<void(measure::CudaVariant &)>;
using Dimension = std::vector<Setter>;

// The knob `get` returns (a field of the variant) at each of `alternatives`, the base's value first.
template <class T, class Get>
Dimension dimension(const measure::CudaVariant &base, Get get, std::vector<T> alternatives) {
  measure::CudaVariant copy = base;
  const T first = get(copy);
  Dimension d = {[](measure::CudaVariant &) {}};
  for (const T &v : alternatives)
    if (v != first) d.push_back([get, v](measure::CudaVariant &x) { get(x) = v; });
  return d;
}

// The knobs the search varies around `base`: the codelet size (the radix), staging, direct
// stores, groups per block, threads per group, padding, computed twiddles, launch bounds; past
// one group's size also the four-step's factor, the grid-stride kernels' blocks and the column
// blocks of its second pass.
std::vector<Dimension> dimensions(const measure::CudaVariant &base, int64_t points) {
  std::vector<Dimension> d;
  d.push_back(dimension<int64_t>(base, [](measure::CudaVariant &v) -> int64_t & { return v.codelet_max; }, {0, 8, 16, 32}));
  d.push_back(dimension<GpuStaging>(base, [](measure::CudaVariant &v) -> GpuStaging & { return v.knobs.staging; },
                                    {GpuStaging::Warp, GpuStaging::Sector}));
  d.push_back(dimension<bool>(base, [](measure::CudaVariant &v) -> bool & { return v.knobs.direct_stores; }, {false, true}));
  d.push_back(dimension<int>(base, [](measure::CudaVariant &v) -> int & { return v.knobs.block_threads; }, {64, 128, 256}));
  d.push_back(dimension<int>(base, [](measure::CudaVariant &v) -> int & { return v.knobs.group_threads; }, {1024, 256}));
  d.push_back(dimension<bool>(base, [](measure::CudaVariant &v) -> bool & { return v.knobs.padding; }, {true, false}));
  d.push_back(dimension<int64_t>(base, [](measure::CudaVariant &v) -> int64_t & { return v.knobs.max_table; }, {4096, 0}));
  d.push_back(dimension<int>(base, [](measure::CudaVariant &v) -> int & { return v.knobs.min_blocks; }, {0, 2}));
  if (points > 1024) {
    d.push_back(dimension<int64_t>(base, [](measure::CudaVariant &v) -> int64_t & { return v.knobs.factor_max; }, {1024, 512, 256}));
    d.push_back(dimension<int>(base, [](measure::CudaVariant &v) -> int & { return v.knobs.grid_block_threads; }, {256, 128, 512}));
    d.push_back(dimension<int64_t>(base, [](measure::CudaVariant &v) -> int64_t & { return v.knobs.columns; }, {0, 1, 2, 4}));
  }
  return d;
}

// The variants that change `changes` of the dimensions (from the base's value), in order.
void with_changes(const measure::CudaVariant &base, const std::vector<Dimension> &dims, std::size_t from, int changes,
                  const std::function<void(const measure::CudaVariant &)> &take) {
  if (changes == 0) {
    take(base);
    return;
  }
  for (std::size_t i = from; i < dims.size(); ++i)
    for (std::size_t k = 1; k < dims[i].size(); ++k) {
      measure::CudaVariant v = base;
      dims[i][k](v);
      with_changes(v, dims, i + 1, changes - 1, take);
    }
}

}  // namespace

std::vector<measure::CudaVariant> cuda_candidates(const std::string &spec, const driver::GenOptions &gen, int limit) {
  const measure::CudaVariant base{gen.codelet_max, gen.gpu};
  driver::GenOptions one = gen;
  one.io.batch = 1;
  const int64_t points = driver::start(spec, one).spec->rows;
  const std::vector<Dimension> dims = dimensions(base, points);
  std::vector<measure::CudaVariant> out;
  std::set<std::string> sources;
  int tries = 0;  // variants that print an earlier one's kernel are common: generation is bounded too
  auto take = [&](const measure::CudaVariant &v) {
    if (int(out.size()) >= limit || tries >= 8 * limit) return;
    ++tries;
    driver::GenOptions g = gen;
    g.codelet_max = v.codelet_max, g.gpu = v.knobs, g.name = "splgen_candidate";
    std::string source = driver::run_pipeline(spec, g).source;
    source.erase(0, source.find("#include"));  // the header comment names the knobs
    if (sources.insert(source).second) out.push_back(v);
  };
  for (int changes = 0; changes <= int(dims.size()) && int(out.size()) < limit && tries < 8 * limit; ++changes)
    with_changes(base, dims, 0, changes, take);
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
