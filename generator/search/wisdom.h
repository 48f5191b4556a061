// Wisdom (FFTW's word): the best plans the search found, kept in a JSON text file, keyed by
// what a measurement depends on: the spec, ISA, precision, direction, compiler (and its
// version) and CPU model. docs/search.md describes the format.
//
// Two processes may update one file at once: updates hold an exclusive lock (flock on
// FILE.lock, removed afterwards), read the file, merge, write a temporary file beside it and
// rename it over FILE, so a reader always sees a whole file. A plan read from a file is proved
// before it is used or merged: a hand-edited or corrupt one never becomes a kernel.
#pragma once
#include <functional>
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
  // GPU kernels (isa "cuda"; cpu: the GPU's name, compiler: "nvcc -arch=..."): transforms per
  // call, which the kernel is made for; written only when > 1.
  int batch = 1;
  bool operator==(const WisdomKey &) const = default;
};

// A rule file a plan depends on (search --rules), as it was when the plan was found.
struct RuleFileStamp {
  std::string file;  // absolute path
  std::string hash;  // of its content: rule_file_hash()
  bool operator==(const RuleFileStamp &) const = default;
};

struct WisdomEntry {
  WisdomKey key;
  std::string formula;     // the plan: a formula `splgen expand` reads
  std::string tree;        // the ruletree in short ("dit(32,32)")
  int vector_width = 0;    // 0: the ISA's widest
  int smp_packet = 0;      // threads > 1: mu of smp(threads, mu); 0: one cache line
  double ns = 0;           // measured median time of one transform; 0: not measured (estimate)
  double default_ns = 0;   // the default plan's time in the same round
  std::string strategy;    // "dp", "random", "exhaustive", "estimate"
  std::string date;        // UTC, when it was found
  std::string splgen_version;
  std::vector<RuleFileStamp> rule_files;  // the --rules files whose rules the plan may use
  std::string gpu;         // isa "cuda": the kernel's codelet size and knobs ("codelet=16,block=128,...")
};

struct Wisdom {
  std::vector<WisdomEntry> entries;  // sorted by key (spec size, then the key's text)

  const WisdomEntry *find(const WisdomKey &key) const;
  // Adds the entries, in order; one replaces the entry of its key when it is faster (or that one
  // has no time). Sorts once: near-linear in the number of entries.
  void merge(const std::vector<WisdomEntry> &more);
  void merge(const WisdomEntry &entry) { merge(std::vector<WisdomEntry>{entry}); }
  void merge(const Wisdom &other) { merge(other.entries); }
};

// Wisdom::merge with another rule for when an incoming entry takes the place of the entry of
// its key (Wisdom::merge's: is_faster).
using ReplaceRule = std::function<bool(const WisdomEntry &incoming, const WisdomEntry &old)>;
void merge_entries(Wisdom &w, const std::vector<WisdomEntry> &more, const ReplaceRule &replaces);
bool is_faster(const WisdomEntry &incoming, const WisdomEntry &old);  // or OLD has no time

// The key of a spec for a target on this machine: `spec_text` parsed (and inverted with
// options.inverse), the compiler (empty: $CXX, else c++) with its version, cpu_model().
WisdomKey wisdom_key(const std::string &spec_text, const driver::GenOptions &options, const std::string &compiler = "");

// Text <-> wisdom. parse_wisdom throws WisdomError naming `file` with line:column.
std::string format_wisdom(const Wisdom &w);
Wisdom parse_wisdom(const std::string &text, const std::string &file);

// Reads a wisdom file; a missing or empty file is empty wisdom. Throws WisdomError.
Wisdom load_wisdom(const std::string &path);

// Why an entry cannot be used (empty when it can): its spec or formula does not parse, its ISA,
// precision or direction is not one splgen writes, its time is not a positive number, or its
// plan does not compute its spec (plan_mismatch, lowered with its key's target). A hand-edited
// or corrupt entry; remembered per process, so proving one plan twice costs nothing.
std::string entry_problem(const WisdomEntry &entry);

// Merges entries into the file under the lock (read, merge, write a temporary, fsync, rename;
// generator/support/atomic_file.h). An entry that cannot be used (entry_problem) is left out,
// with a line saying why in `left_out`; an entry of the file that cannot be used is replaced by
// a usable one of its key, whatever their times. Throws WisdomError.
struct WisdomUpdate {
  Wisdom wisdom;                      // the file as written
  std::vector<std::string> left_out;  // "the entry for DFT(64) (scalar, double): REASON"
};
WisdomUpdate update_wisdom(const std::string &path, const std::vector<WisdomEntry> &entries);

// "fnv1a64:0123456789abcdef", a hash of the file's bytes; "" when it cannot be read.
std::string rule_file_hash(const std::string &path);
// The stamps of the --rules files the plan depends on: those defining a rule its tree names
// (a short name, short_rule_name), every one for the default plan (they take part in it).
std::vector<RuleFileStamp> plan_rule_files(const Plan &plan, const std::vector<std::string> &rule_files);
// Why an entry's rule files no longer fit it (empty when they do): one changed or is gone
// since the search. Such an entry is stale: lookup_wisdom ignores it, a new one replaces it.
std::string rule_files_problem(const WisdomEntry &entry);

// "DFT(64) (scalar, double)": an entry in messages.
std::string describe_entry(const WisdomKey &key);

// The plan of an entry: its formula parsed (parse::ParseError, FormulaError).
Plan entry_plan(const WisdomEntry &entry);

// What `gen --wisdom` uses: the entry's plan, or nothing with a message saying why (no entry for
// the key; entries for the spec exist for another compiler or CPU; the plan does not parse or
// does not compute the spec: plan_mismatch, lowered with OPTIONS). Like FFTW, which plans
// afresh where its wisdom does not apply, splgen then uses its default plan.
struct WisdomLookup {
  std::optional<Plan> plan;
  std::string message;  // for stderr when plan is empty: "... using the default plan"
};
WisdomLookup lookup_wisdom(const std::string &path, const std::string &spec_text, const driver::GenOptions &options,
                           const std::string &compiler = "");

}  // namespace splgen::search
