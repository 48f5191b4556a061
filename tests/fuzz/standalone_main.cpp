// A main() for the fuzz targets where libFuzzer is not available (gcc builds): runs
// LLVMFuzzerTestOneInput on every file of the given corpus directories and files, then on
// inputs mutated from them (a deterministic random sequence: no coverage feedback, so it
// finds less than libFuzzer, but it runs the same targets on any compiler).
//
//   TARGET [-runs=N] [-seed=S] [-max_len=L] [-max_total_time=SEC] [-timeout=SEC] PATH...
//
// Flags are libFuzzer's names, so tests/fuzz/run_fuzz.sh drives both kinds the same way.
// An input running past -timeout, or a crash, writes it to ./crash-standalone (the target's
// own checks abort) and fails the run.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

using Input = std::string;

// The input being run, for the signal handlers (written with write(2) only).
const Input *current = nullptr;

void save_current(const char *why) {
  (void)!write(2, why, __builtin_strlen(why));
  if (!current) return;
  int fd = open("crash-standalone", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    (void)!write(fd, current->data(), current->size());
    close(fd);
    const char *msg = "; input written to ./crash-standalone\n";
    (void)!write(2, msg, __builtin_strlen(msg));
  }
}

void on_timeout(int) {
  save_current("standalone fuzz driver: an input ran past -timeout");
  _exit(70);
}

void on_crash(int sig) {
  save_current("standalone fuzz driver: crashed");
  signal(sig, SIG_DFL);
  raise(sig);
}

void read_inputs(const std::filesystem::path &path, std::vector<Input> &out) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(path, ec))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());  // the same order, so the same mutations, everywhere
    for (const auto &f : files) read_inputs(f, out);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "standalone fuzz driver: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One to four edits: byte changes, insertions and deletions, a copied slice of another input
// (which brings whole tokens: "(x)", "DFT(", "=>"), a duplicated slice, digits.
Input mutate(const std::vector<Input> &corpus, std::mt19937_64 &rng, size_t max_len) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  Input s = corpus[pick(corpus.size())];
  static const std::string bytes = "()[]*,+-x~|'@=<>;:#% \n0123456789-DFTILTGSxvecparsmp^/\xff";
  int edits = 1 + int(pick(4));
  for (int e = 0; e < edits; ++e) {
    size_t at = pick(s.size() + 1);
    switch (pick(6)) {
      case 0: if (at < s.size()) s[at] = char(rng()); break;
      case 1: s.insert(at, 1, bytes[pick(bytes.size())]); break;
      case 2: s.erase(at, 1 + pick(8)); break;
      case 3: {
        const Input &o = corpus[pick(corpus.size())];
        size_t from = pick(o.size() + 1);
        s.insert(at, o.substr(from, 1 + pick(16)));
        break;
      }
      case 4: s.insert(at, s.substr(at, 1 + pick(16))); break;
      default: s.insert(at, std::to_string(int64_t(rng()) >> pick(64))); break;
    }
  }
  if (s.size() > max_len) s.resize(max_len);
  return s;
}

void run(const Input &in, unsigned timeout) {
  current = &in;
  if (timeout) alarm(timeout);
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(in.data()), in.size());
  if (timeout) alarm(0);
  current = nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  long runs = 10000, seed = 1, max_total_time = 0;
  size_t max_len = 4096;
  unsigned timeout = 0;
  std::vector<Input> corpus;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag) { return a.rfind(flag, 0) == 0 ? std::strtol(a.c_str() + std::strlen(flag), nullptr, 10) : -1; };
    if (value("-runs=") >= 0) runs = value("-runs=");
    else if (value("-seed=") >= 0) seed = value("-seed=");
    else if (value("-max_len=") >= 0) max_len = size_t(value("-max_len="));
    else if (value("-max_total_time=") >= 0) max_total_time = value("-max_total_time=");
    else if (value("-timeout=") >= 0) timeout = unsigned(value("-timeout="));
    else if (a.rfind("-", 0) == 0) std::fprintf(stderr, "standalone fuzz driver: ignoring %s\n", a.c_str());
    else read_inputs(a, corpus);
  }
  signal(SIGALRM, on_timeout);
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL}) signal(sig, on_crash);

  const auto start = std::chrono::steady_clock::now();
  for (const Input &in : corpus) run(in, timeout);
  if (corpus.empty()) corpus.push_back("");
  std::mt19937_64 rng{uint64_t(seed)};
  long done = 0;
  for (; done < runs; ++done) {
    if (max_total_time > 0 && done % 64 == 0 &&
        std::chrono::steady_clock::now() - start > std::chrono::seconds(max_total_time))
      break;
    run(mutate(corpus, rng, max_len), timeout);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("standalone fuzz driver: %zu corpus inputs and %ld mutated inputs in %.1f s, no crash\n",
              corpus.size(), done, secs);
  return 0;
}
