#include "generator/driver/io_layout.h"

#include <fmt/format.h>

#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/driver/threads.h"
#include "generator/ir/index_fn.h"
#include "generator/ir/print.h"

namespace splgen::driver {

namespace {

struct Side {
  int64_t n, stride, dist;  // one transform's elements; where they lie
};

Side input_side(const Spl &one, const IoLayoutOptions &io) { return {one->cols, io.istride, io.idist.value_or(one->cols * io.istride)}; }
Side output_side(const Spl &one, const IoLayoutOptions &io) { return {one->rows, io.ostride, io.odist.value_or(one->rows * io.ostride)}; }

// Whether b*dist + j*stride (b < batch, j < n) are distinct: at once for disjoint or evenly
// interleaved blocks, else by marking every position (up to 2^28 of them).
bool distinct_positions(int64_t batch, const Side &s) {
  if (batch == 1 || s.dist >= (s.n - 1) * s.stride + 1) return true;
  if (s.dist >= 1 && s.stride >= (batch - 1) * s.dist + 1) return true;
  const int64_t range = (batch - 1) * s.dist + (s.n - 1) * s.stride + 1;
  if (range > (int64_t(1) << 28))
    throw FormulaError(fmt::format("the output layout (ostride {}, odist {}) spans {} elements: too many to check "
                                   "that no two outputs share one", s.stride, s.dist, range));
  std::vector<bool> seen(std::size_t(range), false);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = 0; j < s.n; ++j) {
      auto at = std::size_t(b * s.dist + j * s.stride);
      if (seen[at]) return false;
      seen[at] = true;
    }
  return true;
}

bool any_tag(const Spl &f) {
  for (TagKind k : {TagKind::Vec, TagKind::Smp, TagKind::Par, TagKind::Stream, TagKind::Tiled, TagKind::Cubic})
    if (has_tag(f, k)) return true;
  return false;
}

std::string side_text(const char *name, const Side &s, bool batched) {
  auto term = [](int64_t c, const char *v) { return c == 1 ? std::string(v) : fmt::format("{}*{}", c, v); };
  if (!batched) return fmt::format("{}[{}]", name, term(s.stride, "j"));
  return fmt::format("{}[{} + {}]", name, term(s.dist, "b"), term(s.stride, "j"));
}

}  // namespace

Spl batched_spec(const Spl &spec, const IoLayoutOptions &io) {
  return io.batch > 1 ? tensor(make_identity(io.batch), spec) : spec;
}

Spl one_transform(const Spl &batched, const IoLayoutOptions &io) {
  if (io.batch > 1 && batched->kind == SplKind::Tensor && batched->children.size() == 2) return batched->children[1];
  return batched;
}

std::vector<int> batch_vector_widths(const Spl &spec, const GenOptions &options) {
  const std::vector<int> widths = allowed_vector_widths(options);
  if (widths.empty() || spec->kind != SplKind::Tensor || spec->children.size() != 2 || !is_identity(spec->children[0]))
    return {};
  const int64_t b = spec->children[0]->a, nu = widths.front();
  const Spl &a = spec->children[1];
  const IoLayoutOptions &io = options.io;
  if (b < nu || reads_real(a) || writes_real(a) || a->rows != a->cols || io.split || options.threads > 1 ||
      options.ranks > 1 || options.target != "cpp" || options.stream || options.layout != lower::DataLayout::Natural ||
      any_tag(a))
    return {};
  const Side in = input_side(a, io), out = output_side(a, io);
  const bool interleaved = in.dist < in.stride || out.dist < out.stride;
  const int64_t bytes = 2 * b * a->rows * (options.precision == Precision::Float ? 8 : 16);  // x and y
  const bool codelet = a->kind == SplKind::DFT && is_codelet_size(a->a) && bytes <= kAcrossBatchMaxBytes;
  if (codelet || (interleaved && a->rows * nu <= kAcrossBatchMaxInterleaved)) return widths;
  return {};
}

void check_io_layout(const Spl &spec, const GenOptions &options) {
  const IoLayoutOptions &io = options.io;
  if (io.batch < 1) throw FormulaError(fmt::format("--batch {}: the number of transforms must be at least 1", io.batch));
  if (io.istride < 1 || io.ostride < 1)
    throw FormulaError(fmt::format("--istride {} --ostride {}: strides must be at least 1", io.istride, io.ostride));
  if (io.idist.value_or(0) < 0 || io.odist.value_or(0) < 0)
    throw FormulaError(fmt::format("--idist {} --odist {}: distances must not be negative", io.idist.value_or(0),
                                   io.odist.value_or(0)));
  if (io.plain()) return;
  const bool tiled_1d = spec->kind == SplKind::Tagged && spec->tag.kind == TagKind::Tiled &&
                        spec->children.front()->kind == SplKind::DFT;
  if (tiled_1d && io.in_place && io.batch == 1 && !io.strided() && !io.split && options.threads == 1 &&
      options.ranks == 1 && options.target == "cpp" && !options.stream)
    return;  // the large 1D DFT in place (lower/inplace_passes.h)
  if (options.threads > 1 || options.ranks > 1 || options.target != "cpp" || options.stream ||
      options.layout != lower::DataLayout::Natural || any_tag(spec))
    throw FormulaError("--batch, strides, --in-place and --format split with threads, ranks, a target other than cpp, "
                       "streamed loops, tags or block layouts are not built yet (docs/transforms.md, \"Layouts\")");
  const Side in = input_side(spec, io), out = output_side(spec, io);
  if (!distinct_positions(io.batch, out))
    throw FormulaError(fmt::format("--ostride {} --odist {}: two outputs of the {} x {} elements fall on one element",
                                   out.stride, out.dist, io.batch, out.n));
  if (io.split && (reads_real(spec) || writes_real(spec)))
    throw FormulaError("--format split: the spec has a real side (split format is for complex data)");
  if (io.in_place) {
    if (spec->rows != spec->cols || reads_real(spec) != writes_real(spec))
      throw FormulaError(fmt::format("--in-place: {} reads {} and writes {} elements of different kinds or counts "
                                     "(FFTW's padded in-place r2c/c2r layout is not built yet)",
                                     print(spec), spec->cols, spec->rows));
    if (in.stride != out.stride || in.dist != out.dist)
      throw FormulaError(fmt::format("--in-place: input and output layouts must be the same (istride {} ostride {}, "
                                     "idist {} odist {})", in.stride, out.stride, in.dist, out.dist));
  }
}

lower::IoLayout io_layout_functions(const Spl &batched, const IoLayoutOptions &io) {
  lower::IoLayout l;
  l.in_place = io.in_place;
  l.split = io.split;
  const Spl one = one_transform(batched, io);
  const Side in = input_side(one, io), out = output_side(one, io);
  if (io.batch > 1 || io.strided()) {
    l.x = fn_layout(io.batch, in.n, in.stride, in.dist);
    l.y = fn_layout(io.batch, out.n, out.stride, out.dist);
  }
  return l;
}

std::string describe_io_layout(const Spl &batched, const IoLayoutOptions &io) {
  const Spl one = one_transform(batched, io);
  auto kind = [&](bool real) { return real ? "reals" : io.split ? "split complex (re, im arrays)" : "interleaved complex"; };
  const Side in = input_side(one, io), out = output_side(one, io);
  std::string where;
  if (io.batch > 1 || io.strided())
    where = fmt::format("{}{} (j < {}{}), ", io.batch > 1 ? fmt::format("batch {}: ", io.batch) : "",
                        io.in_place ? side_text("xy", out, io.batch > 1)
                                    : side_text("y", out, io.batch > 1) + ", " + side_text("x", in, io.batch > 1),
                        out.n, in.n != out.n ? fmt::format(" out, {} in", in.n) : "");
  std::string kinds = reads_real(one) == writes_real(one) ? kind(reads_real(one))
                                                          : fmt::format("y: {}, x: {}", kind(writes_real(one)), kind(reads_real(one)));
  return fmt::format("{}{}, {}", where, kinds, io.in_place ? "in-place" : "out-of-place");
}

}  // namespace splgen::driver
