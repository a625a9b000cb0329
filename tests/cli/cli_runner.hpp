// Helpers for the command-line tests: run the built `ariadne` binary in a child
// process with its output captured, and write input files into a private temporary
// folder. The tests read --json output with mini_json.hpp.
#pragma once

#include "mini_json.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ariadne::cli_test {

namespace fs = std::filesystem;

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

using TempDir = test::TempDir;

struct RunResult {
  int status = -1;  // the exit status; -1 if the child died by a signal
  std::string out;
  std::string err;
};

// ARIADNE_CLI_PATH and `args` as execv() wants them: `argv` points into `text`.
struct CliArgv {
  explicit CliArgv(const std::vector<std::string>& args) : text{ARIADNE_CLI_PATH} {
    text.insert(text.end(), args.begin(), args.end());
    for (auto& arg : text) argv.push_back(arg.data());
    argv.push_back(nullptr);
  }
  CliArgv(const CliArgv&) = delete;
  CliArgv& operator=(const CliArgv&) = delete;

  std::vector<std::string> text;
  std::vector<char*> argv;
};

// In a forked child: stdout and stderr into the two files, then the command line.
[[noreturn]] inline void exec_cli_into(const std::string& out_path, const std::string& err_path,
                                       const CliArgv& command) {
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(127);
  ::execv(command.argv[0], command.argv.data());
  ::_exit(127);
}

// Runs ARIADNE_CLI_PATH with `args`; stdout and stderr go to files (not pipes, so a
// chatty child cannot block on a full pipe), which also means stdout is not a
// terminal and output is uncoloured. `in_child`, if given, runs in the child before
// the command line (to set its environment); `usage`, if given, receives the child's
// resource usage (its page faults, say).
inline RunResult run_cli(const std::vector<std::string>& args, const std::function<void()>& in_child,
                         rusage* usage = nullptr) {
  TempDir capture;
  const std::string out_path = (capture.path() / "stdout").string();
  const std::string err_path = (capture.path() / "stderr").string();
  const CliArgv command(args);

  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    if (in_child) in_child();
    exec_cli_into(out_path, err_path, command);
  }
  int wait_status = 0;
  rusage ignored{};
  while (::wait4(child, &wait_status, 0, usage != nullptr ? usage : &ignored) < 0) {
  }
  RunResult result;
  result.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  result.out = read_text(out_path);
  result.err = read_text(err_path);
  return result;
}

inline RunResult run_cli(const std::vector<std::string>& args) { return run_cli(args, {}); }

}  // namespace ariadne::cli_test
