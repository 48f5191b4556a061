#include "generator/driver/io_layout.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/driver/threads.h"
#include "generator/ir/index_fn.h"
#include "generator/ir/print.h"

namespace splgen::driver {

namespace {

using Side = IoSide;

// A real transform in place: x and y are two views of one buffer.
bool real_in_place(const Spl &one, const IoLayoutOptions &io) { return io.in_place && reads_real(one) != writes_real(one); }

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

// The dimensions of one side of a transform, row-major: DFT(a x b)'s, a real transform's (the
// complex side of RDFT/IRDFT(a x b) is a x (b/2+1), FFTW's r2c/c2r), else {its size}.
std::vector<int64_t> side_dims(const Spl &one, int64_t n, bool real) {
  if (one->kind == SplKind::DFTnd) return one->perm;
  if (one->kind != SplKind::RealTransform) return {n};
  std::vector<int64_t> dims = real_transform_dims(one);
  if (!real) dims.back() = dims.back() / 2 + 1;
  return product(dims) == n ? dims : std::vector<int64_t>{n};
}

Side dense_or_embedded(const Spl &one, const IoLayoutOptions &io, bool input) {
  const bool real = input ? reads_real(one) : writes_real(one);
  const int64_t n = input ? one->cols : one->rows, stride = input ? io.istride : io.ostride;
  const std::optional<int64_t> dist = input ? io.idist : io.odist;
  const std::vector<int64_t> &embed = input ? io.inembed : io.onembed;
  if (!embed.empty())  // refused for real transforms in place (check_io_layout); side() sets the dims
    return {n, stride, dist.value_or(product(embed) * stride), real, {}, embed};
  if (dist || !real_in_place(one, io)) return {n, stride, dist.value_or(n * stride), real};
  // FFTW's padded in-place layout: each transform in 2 D reals, D complex numbers.
  const std::optional<int64_t> other = input ? io.odist : io.idist;
  const int64_t cn = real ? (input ? one->rows : one->cols) : n, cs = real ? (input ? io.ostride : io.istride) : stride;
  const int64_t rn = real ? n : (input ? one->rows : one->cols), rs = real ? stride : (input ? io.ostride : io.istride);
  const int64_t complex_dist = other && real ? *other : other ? (*other + 1) / 2 : std::max(cn * cs, (rn * rs + 1) / 2);
  return {n, stride, real ? 2 * complex_dist : complex_dist, real};
}

Side side(const Spl &one, const IoLayoutOptions &io, bool input) {
  Side s = dense_or_embedded(one, io, input);
  s.dims = side_dims(one, s.n, s.real);
  return s;
}

Side input_side(const Spl &one, const IoLayoutOptions &io) { return side(one, io, true); }
Side output_side(const Spl &one, const IoLayoutOptions &io) { return side(one, io, false); }

// The reals of the buffer one side of transform b covers, appended to `at`.
void side_reals(const Side &s, int64_t b, std::vector<int64_t> &at) {
  for (int64_t j = 0; j < s.n; ++j) {
    const int64_t e = b * s.dist + s.at(j);
    if (s.real) at.push_back(e);
    else at.push_back(2 * e), at.push_back(2 * e + 1);
  }
}

// A real transform in place: every transform reads and writes reals no other transform
// touches (FFTW's in-place r2c layout gives each its own idist = 2 odist reals), so the
// kernel may run them one after another. The index of the first transform that shares one.
std::optional<int64_t> shared_real(int64_t batch, const Side &in, const Side &out) {
  const Side &r = in.real ? in : out, &c = in.real ? out : in;
  if (batch == 1) return std::nullopt;
  if (r.dist == 2 * c.dist && (r.n - 1) * r.stride + 1 <= r.dist && 2 * ((c.n - 1) * c.stride + 1) <= r.dist)
    return std::nullopt;
  const int64_t range = std::max((batch - 1) * r.dist + (r.n - 1) * r.stride + 1, 2 * ((batch - 1) * c.dist + (c.n - 1) * c.stride + 1));
  if (range > (int64_t(1) << 28))
    throw FormulaError(fmt::format("--in-place: the layout spans {} reals: too many to check that no two transforms share one", range));
  std::vector<int64_t> owner(std::size_t(range), -1);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<int64_t> at;
    side_reals(r, b, at);
    side_reals(c, b, at);
    for (int64_t p : at) {
      if (owner[std::size_t(p)] >= 0 && owner[std::size_t(p)] != b) return b;
      owner[std::size_t(p)] = b;
    }
  }
  return std::nullopt;
}

// The packed layout of a real side (m complex per transform over its 2m reals), when its
// reals are consecutive and every transform starts at an even real.
IndexFn packed_side(int64_t batch, const Side &s) {
  if (!s.real || s.n % 2 || s.stride != 1 || (batch > 1 && s.dist % 2) || s.embed.size() > 1) return nullptr;
  return fn_layout(batch, s.n / 2, 1, batch > 1 ? s.dist / 2 : s.n / 2);
}

// Whether b*dist + j*stride (b < batch, j < n) are distinct: at once for disjoint or evenly
// interleaved blocks, else by marking every position (up to 2^28 of them).
bool distinct_positions(int64_t batch, const Side &s) {
  if (batch == 1 || s.dist >= s.extent()) return true;  // an embedding's positions are distinct (checked)
  if (s.dist >= 1 && s.stride >= (batch - 1) * s.dist + 1) return true;
  const int64_t range = (batch - 1) * s.dist + s.extent();
  if (range > (int64_t(1) << 28))
    throw FormulaError(fmt::format("the output layout (ostride {}, odist {}) spans {} elements: too many to check "
                                   "that no two outputs share one", s.stride, s.dist, range));
  std::vector<bool> seen(std::size_t(range), false);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = 0; j < s.n; ++j) {
      auto at = std::size_t(b * s.dist + s.at(j));
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

// "j", or with an embedding "(50*j1 + j2)" (j = j1*48 + j2 the row-major index).
std::string element_text(const Side &s) {
  if (s.embed.empty()) return "j";
  std::string sum;
  for (std::size_t k = 0; k < s.dims.size(); ++k) {
    const int64_t pitch = product(std::vector<int64_t>(s.embed.begin() + std::ptrdiff_t(k) + 1, s.embed.end()));
    sum += fmt::format("{}{}j{}", k ? " + " : "", pitch == 1 ? "" : fmt::format("{}*", pitch), k + 1);
  }
  return s.dims.size() == 1 ? "j" : "(" + sum + ")";
}

std::string side_text(const char *name, const Side &s, bool batched) {
  const std::string j = element_text(s);
  auto term = [](int64_t c, const std::string &v) { return c == 1 ? v : fmt::format("{}*{}", c, v); };
  if (!batched) return fmt::format("{}[{}]", name, term(s.stride, j));
  return fmt::format("{}[{} + {}]", name, term(s.dist, "b"), term(s.stride, j));
}

// "j = j1*48 + j2": the digits of a side's row-major index that element_text names.
std::string digits_text(const std::vector<int64_t> &dims) {
  std::string j;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const int64_t pitch = product(std::vector<int64_t>(dims.begin() + std::ptrdiff_t(k) + 1, dims.end()));
    j += fmt::format("{}j{}{}", k ? " + " : "", k + 1, pitch == 1 ? "" : fmt::format("*{}", pitch));
  }
  return "j = " + j;
}

// "; y in 70 x 48, x in 64 x 50, j = j1*48 + j2": the embedding arrays and the digits of j
// (each side's where a real transform's sides differ); empty without embeddings.
std::string embed_text(const Side &in, const Side &out, bool in_place) {
  if (in.embed.empty() && out.embed.empty()) return "";
  auto array = [](const char *name, const Side &s) {
    return fmt::format("{} in {}", name, fmt::join(s.embed.empty() ? s.dims : s.embed, " x "));
  };
  std::string text = "; " + (in_place ? array("xy", out) : array("y", out) + ", " + array("x", in));
  if (out.dims.size() == 1) return text;
  if (in.dims == out.dims) return text + ", " + digits_text(out.dims);
  return text + ", y's " + digits_text(out.dims) + ", x's " + digits_text(in.dims);
}

// The index function of a side with an embedding: dimension k's rows (of n_k P elements, P
// the embedding's elements below k) put e_k P apart, from the last dimension to the second,
// then the batch's transforms dist apart and every element stride apart. A composition of
// v() layouts that compose() reduces to h() for the loops' row and column accesses.
IndexFn embedded_fn(int64_t batch, const Side &s) {
  const std::size_t d = s.dims.size();
  int64_t rows = batch * s.n, pitch = 1;  // rows: blocks of dimension k and below, over the batch
  IndexFn f;
  for (std::size_t k = d; k-- > 1;) {
    rows /= s.dims[k];
    IndexFn g = fn_layout(rows, s.dims[k] * pitch, 1, s.embed[k] * pitch);
    pitch *= s.embed[k];
    IndexFnNode wide = *g;  // into the whole of the rows' pitched blocks, the next step's domain
    wide.range = rows * pitch;
    g = std::make_shared<const IndexFnNode>(std::move(wide));
    f = f ? compose(g, f) : g;
  }
  IndexFn outer = fn_layout(batch, s.dims[0] * pitch, s.stride, s.dist);
  return f ? compose(outer, f) : outer;
}

IndexFn side_fn(int64_t batch, const Side &s) {
  if (s.embed.empty() || s.dims.size() == 1) return fn_layout(batch, s.n, s.stride, s.dist);
  return embedded_fn(batch, s);
}

// FormulaError (one line) for an embedding `name` that side `s` cannot live in.
void check_embed(const char *name, const Side &s) {
  if (s.embed.empty()) return;
  if (s.embed.size() != s.dims.size())
    throw FormulaError(fmt::format("--{} {}: the transform has {} dimension{} ({}), the embedding {}", name,
                                   fmt::join(s.embed, "x"), s.dims.size(), s.dims.size() == 1 ? "" : "s",
                                   fmt::join(s.dims, " x "), s.embed.size()));
  for (std::size_t k = 0; k < s.dims.size(); ++k)
    if (s.embed[k] < s.dims[k])
      throw FormulaError(fmt::format("--{} {}: dimension {} of the embedding ({}) is smaller than the transform's ({})",
                                     name, fmt::join(s.embed, "x"), k + 1, s.embed[k], s.dims[k]));
}

}  // namespace

int64_t IoSide::at(int64_t j) const {
  if (embed.empty()) return j * stride;
  int64_t pos = 0, pitch = 1;
  for (std::size_t k = dims.size(); k-- > 0;) {
    pos += j % dims[k] * pitch;
    j /= dims[k], pitch *= embed[k];
  }
  return pos * stride;
}

std::vector<int64_t> parse_embed(const std::string &text) {
  std::vector<int64_t> dims;
  std::string digits;
  auto bad = [&] { return FormulaError(fmt::format("'{}': expected dimensions like \"64 x 50\"", text)); };
  auto flush = [&] {
    if (digits.empty() || digits.size() > 12) throw bad();
    dims.push_back(std::stoll(digits));
    if (dims.back() < 1) throw FormulaError(fmt::format("'{}': dimensions must be at least 1", text));
    digits.clear();
  };
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
    else if (c == 'x' || c == 'X' || c == '*') flush();
    else if (c != ' ') throw bad();
  }
  flush();
  int64_t elements = 1;  // a bound that keeps every position (times a stride) inside int64
  for (int64_t d : dims) {
    if (d > (int64_t(1) << 40) / elements)
      throw FormulaError(fmt::format("'{}': more than 2^40 elements", text));
    elements *= d;
  }
  return dims;
}

Spl batched_spec(const Spl &spec, const IoLayoutOptions &io) {
  return io.batch > 1 ? tensor(make_identity(io.batch), spec) : spec;
}

IoSide io_input_side(const Spl &one, const IoLayoutOptions &io) { return input_side(one, io); }
IoSide io_output_side(const Spl &one, const IoLayoutOptions &io) { return output_side(one, io); }

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
  const bool embedded = !io.inembed.empty() || !io.onembed.empty();
  if (embedded && io.in_place && (reads_real(spec) || writes_real(spec)))
    throw FormulaError(fmt::format("--inembed/--onembed with a real transform in place ({}) are not built yet "
                                   "(docs/transforms.md, \"Layouts\")", print(spec)));
  if (embedded && options.target == "cuda")
    throw FormulaError("--inembed/--onembed with --target cuda are not built yet (docs/transforms.md, \"Layouts\")");
  const bool tiled_1d = spec->kind == SplKind::Tagged && spec->tag.kind == TagKind::Tiled &&
                        spec->children.front()->kind == SplKind::DFT;
  if (tiled_1d && io.in_place && io.batch == 1 && !io.strided() && !io.split && options.threads == 1 &&
      options.ranks == 1 && options.target == "cpp" && !options.stream)
    return;  // the large 1D DFT in place (lower/inplace_passes.h)
  // cuda: batches and strides (its lowering refuses in place and split, gpu_kernels.h)
  if (options.threads > 1 || options.ranks > 1 || (options.target != "cpp" && options.target != "cuda") || options.stream ||
      options.layout != lower::DataLayout::Natural || any_tag(spec))
    throw FormulaError("--batch, strides, --in-place and --format split with threads, ranks, a target other than cpp or cuda, "
                       "streamed loops, tags or block layouts are not built yet (docs/transforms.md, \"Layouts\")");
  const Side in = input_side(spec, io), out = output_side(spec, io);
  check_embed("inembed", in);
  check_embed("onembed", out);
  if (!distinct_positions(io.batch, out))
    throw FormulaError(fmt::format("--ostride {} --odist {}: two outputs of the {} x {} elements fall on one element",
                                   out.stride, out.dist, io.batch, out.n));
  if ((io.in_place || io.split) && reads_real(spec) != writes_real(spec) && spec->kind == SplKind::RealTransform &&
      !spec->perm.empty())
    throw FormulaError(fmt::format("--in-place and --format split with a multi-dimensional real DFT ({}) are not built "
                                   "yet (docs/transforms.md, \"Layouts\")", print(spec)));
  if (io.split && reads_real(spec) && writes_real(spec))
    throw FormulaError(fmt::format("--format split: {} has no complex side (split format is for complex data)", print(spec)));
  if (io.split && io.in_place && (reads_real(spec) || writes_real(spec)))
    throw FormulaError(fmt::format("--format split --in-place: {} has a real side; split real transforms are out of place "
                                   "(as FFTW's plan_guru_split_dft_r2c / _c2r)", print(spec)));
  if (real_in_place(spec, io)) {
    if (spec->kind != SplKind::RealTransform)
      throw FormulaError(fmt::format("--in-place: {} reads {} and writes {} elements of different kinds", print(spec),
                                     spec->cols, spec->rows));
    if (std::optional<int64_t> b = shared_real(io.batch, in, out))
      throw FormulaError(fmt::format("--in-place: transform {} shares reals of the buffer with an earlier one (istride {} "
                                     "idist {}, ostride {} odist {}; FFTW's in-place layout gives each transform its own "
                                     "idist = 2 odist reals)", *b, in.stride, in.dist, out.stride, out.dist));
  } else if (io.in_place) {
    if (spec->rows != spec->cols || reads_real(spec) != writes_real(spec))
      throw FormulaError(fmt::format("--in-place: {} reads {} and writes {} elements of different kinds or counts "
                                     "(FFTW's padded in-place r2c/c2r layout is not built yet)",
                                     print(spec), spec->cols, spec->rows));
    if (in.stride != out.stride || in.dist != out.dist)
      throw FormulaError(fmt::format("--in-place: input and output layouts must be the same (istride {} ostride {}, "
                                     "idist {} odist {})", in.stride, out.stride, in.dist, out.dist));
    if (in.embed != out.embed)
      throw FormulaError(fmt::format("--in-place: input and output layouts must be the same (--inembed {}, --onembed {})",
                                       in.embed.empty() ? "dense" : fmt::format("{}", fmt::join(in.embed, "x")),
                                       out.embed.empty() ? "dense" : fmt::format("{}", fmt::join(out.embed, "x"))));
  }
}

lower::IoLayout io_layout_functions(const Spl &batched, const IoLayoutOptions &io) {
  lower::IoLayout l;
  l.in_place = io.in_place;
  l.split = io.split;
  const Spl one = one_transform(batched, io);
  const Side in = input_side(one, io), out = output_side(one, io);
  if (io.batch > 1 || io.strided() || real_in_place(one, io)) {
    l.x = side_fn(io.batch, in);
    l.y = side_fn(io.batch, out);
    l.x_packed = packed_side(io.batch, in);
    l.y_packed = packed_side(io.batch, out);
  }
  return l;
}

std::string describe_io_layout(const Spl &batched, const IoLayoutOptions &io) {
  const Spl one = one_transform(batched, io);
  auto kind = [&](bool real) { return real ? "reals" : io.split ? "split complex (re, im arrays)" : "interleaved complex"; };
  const Side in = input_side(one, io), out = output_side(one, io);
  std::string where;
  if (real_in_place(one, io))  // both views of the one buffer, each in its own units
    where = fmt::format("{}y = xy{}, x = xy{} (j < {} out, {} in; y in {}, x in {}), ",
                        io.batch > 1 ? fmt::format("batch {}: ", io.batch) : "", side_text("", out, io.batch > 1),
                        side_text("", in, io.batch > 1), out.n, in.n, out.real ? "reals" : "complex numbers",
                        in.real ? "reals" : "complex numbers");
  else if (io.batch > 1 || io.strided())
    where = fmt::format("{}{} (j < {}{}), ", io.batch > 1 ? fmt::format("batch {}: ", io.batch) : "",
                        io.in_place ? side_text("xy", out, io.batch > 1)
                                    : side_text("y", out, io.batch > 1) + ", " + side_text("x", in, io.batch > 1),
                        out.n, (in.n != out.n ? fmt::format(" out, {} in", in.n) : "") +
                                   embed_text(in, out, io.in_place));
  std::string kinds = reads_real(one) == writes_real(one) ? kind(reads_real(one))
                                                          : fmt::format("y: {}, x: {}", kind(writes_real(one)), kind(reads_real(one)));
  return fmt::format("{}{}, {}", where, kinds, io.in_place ? "in-place" : "out-of-place");
}

}  // namespace splgen::driver
