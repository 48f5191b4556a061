#include "generator/search/wisdom.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>

#include "generator/ir/print.h"
#include "generator/measure/compile.h"
#include "generator/measure/machine.h"
#include "generator/parse/formula_parser.h"
#include "generator/support/json.h"

#ifndef SPLGEN_VERSION
#define SPLGEN_VERSION "0"
#endif

namespace splgen::search {

using support::Json;
using support::JsonError;
using support::parse_json;

namespace {

constexpr const char *kFormat = "splgen-wisdom";
constexpr int kVersion = 1;

int64_t spec_size(const std::string &spec) {
  try {
    return parse::parse_formula(spec)->rows;
  } catch (const std::exception &) {
    return 0;
  }
}

std::string key_text(const WisdomKey &k) {
  return k.spec + "\n" + k.isa + "\n" + k.precision + "\n" + k.direction + "\n" + k.compiler + "\n" + k.cpu + "\n" +
         std::to_string(k.threads);
}

bool key_less(const WisdomKey &a, const WisdomKey &b) {
  int64_t na = spec_size(a.spec), nb = spec_size(b.spec);
  if (na != nb) return na < nb;
  return key_text(a) < key_text(b);
}

}  // namespace

const WisdomEntry *Wisdom::find(const WisdomKey &key) const {
  for (const WisdomEntry &e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

void Wisdom::merge(const WisdomEntry &entry) {
  for (WisdomEntry &e : entries) {
    if (!(e.key == entry.key)) continue;
    if (e.ns <= 0 || (entry.ns > 0 && entry.ns <= e.ns) || (entry.ns <= 0 && e.ns <= 0)) e = entry;
    return;
  }
  entries.push_back(entry);
  std::stable_sort(entries.begin(), entries.end(), [](const WisdomEntry &a, const WisdomEntry &b) { return key_less(a.key, b.key); });
}

void Wisdom::merge(const Wisdom &other) {
  for (const WisdomEntry &e : other.entries) merge(e);
}

WisdomKey wisdom_key(const std::string &spec_text, const driver::GenOptions &options, const std::string &compiler) {
  Spl spec = parse::parse_formula(spec_text);
  if (options.inverse) {
    if (spec->kind != SplKind::DFT) throw FormulaError("--inverse needs a DFT(n) or DFT(n,k) spec");
    spec = make_dft(spec->a, -spec->b);
  }
  WisdomKey k;
  k.spec = print(spec);
  k.isa = isa_name(options.isa);
  k.precision = options.precision == Precision::Float ? "float" : "double";
  bool inverse = spec->kind == SplKind::DFT && spec->a > 2 && spec->b == spec->a - 1;
  k.direction = inverse ? "inverse" : "forward";
  std::string cxx = compiler.empty() ? measure::default_compiler() : compiler;
  // One compiler run per process: the version does not change under us.
  static std::string cached_cxx, cached_version;
  if (cxx != cached_cxx) cached_cxx = cxx, cached_version = measure::compiler_version(cxx);
  k.compiler = cxx + " (" + cached_version + ")";
  k.cpu = measure::cpu_model();
  k.threads = std::max(1, options.threads);
  return k;
}

std::string format_wisdom(const Wisdom &w) {
  Json root = Json::object();
  root.set("format", kFormat);
  root.set("version", kVersion);
  Json list = Json::array();
  for (const WisdomEntry &e : w.entries) {
    Json j = Json::object();
    j.set("spec", e.key.spec);
    j.set("isa", e.key.isa);
    j.set("precision", e.key.precision);
    j.set("direction", e.key.direction);
    j.set("compiler", e.key.compiler);
    j.set("cpu", e.key.cpu);
    if (e.key.threads > 1) j.set("threads", e.key.threads);
    j.set("formula", e.formula);
    j.set("tree", e.tree);
    j.set("vector_width", e.vector_width);
    j.set("time_ns", e.ns > 0 ? Json(e.ns) : Json());
    j.set("default_ns", e.default_ns > 0 ? Json(e.default_ns) : Json());
    j.set("strategy", e.strategy);
    j.set("date", e.date);
    j.set("splgen_version", e.splgen_version);
    list.push_back(j);
  }
  root.set("entries", list);
  return root.dump();
}

Wisdom parse_wisdom(const std::string &text, const std::string &file) {
  // An empty file (e.g. created by a build before any search) is empty wisdom.
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return {};
  Json root;
  try {
    root = parse_json(text);
  } catch (const JsonError &e) {
    throw WisdomError(fmt::format("{}:{}", file, e.what()));
  }
  auto bad = [&](const std::string &what) { return WisdomError(fmt::format("{}: not a splgen wisdom file: {}", file, what)); };
  if (!root.is_object()) throw bad("the top level is not an object");
  const Json *format = root.find("format");
  if (!format || !format->is_string() || format->as_string() != kFormat) throw bad("\"format\" is not \"splgen-wisdom\"");
  const Json *version = root.find("version");
  if (!version || !version->is_number() || version->as_number() != kVersion)
    throw bad(fmt::format("\"version\" is not {}", kVersion));
  const Json *entries = root.find("entries");
  if (!entries || !entries->is_array()) throw bad("\"entries\" is not an array");
  Wisdom w;
  std::size_t index = 0;
  for (const Json &j : entries->items()) {
    if (!j.is_object()) throw bad(fmt::format("entry {} is not an object", index));
    auto str = [&](const char *name, bool required = true) -> std::string {
      const Json *v = j.find(name);
      if (!v || !v->is_string()) {
        if (!required && (!v || v->is_null())) return "";
        throw bad(fmt::format("entry {}: \"{}\" is missing or not a string", index, name));
      }
      return v->as_string();
    };
    auto num = [&](const char *name) -> double {
      const Json *v = j.find(name);
      if (!v || v->is_null()) return 0;
      if (!v->is_number()) throw bad(fmt::format("entry {}: \"{}\" is not a number", index, name));
      return v->as_number();
    };
    // Clamped to int's range first: converting 1e300 to int is undefined (found by fuzz_json).
    auto count = [&](const char *name) { return int(std::clamp(num(name), double(INT_MIN), double(INT_MAX))); };
    WisdomEntry e;
    e.key = {str("spec"), str("isa"), str("precision"), str("direction"), str("compiler"), str("cpu")};
    e.key.threads = std::max(1, count("threads"));
    e.formula = str("formula");
    e.tree = str("tree", false);
    e.vector_width = count("vector_width");
    e.ns = num("time_ns");
    e.default_ns = num("default_ns");
    e.strategy = str("strategy", false);
    e.date = str("date", false);
    e.splgen_version = str("splgen_version", false);
    w.merge(e);
    ++index;
  }
  return w;
}

namespace {

std::optional<std::string> read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT) return std::nullopt;
    throw WisdomError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  }
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw WisdomError(fmt::format("{}: cannot read", path));
  return s.str();
}

// An exclusive flock on PATH.lock for the life of the object.
class FileLock {
 public:
  explicit FileLock(const std::string &path) {
    std::string lock = path + ".lock";
    fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw WisdomError(fmt::format("{}: cannot create the lock file: {}", lock, std::strerror(errno)));
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd_);
      throw WisdomError(fmt::format("{}: cannot lock: {}", lock, std::strerror(err)));
    }
  }
  ~FileLock() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

Wisdom load_wisdom(const std::string &path) {
  std::optional<std::string> text = read_text(path);
  if (!text) return {};
  return parse_wisdom(*text, path);
}

Wisdom update_wisdom(const std::string &path, const std::vector<WisdomEntry> &entries) {
  FileLock lock(path);
  Wisdom w = load_wisdom(path);
  for (const WisdomEntry &e : entries) w.merge(e);
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw WisdomError(fmt::format("{}: cannot write: {}", tmp, std::strerror(errno)));
    std::string text = format_wisdom(w);
    out.write(text.data(), std::streamsize(text.size()));
    out.close();
    if (!out) {
      ::unlink(tmp.c_str());
      throw WisdomError(fmt::format("{}: cannot write", tmp));
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw WisdomError(fmt::format("{}: cannot replace: {}", path, std::strerror(err)));
  }
  return w;
}

Plan entry_plan(const WisdomEntry &e) {
  Plan p;
  p.formula = parse::parse_formula(e.formula);
  p.tree = e.tree;
  p.vector_width = e.vector_width;
  return p;
}

WisdomLookup lookup_wisdom(const std::string &path, const std::string &spec_text, const driver::GenOptions &options,
                           const std::string &compiler) {
  Wisdom w = load_wisdom(path);
  WisdomKey key = wisdom_key(spec_text, options, compiler);
  WisdomLookup out;
  const WisdomEntry *e = w.find(key);
  if (!e) {
    bool other = std::any_of(w.entries.begin(), w.entries.end(), [&](const WisdomEntry &x) {
      return x.key.spec == key.spec && x.key.isa == key.isa && x.key.precision == key.precision;
    });
    out.message = other ? fmt::format("wisdom {}: the entries for {} ({}, {}) are for another compiler, CPU or thread count "
                                      "(stale); using the default plan",
                                      path, key.spec, key.isa, key.precision)
                        : fmt::format("wisdom {}: no entry for {} ({}, {}); using the default plan", path, key.spec,
                                      key.isa, key.precision);
    return out;
  }
  // A plan must parse and be of the spec's size; otherwise it is stale (a hand-edited file,
  // or a formula this version does not read).
  try {
    out.plan = entry_plan(*e);
    Spl spec = parse::parse_formula(key.spec);
    if (out.plan->formula->rows != spec->rows || out.plan->formula->cols != spec->cols) throw FormulaError("size differs");
  } catch (const std::exception &ex) {
    out.message = fmt::format("wisdom {}: the entry for {} ({}, {}) has an unusable formula ({}); using the default plan",
                              path, key.spec, key.isa, key.precision, ex.what());
    out.plan.reset();
  }
  return out;
}

}  // namespace splgen::search
