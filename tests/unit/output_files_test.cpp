// Output files and standard output under failure (issue 18, items 10, 11, 13; docs/design.md,
// "Output files"): every file is written whole or not at all, the outputs of one command
// together; a write to standard output that fails is exit 3, for every subcommand.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "generator/support/atomic_file.h"
#include "tests/support/kernel_loader.h"
#include "tests/support/run_program.h"
#include "tests/support/splgen_command_test.h"

namespace splgen {
namespace {

using test::contains;
using test::ProgramResult;
using test::read_text_file;
using test::text_lines;

class OutputFilesTest : public test::SplgenCommandTest {
 protected:
  OutputFilesTest() : SplgenCommandTest("splgen-output-files-test") {}

  // splgen ARGS run by `sh -c SCRIPT`, in which "$@" is the splgen command line: for
  // redirections and limits the plain runner cannot express.
  ProgramResult splgen_in_shell(const std::string &script, std::vector<std::string> args) {
    args.insert(args.begin(), {"-c", script + " \"$0\" \"$@\"", SPLGEN_BINARY});
    return test::run_program("/bin/sh", args, dir.path().string());
  }

  // The names in the scratch directory besides the runner's stdout.txt and stderr.txt.
  std::set<std::string> files_left() {
    std::set<std::string> names;
    for (const auto &e : std::filesystem::directory_iterator(dir.path())) names.insert(e.path().filename().string());
    names.erase("stdout.txt");
    names.erase("stderr.txt");
    return names;
  }

  void expect_one_error_line(const ProgramResult &r, int code, const std::string &part) {
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_EQ(text_lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "splgen: error: ") && contains(r.err, part)) << r.err;
  }
};

// Item 10: a write that fails half-way (the file size limit stands in for a full disk) leaves
// the old file whole and no temporary behind.
TEST_F(OutputFilesTest, GenOutputSurvivesAFailedWrite) {
  std::string out = dir.write("k.cpp", "old contents\n");
  ProgramResult r = splgen_in_shell("ulimit -f 8; trap '' XFSZ; exec", {"gen", "DFT(1024)", "-o", out});
  expect_one_error_line(r, 3, "k.cpp");
  EXPECT_EQ(read_text_file(out), "old contents\n");
  EXPECT_EQ(files_left(), std::set<std::string>{"k.cpp"});
}

// Item 10: killed in the middle of the write (SIGXFSZ, as SIGKILL would), the old file stays.
TEST_F(OutputFilesTest, GenOutputSurvivesAKill) {
  std::string out = dir.write("k.cpp", "old contents\n");
  ProgramResult r = splgen_in_shell("ulimit -f 8; exec", {"gen", "DFT(1024)", "-o", out});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(read_text_file(out), "old contents\n");
}

// Item 10: a failing --header leaves -o as it was; the same file for both is refused.
TEST_F(OutputFilesTest, GenOutputsAreCommittedTogether) {
  std::string out = dir.write("k.cpp", "old contents\n");
  ProgramResult r = splgen({"gen", "DFT(8)", "-o", out, "--header", dir.file("missing/k.h")});
  expect_one_error_line(r, 3, "missing/k.h");
  EXPECT_EQ(read_text_file(out), "old contents\n");
  EXPECT_EQ(files_left(), std::set<std::string>{"k.cpp"});

  expect_error({"gen", "DFT(8)", "-o", out, "--header", out}, "-o and --header name the same file", 2);
  expect_error({"gen", "DFT(8)", "-o", out, "--header", dir.path().string() + "/./k.cpp"}, "same file", 2);
  EXPECT_EQ(read_text_file(out), "old contents\n");

  ASSERT_EQ(splgen({"gen", "DFT(8)", "-o", out, "--header", dir.file("k.h")}).exit_code, 0);
  EXPECT_TRUE(contains(read_text_file(out), "splgen_dft8"));
  EXPECT_TRUE(contains(read_text_file(dir.file("k.h")), "SPLGEN_DFT8_H"));
  EXPECT_EQ(files_left(), (std::set<std::string>{"k.cpp", "k.h"}));
}

// Devices are written directly: /dev/null takes the source, /dev/full is exit 3.
TEST_F(OutputFilesTest, GenWritesToDevices) {
  EXPECT_EQ(splgen({"gen", "DFT(8)", "-o", "/dev/null"}).exit_code, 0);
  expect_one_error_line(splgen({"gen", "DFT(8)", "-o", "/dev/full"}), 3, "/dev/full");
}

// Item 11: every subcommand that prints checks that its output arrived.
TEST_F(OutputFilesTest, FailedStdoutIsExit3) {
  std::string wisdom = dir.write("w.wisdom", "");
  const std::vector<std::vector<std::string>> commands{
      {"rewrite", "stream(4)[ DFT(8) (x) I(16) ]"},
      {"rules", "check", std::string(SPLGEN_TEST_DIR) + "/rules/decimation_in_frequency.rules", "--max-size", "16"},
      {"rules", "list"},
      {"wisdom", "show", wisdom},
      {"wisdom", "merge", dir.file("merged.wisdom"), wisdom},
      {"--help"},
      {"--version"},
      {"gen", "DFT(8)"},
      {"verify", "DFT(4)"}};
  for (const auto &command : commands) {
    SCOPED_TRACE(command.front() + (command.size() > 1 ? " " + command[1] : ""));
    expect_one_error_line(splgen_in_shell("exec >/dev/full; exec", command), 3, "cannot write to standard output");
  }
}

// Item 13: search --wisdom into a directory that cannot take the file fails before searching.
TEST_F(OutputFilesTest, SearchChecksTheWisdomFileFirst) {
  for (std::string path : {dir.file("missing/w.wisdom"), std::string("/proc/splgen-test.wisdom")}) {
    ProgramResult r = expect_error({"search", "DFT(8)", "--isa", "scalar", "--wisdom", path, "--quiet"}, "--wisdom", 3);
    EXPECT_TRUE(contains(r.err, path)) << r.err;
  }
  expect_error({"bench", "DFT(8)", "--csv", dir.file("missing/b.csv"), "--quiet"}, "--csv", 3);
  expect_error({"wisdom", "merge", dir.file("missing/w.wisdom"), dir.write("w.wisdom", "")}, "missing/w.wisdom", 3);
  expect_error({"bench", "DFT(8)", "--csv", dir.file("b.out"), "--json", dir.file("b.out")}, "same file", 2);
}

// Item 13: an update leaves only the wisdom file: no lock, no temporary.
TEST_F(OutputFilesTest, SearchLeavesNoLockOrTemporary) {
  std::string wisdom = dir.file("w.wisdom");
  ProgramResult r = splgen({"search", "DFT(8)", "--strategy", "estimate", "--wisdom", wisdom, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_left(), std::set<std::string>{"w.wisdom"});
}

TEST(AtomicFiles, NothingIsReplacedUntilCommit) {
  test::TempDir dir("splgen-atomic-test");
  std::string a = dir.write("a.txt", "old a"), b = dir.write("b.txt", "old b");
  {
    support::AtomicFiles files;
    files.add(a, "new a");
    EXPECT_THROW(files.add(dir.file("missing/c.txt"), "c"), support::WriteError);
  }  // not committed: the temporaries go
  EXPECT_EQ(test::read_text_file(a), "old a");
  support::AtomicFiles files;
  files.add(a, "new a");
  files.add(b, "new b");
  EXPECT_EQ(test::read_text_file(a), "old a");
  files.commit();
  EXPECT_EQ(test::read_text_file(a), "new a");
  EXPECT_EQ(test::read_text_file(b), "new b");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 2);
  EXPECT_THROW(support::write_file_atomically(dir.path().string(), "x"), support::WriteError);  // a directory
}

}  // namespace
}  // namespace splgen
