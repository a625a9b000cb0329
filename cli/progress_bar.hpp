// A one-line progress display for `ariadne corpus` on stderr: done/total, mismatches
// so far and a file being checked, redrawn in place and erased at the end so the
// final report starts on a clean line. It draws only when enabled (stderr is a
// terminal); otherwise every call is a no-op. Safe to call from several workers.
#pragma once

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace ariadne::cli {

class ProgressBar {
 public:
  ProgressBar(std::FILE* out, std::size_t total, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void started(const std::string& name);
  void finished(const std::string& name, bool matched);
  // Clears the line; later calls draw nothing.
  void erase();

 private:
  void draw(bool force);  // with mutex_ held

  std::FILE* out_;
  std::size_t total_;
  bool enabled_;
  std::mutex mutex_;
  std::size_t done_ = 0;
  std::size_t mismatches_ = 0;
  std::vector<std::string> running_;  // in start order
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace ariadne::cli
