#include "generator/search/wisdom.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

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
         std::to_string(k.threads) + "\n" + std::to_string(k.batch);
}

// Sorts by spec size, then key text; each spec is parsed once, each key printed once.
void sort_entries(std::vector<WisdomEntry> &entries) {
  std::unordered_map<std::string, int64_t> sizes;
  std::vector<std::pair<std::pair<int64_t, std::string>, std::size_t>> order;
  order.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto [at, fresh] = sizes.try_emplace(entries[i].key.spec, 0);
    if (fresh) at->second = spec_size(entries[i].key.spec);
    order.push_back({{at->second, key_text(entries[i].key)}, i});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<WisdomEntry> sorted;
  sorted.reserve(entries.size());
  for (const auto &o : order) sorted.push_back(std::move(entries[o.second]));
  entries = std::move(sorted);
}

Json stamps_json(const std::vector<RuleFileStamp> &stamps) {
  Json list = Json::array();
  for (const RuleFileStamp &st : stamps) {
    Json j = Json::object();
    j.set("file", st.file);
    j.set("hash", st.hash);
    list.push_back(j);
  }
  return list;
}

// "rule_files": absent or null: none; else an array of {"file": ..., "hash": ...}.
std::vector<RuleFileStamp> read_stamps(const Json *list, const std::function<WisdomError(const std::string &)> &bad) {
  std::vector<RuleFileStamp> out;
  if (!list || list->is_null()) return out;
  if (!list->is_array()) throw bad("is not an array");
  for (const Json &j : list->items()) {
    const Json *file = j.is_object() ? j.find("file") : nullptr;
    const Json *hash = j.is_object() ? j.find("hash") : nullptr;
    if (!file || !file->is_string() || !hash || !hash->is_string())
      throw bad("holds an item that is not {\"file\": STRING, \"hash\": STRING}");
    out.push_back({file->as_string(), hash->as_string()});
  }
  return out;
}

}  // namespace

const WisdomEntry *Wisdom::find(const WisdomKey &key) const {
  for (const WisdomEntry &e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

bool is_faster(const WisdomEntry &incoming, const WisdomEntry &old) {
  return old.ns <= 0 || (incoming.ns > 0 && incoming.ns <= old.ns) || (incoming.ns <= 0 && old.ns <= 0);
}

void merge_entries(Wisdom &w, const std::vector<WisdomEntry> &more, const ReplaceRule &replaces) {
  std::unordered_map<std::string, std::size_t> at;  // key text -> index in w.entries
  at.reserve(w.entries.size() + more.size());
  for (std::size_t i = 0; i < w.entries.size(); ++i) at.emplace(key_text(w.entries[i].key), i);
  for (const WisdomEntry &e : more) {
    auto [it, fresh] = at.try_emplace(key_text(e.key), w.entries.size());
    if (fresh)
      w.entries.push_back(e);
    else if (replaces(e, w.entries[it->second]))
      w.entries[it->second] = e;
  }
  sort_entries(w.entries);
}

void Wisdom::merge(const std::vector<WisdomEntry> &more) { merge_entries(*this, more, is_faster); }

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
  if (options.target == "cuda") k.isa = "cuda", k.batch = int(std::max<int64_t>(1, options.io.batch));
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
    if (e.key.batch > 1) j.set("batch", e.key.batch);
    j.set("formula", e.formula);
    j.set("tree", e.tree);
    j.set("vector_width", e.vector_width);
    if (e.smp_packet > 0) j.set("smp_packet", e.smp_packet);
    j.set("time_ns", e.ns > 0 ? Json(e.ns) : Json());
    j.set("default_ns", e.default_ns > 0 ? Json(e.default_ns) : Json());
    j.set("strategy", e.strategy);
    j.set("date", e.date);
    j.set("splgen_version", e.splgen_version);
    if (!e.rule_files.empty()) j.set("rule_files", stamps_json(e.rule_files));
    if (!e.gpu.empty()) j.set("gpu", e.gpu);
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
  std::vector<WisdomEntry> read;
  read.reserve(entries->items().size());
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
    auto whole = [&](const char *name, int low, int high) -> int {  // absent or null: `low`
      double v = num(name);
      if (v == 0 && low > 0) return low;
      if (!(v >= low && v <= high) || v != std::floor(v))
        throw bad(fmt::format("entry {}: \"{}\" is not a whole number from {} to {}", index, name, low, high));
      return int(v);
    };
    WisdomEntry e;
    e.key = {str("spec"), str("isa"), str("precision"), str("direction"), str("compiler"), str("cpu")};
    e.key.threads = whole("threads", 1, 4096);
    e.key.batch = whole("batch", 1, 1 << 24);
    e.formula = str("formula");
    e.tree = str("tree", false);
    e.vector_width = whole("vector_width", 0, 64);
    e.smp_packet = whole("smp_packet", 0, 1 << 20);
    e.ns = num("time_ns");
    e.default_ns = num("default_ns");
    e.strategy = str("strategy", false);
    e.date = str("date", false);
    e.splgen_version = str("splgen_version", false);
    e.gpu = str("gpu", false);
    e.rule_files = read_stamps(j.find("rule_files"), [&](const std::string &what) {
      return bad(fmt::format("entry {}: \"rule_files\" {}", index, what));
    });
    read.push_back(std::move(e));
    ++index;
  }
  Wisdom w;
  w.merge(read);
  return w;
}

}  // namespace splgen::search
