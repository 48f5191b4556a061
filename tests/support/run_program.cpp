#include "tests/support/run_program.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/support/kernel_loader.h"

namespace splgen::test {

std::string read_text_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> text_lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream s(text);
  for (std::string line; std::getline(s, line);) out.push_back(line);
  return out;
}

ProgramResult run_program(const std::string &program, const std::vector<std::string> &args,
                          const std::string &scratch_dir) {
  std::string out = scratch_dir + "/stdout.txt", err = scratch_dir + "/stderr.txt";
  std::string command = shell_quote(program);
  for (const std::string &a : args) (command += ' ') += shell_quote(a);
  command += " >" + shell_quote(out) + " 2>" + shell_quote(err) + " </dev/null";
  int status = std::system(command.c_str());
  ProgramResult r;
  r.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text_file(out);
  r.err = read_text_file(err);
  return r;
}

}  // namespace splgen::test
