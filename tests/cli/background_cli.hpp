// The command line started in the background as a child process, its stdout and
// stderr going to files, for tests that signal it while it runs (Ctrl-C, SIGTERM)
// and time how long it takes to end.
#pragma once

#include "cli_runner.hpp"

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ariadne::cli_test {

// The CLI started in the background, stdout and stderr going to files.
class BackgroundCli {
 public:
  explicit BackgroundCli(const std::vector<std::string>& args) {
    const std::string out = (capture_.path() / "stdout").string();
    const std::string err = (capture_.path() / "stderr").string();
    const CliArgv command(args);
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) exec_cli_into(out, err, command);
  }
  ~BackgroundCli() {
    if (pid_ > 0 && !finished_) {
      ::kill(pid_, SIGKILL);
      int ignored = 0;
      ::waitpid(pid_, &ignored, 0);
    }
  }
  BackgroundCli(const BackgroundCli&) = delete;
  BackgroundCli& operator=(const BackgroundCli&) = delete;

  void signal(int number) const { ::kill(pid_, number); }

  // Waits up to `limit` for the child to end; false if it is still running.
  bool wait(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        finished_ = true;
        exited_ = WIFEXITED(status);
        exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  // Waits up to `limit` for `text` to appear on the child's stderr; false if it does not.
  bool wait_for_stderr(const std::string& text, std::chrono::milliseconds limit) const {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (err().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  pid_t pid() const { return pid_; }
  bool exited() const { return exited_; }
  int exit_status() const { return exit_status_; }
  std::string out() const { return read_text(capture_.path() / "stdout"); }
  std::string err() const { return read_text(capture_.path() / "stderr"); }

 private:
  TempDir capture_;
  pid_t pid_ = -1;
  bool finished_ = false;
  bool exited_ = false;
  int exit_status_ = -1;
};

}  // namespace ariadne::cli_test
