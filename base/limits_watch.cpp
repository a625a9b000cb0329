// LimitsWatch (include/ariadne/limits.hpp): one thread that samples the process's
// resident size for the memory limit and paces the progress line.
//
// Why a thread and not a poll inside the engines: a third-party call (CaDiCaL loading
// a formula, an allocation-heavy phase of our own) can grow the process for a long
// time between two polls, and the resident size is the only measure that sees every
// allocation. The thread only raises the Limits' memory flag; the phase that is
// running sees it at its next poll and stops, so nothing is torn down from outside.
#include <ariadne/limits.hpp>

#include "base/resident_memory.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace ariadne {

namespace {

// Fast enough that a phase allocating at memory bandwidth overshoots by tens of
// megabytes at most; slow enough to cost nothing (one read of /proc/self/statm).
constexpr auto kSamplePeriod = std::chrono::milliseconds(5);
constexpr auto kProgressPeriod = std::chrono::milliseconds(250);

}  // namespace

struct LimitsWatch::State {
  const Limits& limits;
  std::function<void()> progress;
  Limits::Clock::duration progress_after;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;

  State(const Limits& l, std::function<void()> p, Limits::Clock::duration after)
      : limits(l), progress(std::move(p)), progress_after(after) {}

  void watch() {
    auto next_progress = limits.started() + progress_after;
    // The program itself (its code, its libraries, the allocator's first arenas) is
    // resident before any work starts; the limit is on what the work takes beyond it.
    const std::uint64_t baseline = base::resident_bytes();
    std::unique_lock lock(mutex);
    while (!wake.wait_for(lock, kSamplePeriod, [&] { return stopping; })) {
      const std::int64_t outside_signed = limits.outside_bytes();
      const std::uint64_t outside = outside_signed > 0 ? static_cast<std::uint64_t>(outside_signed) : 0;
      const std::uint64_t resident = base::resident_bytes();
      limits.note_resident_bytes(resident + outside);
      const std::uint64_t taken = (resident > baseline ? resident - baseline : 0) + outside;
      limits.note_taken_bytes(taken);
      if (limits.memory_limit() > 0) limits.note_resident_over(taken > limits.memory_limit());
      if (progress && Limits::Clock::now() >= next_progress) {
        lock.unlock();
        progress();
        lock.lock();
        next_progress = Limits::Clock::now() + kProgressPeriod;
      }
    }
  }
};

LimitsWatch::LimitsWatch(const Limits& limits, std::function<void()> progress, Limits::Clock::duration progress_after)
    : state_(std::make_unique<State>(limits, std::move(progress), progress_after)) {
  state_->thread = std::thread([state = state_.get()] { state->watch(); });
}

LimitsWatch::~LimitsWatch() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  state_->thread.join();
}

}  // namespace ariadne
