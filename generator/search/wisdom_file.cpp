// Wisdom files on the disk (wisdom.h): reading, proving entries, updating under the lock.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "generator/ir/print.h"
#include "generator/parse/formula_parser.h"
#include "generator/search/wisdom.h"
#include "generator/support/atomic_file.h"

namespace splgen::search {

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

// An exclusive flock on PATH.lock for the life of the object; the lock file is removed when
// the lock is released, so none is left behind.
class FileLock {
 public:
  explicit FileLock(const std::string &path) : lock_(path + ".lock") {
    for (;;) {
      fd_ = ::open(lock_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd_ < 0) throw WisdomError(fmt::format("{}: cannot create the lock file: {}", lock_, std::strerror(errno)));
      while (::flock(fd_, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        int err = errno;
        ::close(fd_);
        throw WisdomError(fmt::format("{}: cannot lock: {}", lock_, std::strerror(err)));
      }
      // The holder before us removed the file it locked (and another process may have made a
      // new one): the lock counts only while our file is the one at the path.
      struct stat held {}, now {};
      if (::fstat(fd_, &held) == 0 && ::stat(lock_.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
          held.st_ino == now.st_ino)
        return;
      ::close(fd_);
    }
  }
  ~FileLock() {
    ::unlink(lock_.c_str());  // before the lock is released: see the constructor
    ::close(fd_);
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

 private:
  std::string lock_;
  int fd_ = -1;
};

// The options `gen` would lower an entry's plan with, from its key.
std::string key_options(const WisdomKey &key, driver::GenOptions &g) {
  std::optional<Isa> isa = key.isa == "cuda" ? Isa::Scalar : parse_isa(key.isa);  // a GPU kernel: target cuda
  if (!isa) return fmt::format("its isa \"{}\" is not one splgen knows", key.isa);
  if (key.isa == "cuda") g.target = "cuda";
  if (key.precision != "double" && key.precision != "float")
    return fmt::format("its precision \"{}\" is not double or float", key.precision);
  g.isa = *isa;
  g.precision = key.precision == "float" ? Precision::Float : Precision::Double;
  g.threads = key.threads;
  return "";
}

std::string find_problem(const WisdomEntry &e) {
  if (!(e.ns >= 0) || std::isinf(e.ns)) return "its time_ns is not a positive number";
  if (!(e.default_ns >= 0) || std::isinf(e.default_ns)) return "its default_ns is not a positive number";
  driver::GenOptions g;
  if (std::string p = key_options(e.key, g); !p.empty()) return p;
  Spl spec;
  try {
    spec = parse::parse_formula(e.key.spec);
  } catch (const std::exception &ex) {
    return fmt::format("its spec does not parse: {}", ex.what());
  }
  bool inverse = spec->kind == SplKind::DFT && spec->a > 2 && spec->b == spec->a - 1;
  if (e.key.direction != (inverse ? "inverse" : "forward"))
    return fmt::format("its direction \"{}\" is not that of {}", e.key.direction, e.key.spec);
  Plan plan;
  try {
    plan = entry_plan(e);
  } catch (const std::exception &ex) {
    return fmt::format("its formula does not parse: {}", ex.what());
  }
  return plan_mismatch(spec, plan, g);
}

// A GPU kernel's entry: of the spec, precision, direction and batch, for any GPU and nvcc (gen
// runs where neither may be); of several, the one that ran fastest against its default.
const WisdomEntry *find_gpu_entry(const Wisdom &w, const WisdomKey &key) {
  const WisdomEntry *best = nullptr;
  auto gain = [](const WisdomEntry &e) { return e.ns > 0 ? e.default_ns / e.ns : 0.0; };
  for (const WisdomEntry &e : w.entries)
    if (e.key.spec == key.spec && e.key.isa == "cuda" && e.key.precision == key.precision &&
        e.key.direction == key.direction && e.key.batch == key.batch && (!best || gain(e) > gain(*best)))
      best = &e;
  return best;
}

}  // namespace

Wisdom load_wisdom(const std::string &path) {
  std::optional<std::string> text = read_text(path);
  if (!text) return {};
  return parse_wisdom(*text, path);
}

std::string entry_problem(const WisdomEntry &e) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::string> proved;  // what decides -> the problem
  std::string what = fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}", e.key.spec, e.key.isa, e.key.precision,
                                 e.key.direction, e.key.threads, e.formula, e.vector_width, e.smp_packet, e.ns,
                                 e.default_ns, e.gpu);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = proved.find(what); it != proved.end()) return it->second;
  }
  std::string problem = find_problem(e);
  std::lock_guard<std::mutex> lock(mutex);
  return proved.emplace(what, problem).first->second;
}

std::string describe_entry(const WisdomKey &key) { return fmt::format("{} ({}, {})", key.spec, key.isa, key.precision); }

WisdomUpdate update_wisdom(const std::string &path, const std::vector<WisdomEntry> &entries) {
  FileLock lock(path);
  WisdomUpdate u;
  u.wisdom = load_wisdom(path);
  std::vector<WisdomEntry> usable;
  for (const WisdomEntry &e : entries) {
    std::string problem = entry_problem(e);
    if (problem.empty())
      usable.push_back(e);
    else
      u.left_out.push_back(fmt::format("the entry for {}: {}", describe_entry(e.key), problem));
  }
  // A usable entry takes the place of a faster one that is not (a hand-edited file).
  // So does one whose rule files changed since its search (stale).
  merge_entries(u.wisdom, usable, [](const WisdomEntry &incoming, const WisdomEntry &old) {
    return is_faster(incoming, old) || !entry_problem(old).empty() || !rule_files_problem(old).empty();
  });
  try {
    support::write_file_atomically(path, format_wisdom(u.wisdom));
  } catch (const support::WriteError &e) {
    throw WisdomError(e.what());
  }
  return u;
}

Plan entry_plan(const WisdomEntry &e) {
  Plan p;
  p.formula = parse::parse_formula(e.formula);
  p.tree = e.tree;
  p.vector_width = e.vector_width;
  p.smp_packet = e.smp_packet;
  p.gpu = e.gpu;
  return p;
}

WisdomLookup lookup_wisdom(const std::string &path, const std::string &spec_text, const driver::GenOptions &options,
                           const std::string &compiler) {
  Wisdom w = load_wisdom(path);
  WisdomKey key = wisdom_key(spec_text, options, compiler);
  WisdomLookup out;
  const WisdomEntry *e = options.target == "cuda" ? find_gpu_entry(w, key) : w.find(key);
  if (!e) {
    bool other = std::any_of(w.entries.begin(), w.entries.end(), [&](const WisdomEntry &x) {
      return x.key.spec == key.spec && x.key.isa == key.isa && x.key.precision == key.precision;
    });
    out.message = other && key.isa == "cuda"
                      ? fmt::format("wisdom {}: the entries for {} are for other batches than {}; using the default plan", path,
                                    describe_entry(key), key.batch)
                  : other ? fmt::format("wisdom {}: the entries for {} are for another compiler, CPU or thread count "
                                      "(stale); using the default plan",
                                      path, describe_entry(key))
                        : fmt::format("wisdom {}: no entry for {}; using the default plan", path, describe_entry(key));
    return out;
  }
  if (std::string stale = rule_files_problem(*e); !stale.empty()) {
    out.message = fmt::format("wisdom {}: the entry for {} is stale: {}; using the default plan", path,
                              describe_entry(key), stale);
    return out;
  }
  // The plan is proved with the options it will be generated with: a hand-edited or corrupt
  // entry ("I(64)", a twiddle missing, another root) must not become a kernel.
  std::string problem;
  try {
    Plan plan = entry_plan(*e);
    problem = plan_mismatch(parse::parse_formula(key.spec), plan, options);
    if (problem.empty()) out.plan = plan;
  } catch (const std::exception &ex) {
    problem = fmt::format("its formula does not parse: {}", ex.what());
  }
  if (!out.plan)
    out.message = fmt::format("wisdom {}: the entry for {} is unusable: {}; using the default plan", path,
                              describe_entry(key), problem);
  return out;
}

}  // namespace splgen::search
