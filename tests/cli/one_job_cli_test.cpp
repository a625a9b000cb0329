// `ariadne check BIG --jobs 1`, and `ariadne check BIG` pinned to one CPU (as
// `taskset -c 0` pins it), start no helper thread from the first byte read to the
// answer: the command's thread budget (Limits::jobs, from --jobs or the affinity
// mask) reaches reading, the race, the core and the memory watch. The child's
// /proc/PID/task is sampled while it runs; before the budget, reading alone started
// two threads and the whole check five (measured on a 20 MB history).
#include "background_cli.hpp"

#include <doctest/doctest.h>

#include <sched.h>

#include <algorithm>
#include <filesystem>

using namespace ariadne::cli_test;

namespace {

std::size_t task_count(pid_t pid) {
  std::size_t n = 0;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/task", error), end;
       !error && it != end; it.increment(error)) {
    ++n;
  }
  return n;
}

// The most tasks the child had at once, sampled until it ends; its exit status.
std::pair<std::size_t, int> most_tasks(const std::vector<std::string>& args) {
  BackgroundCli cli(args);
  std::size_t most = 0;
  // wait() looks once, then sleeps 10 ms: the helper threads of a read or a race live
  // for hundreds of milliseconds on this history, so they cannot slip between looks.
  do {
    most = std::max(most, task_count(cli.pid()));
  } while (!cli.wait(std::chrono::milliseconds(1)));
  return {most, cli.exit_status()};
}

// Pins this process, and so the children it forks, to its first CPU while alive.
class PinnedToOneCpu {
 public:
  PinnedToOneCpu() {
    ::sched_getaffinity(0, sizeof before_, &before_);
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &before_)) {
        CPU_SET(cpu, &one);
        break;
      }
    }
    ::sched_setaffinity(0, sizeof one, &one);
  }
  ~PinnedToOneCpu() { ::sched_setaffinity(0, sizeof before_, &before_); }
  PinnedToOneCpu(const PinnedToOneCpu&) = delete;
  PinnedToOneCpu& operator=(const PinnedToOneCpu&) = delete;

 private:
  cpu_set_t before_{};
};

}  // namespace

TEST_CASE("check --jobs 1, and check pinned to one CPU, start no helper thread") {
  TempDir dir;
  // Large enough that the file is read by the parallel reader (over 4 MB) and the
  // check takes long enough to be sampled many times.
  const RunResult generated = run_cli({"generate", "atomic", "--model", "cas-register", "--values", "5", "--processes",
                                       "20", "--ops", "100000", "--seed", "1"});
  REQUIRE(generated.status == 0);
  const std::string history = dir.write("big.edn", generated.out);
  const std::vector<std::string> check = {"check", history, "--model", "cas-register(0)"};

  std::vector<std::string> one_job = check;
  one_job.push_back("--jobs");
  one_job.push_back("1");
  const auto [most_with_one_job, status_with_one_job] = most_tasks(one_job);
  CHECK(status_with_one_job == 0);
  CHECK(most_with_one_job == 1);

  PinnedToOneCpu pinned;
  const auto [most_pinned, status_pinned] = most_tasks(check);
  CHECK(status_pinned == 0);
  CHECK(most_pinned == 1);
}
