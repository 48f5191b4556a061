// Wisdom (FFTW's word): the best plans the search found, kept in a JSON text file, keyed by
// what a measurement depends on: the spec, ISA, precision, direction, compiler (and its
// version) and CPU model. docs/search.md describes the format.
//
// Two processes may update one file at once: updates hold an exclusive lock (flock on
// FILE.lock), read the file, merge, write a temporary file beside it and rename it over FILE,
// so a reader always sees a whole file.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator/driver/pipeline.h"
#include "generator/search/plan.h"

namespace splgen::search {

// A wisdom file that cannot be read or understood: what() is "FILE:LINE:COL: MESSAGE" for a
// JSON syntax error, "FILE: MESSAGE" otherwise.
struct WisdomError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct WisdomKey {
  std::string spec;       // the transform, after --inverse: "DFT(1024)", "DFT(1024,1023)"
  std::string isa;        // "avx2"
  std::string precision;  // "double"
  std::string direction;  // "forward" / "inverse"
  std::string compiler;   // the compiler command and its first --version line
  std::string cpu;        // /proc/cpuinfo model name
  int threads = 1;        // workers of the kernel (--threads); written to files only when > 1
  bool operator==(const WisdomKey &) const = default;
};

struct WisdomEntry {
  WisdomKey key;
  std::string formula;     // the plan: a formula `splgen expand` reads
  std::string tree;        // the ruletree in short ("dit(32,32)")
  int vector_width = 0;    // 0: the ISA's widest
  double ns = 0;           // measured median time of one transform; 0: not measured (estimate)
  double default_ns = 0;   // the default plan's time in the same round
  std::string strategy;    // "dp", "random", "exhaustive", "estimate"
  std::string date;        // UTC, when it was found
  std::string splgen_version;
};

struct Wisdom {
  std::vector<WisdomEntry> entries;  // sorted by key (spec size, then the key's text)

  const WisdomEntry *find(const WisdomKey &key) const;
  // Adds the entry, or replaces the one with its key when the new one is faster (or the old
  // one has no time).
  void merge(const WisdomEntry &entry);
  void merge(const Wisdom &other);
};

// The key of a spec for a target on this machine: `spec_text` parsed (and inverted with
// options.inverse), the compiler (empty: $CXX, else c++) with its version, cpu_model().
WisdomKey wisdom_key(const std::string &spec_text, const driver::GenOptions &options, const std::string &compiler = "");

// Text <-> wisdom. parse_wisdom throws WisdomError naming `file` with line:column.
std::string format_wisdom(const Wisdom &w);
Wisdom parse_wisdom(const std::string &text, const std::string &file);

// Reads a wisdom file; a missing or empty file is empty wisdom. Throws WisdomError.
Wisdom load_wisdom(const std::string &path);
// Merges entries into the file under the lock (read, merge, write temporary, rename). Throws WisdomError.
Wisdom update_wisdom(const std::string &path, const std::vector<WisdomEntry> &entries);

// The plan of an entry: its formula parsed (parse::ParseError, FormulaError).
Plan entry_plan(const WisdomEntry &entry);

// What `gen --wisdom` uses: the entry's plan, or nothing with a message saying why (no entry for
// the key; entries for the spec exist for another compiler or CPU; the formula does not fit).
struct WisdomLookup {
  std::optional<Plan> plan;
  std::string message;  // for stderr when plan is empty: "... using the default plan"
};
WisdomLookup lookup_wisdom(const std::string &path, const std::string &spec_text, const driver::GenOptions &options,
                           const std::string &compiler = "");

}  // namespace splgen::search
