// One job means no helper thread: reading a large file, deciding a history that goes
// to the race and shrinking its core start no thread when the command may use one CPU,
// whether the process is pinned to one (taskset -c 0: the default follows the
// affinity mask) or asked for one (--jobs 1). A sampler counts /proc/self/task while
// the work runs; the sampler itself is counted in the baseline.
#include <ariadne/check.hpp>

#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace ariadne;

namespace {

namespace fs = std::filesystem;

std::size_t task_count() {
  std::size_t n = 0;
  if (DIR* dir = ::opendir("/proc/self/task")) {
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] != '.') ++n;
    }
    ::closedir(dir);
  }
  return n;
}

// The most tasks the process had while `work` ran, beyond those it had before (the
// sampler's own thread included in both). Sampled every 50 us: the helpers this test
// looks for (readers, vetting slices, race entrants) live for milliseconds at least.
std::size_t most_extra_tasks(const std::function<void()>& work) {
  std::atomic<bool> done{false};
  std::atomic<std::size_t> most{0};
  std::thread sampler([&] {
    while (!done.load()) {
      const std::size_t now = task_count();
      if (now > most.load()) most.store(now);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::size_t before = task_count();
  most.store(before);
  work();
  done.store(true);
  sampler.join();
  return most.load() - before;
}

// Pins the calling thread (and the threads it starts) to one CPU while it lives, as
// `taskset -c 0` pins a process.
class PinnedToOneCpu {
 public:
  PinnedToOneCpu() {
    CPU_ZERO(&saved_);
    REQUIRE(::sched_getaffinity(0, sizeof saved_, &saved_) == 0);
    int first = 0;
    while (!CPU_ISSET(first, &saved_)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
  }
  ~PinnedToOneCpu() { ::sched_setaffinity(0, sizeof saved_, &saved_); }
  PinnedToOneCpu(const PinnedToOneCpu&) = delete;
  PinnedToOneCpu& operator=(const PinnedToOneCpu&) = delete;

 private:
  cpu_set_t saved_;
};

// A linearizable register history of `ops` operations, one process writing and
// reading back in turn, as an EDN file of about 60 bytes an event: large enough that
// reading it goes parallel (more than two 1 MiB blocks) and so does vetting its
// operations (more than 100,000).
class LargeHistoryFile {
 public:
  explicit LargeHistoryFile(std::size_t ops)
      : path_(fs::temp_directory_path() / ("ariadne-one-job-" + std::to_string(::getpid()) + ".edn")) {
    std::ofstream out(path_, std::ios::binary);
    for (std::size_t i = 0; i < ops; ++i) {
      const std::size_t value = i / 2 % 5;
      const char* f = i % 2 == 0 ? ":write" : ":read";
      out << "{:type :invoke, :f " << f << ", :value " << (i % 2 == 0 ? std::to_string(value) : "nil")
          << ", :process 0, :index " << 2 * i << "}\n";
      out << "{:type :ok, :f " << f << ", :value " << value << ", :process 0, :index " << 2 * i + 1 << "}\n";
    }
  }
  ~LargeHistoryFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  LargeHistoryFile(const LargeHistoryFile&) = delete;
  LargeHistoryFile& operator=(const LargeHistoryFile&) = delete;
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

// n concurrent writes, each value twice, then reads of 1 and of 2 by one process: not
// linearizable, which WGL takes 2^n steps to see and the solvers see at once, so the
// check goes to the race and then shrinks a core (race_test.cpp explains the shape).
History raced_history(const Model& model, int n = 40) {
  testing::EventScript s;
  for (int p = 0; p < n; ++p) s.invoke(p, "write", testing::I(p / 2 + 1));
  for (int p = 0; p < n; ++p) s.ok(p, "write", testing::I(p / 2 + 1));
  s.invoke(n, "read").ok(n, "read", testing::I(1));
  s.invoke(n, "read").ok(n, "read", testing::I(2));
  return build_history(s.log(), model);
}

}  // namespace

TEST_CASE("pinned to one CPU, reading and checking start no helper thread") {
  const auto model = make_model_from_spec("register(0)");
  const LargeHistoryFile file(120'000);
  const PinnedToOneCpu pinned;
  std::size_t ops = 0;
  Verdict large = Verdict::unknown;
  Verdict raced = Verdict::unknown;
  const std::size_t extra = most_extra_tasks([&] {
    const History history = read_history(file.str(), *model);
    ops = history.ops.size();
    large = check(history, *model, CheckOptions{.timeout_seconds = 120}).verdict;
    raced = check(raced_history(*model), *model, CheckOptions{.timeout_seconds = 120}).verdict;
  });
  CHECK(ops == 120'000);
  CHECK(large == Verdict::linearizable);
  CHECK(raced == Verdict::not_linearizable);
  CHECK(extra == 0);
}

TEST_CASE("with one job asked for, reading and checking start no helper thread, under a watch that has none") {
  const auto model = make_model_from_spec("register(0)");
  const LargeHistoryFile file(120'000);
  const Limits limits(LimitSettings{.timeout_seconds = 120, .memory_limit = std::uint64_t{4} << 30, .jobs = 1});
  std::size_t ops = 0;
  Verdict large = Verdict::unknown;
  Verdict raced = Verdict::unknown;
  const std::size_t extra = most_extra_tasks([&] {
    const LimitsWatch watch(limits);
    const History history = read_history(file.str(), *model, Format::auto_detect, limits);
    ops = history.ops.size();
    large = check(history, *model, CheckOptions{.limits = &limits}).verdict;
    raced = check(raced_history(*model), *model, CheckOptions{.limits = &limits}).verdict;
  });
  CHECK(ops == 120'000);
  CHECK(large == Verdict::linearizable);
  CHECK(raced == Verdict::not_linearizable);
  CHECK(extra == 0);
  CHECK(limits.first_reached() == Limit::none);
}

TEST_CASE("with one job the memory watch samples when the limits are polled") {
  const Limits limits(LimitSettings{.memory_limit = std::uint64_t{16} << 20, .jobs = 1});
  const LimitsWatch watch(limits);
  CHECK(limits.reached() == Limit::none);
  // 64 MiB written, so resident: four times the limit.
  std::vector<char> ballast(std::size_t{64} << 20, 1);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (limits.reached() == Limit::none && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(limits.reached() == Limit::memory);
  CHECK(limits.peak_resident_bytes() >= ballast.size());
}

TEST_CASE("a command's jobs default to the CPUs its affinity mask allows") {
  const unsigned allowed = available_cpus();
  CHECK(allowed >= 1);
  CHECK(Limits().jobs() == allowed);
  CHECK(Limits(LimitSettings{.jobs = 3}).jobs() == 3);
  const Limits parent(LimitSettings{.jobs = 1});
  CHECK(Limits(LimitSettings{.timeout_seconds = 1}, &parent).jobs() == 1);
  {
    const PinnedToOneCpu pinned;
    CHECK(available_cpus() == 1);
    CHECK(Limits().jobs() == 1);
  }
}
