// Running the built `ariadne` binary with a watch on it: how long it took, how much
// memory it held at its peak, and whether it had to be killed. The hostile-input and
// limit tests need these three numbers, which cli_runner.hpp's run_cli() does not give.
//
// The peak is the child's VmHWM (/proc/PID/status), read every millisecond from the
// moment it has exec'd until it exits. wait4()'s ru_maxrss would be simpler but is
// wrong here: a forked child starts with its parent's resident size as its high-water
// mark and keeps it across exec, so every child of a test process that has grown to
// 130 MiB would report at least 130 MiB. A peak in the child's last millisecond could
// be missed; the searches measured here peak long before they print and exit.
// Polling against a deadline also turns a hang into a failed check instead of a stuck
// test run.
#pragma once

#include "cli_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace ariadne::cli_test {

struct MeasuredRun {
  int status = -1;                   // the exit status; -1 if the child died by a signal
  bool killed = false;               // still running at the deadline, so killed
  double seconds = 0;                // wall time from fork to exit
  std::uint64_t peak_rss_bytes = 0;  // the child's own peak resident size (VmHWM)
  std::string out;
  std::string err;
};

// The high-water mark of a running process's resident size, or 0 once it has gone.
inline std::uint64_t resident_high_water_mark(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
  }
  return 0;
}

// Runs ARIADNE_CLI_PATH with `args`, killing it if it has not exited after
// `kill_after_seconds`.
inline MeasuredRun run_cli_measured(const std::vector<std::string>& args, double kill_after_seconds) {
  TempDir capture;
  const std::string out_path = (capture.path() / "stdout").string();
  const std::string err_path = (capture.path() / "stderr").string();
  const CliArgv command(args);

  // Closed by a successful exec: reading it to the end waits until the child is
  // ariadne and no longer a copy of this process.
  int exec_done[2];
  if (::pipe2(exec_done, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  const auto started = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    ::close(exec_done[0]);
    exec_cli_into(out_path, err_path, command);
  }
  ::close(exec_done[1]);
  char ignored;
  while (::read(exec_done[0], &ignored, 1) < 0 && errno == EINTR) {
  }
  ::close(exec_done[0]);

  MeasuredRun run;
  const auto deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(kill_after_seconds));
  int wait_status = 0;
  for (;;) {
    run.peak_rss_bytes = std::max(run.peak_rss_bytes, resident_high_water_mark(child));
    const pid_t done = ::waitpid(child, &wait_status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) throw std::runtime_error("waitpid failed");
    if (!run.killed && std::chrono::steady_clock::now() >= deadline) {
      ::kill(child, SIGKILL);
      run.killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  run.out = read_text(out_path);
  run.err = read_text(err_path);
  return run;
}

inline double mebibytes(std::uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

}  // namespace ariadne::cli_test
