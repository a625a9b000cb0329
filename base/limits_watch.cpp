// LimitsWatch (include/ariadne/limits.hpp): samples the process's resident size for
// the memory limit and paces the progress line, on a thread of its own or, with one
// job, from the command's polls of its limits.
//
// Why a thread and not a poll inside the engines: a third-party call (CaDiCaL loading
// a formula, an allocation-heavy phase of our own) can grow the process for a long
// time between two polls, and the resident size is the only measure that sees every
// allocation. The thread only raises the Limits' memory flag; the phase that is
// running sees it at its next poll and stops, so nothing is torn down from outside.
// With one job there is no thread to spare: the polls sample instead. The memory
// limit still holds, a poll later: the engines' own accounts and the would_fit()
// questions before large allocations (base/limits_ledger.hpp) act before the memory
// is taken, and CaDiCaL polls while it loads a formula (its terminate() asks the
// StopSignal); Z3 solves in a child process the parent watches (isolated_decision).
#include <ariadne/limits.hpp>

#include "base/limits_ledger.hpp"
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
  // The program itself (its code, its libraries, the allocator's first arenas) is
  // resident before any work starts; the limit is on what the work takes beyond it.
  const std::uint64_t baseline = base::resident_bytes();
  Limits::Clock::time_point next_progress;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;
  // Polled (one job): when the next sample is due, in Clock ticks.
  std::atomic<Limits::Clock::rep> next_sample{0};

  State(const Limits& l, std::function<void()> p, Limits::Clock::duration after)
      : limits(l), progress(std::move(p)), next_progress(l.started() + after) {}

  // One sample, and the progress line when it is due: from the thread, or from a poll.
  void sample() {
    const std::int64_t outside_signed = base::outside_bytes(limits);
    const std::uint64_t outside = outside_signed > 0 ? static_cast<std::uint64_t>(outside_signed) : 0;
    const std::uint64_t resident = base::resident_bytes();
    base::note_resident_bytes(limits, resident + outside);
    const std::uint64_t taken = (resident > baseline ? resident - baseline : 0) + outside;
    base::note_taken_bytes(limits, taken);
    if (limits.memory_limit() > 0) base::note_resident_over(limits, taken > limits.memory_limit());
  }

  bool progress_due() const { return progress && Limits::Clock::now() >= next_progress; }
  void show_progress() {
    progress();
    next_progress = Limits::Clock::now() + kProgressPeriod;
  }

  void watch() {
    std::unique_lock lock(mutex);
    while (!wake.wait_for(lock, kSamplePeriod, [&] { return stopping; })) {
      sample();
      if (progress_due()) {
        lock.unlock();
        show_progress();
        lock.lock();
      }
    }
  }

  void sample_if_due() {
    const Limits::Clock::rep now = Limits::Clock::now().time_since_epoch().count();
    Limits::Clock::rep due = next_sample.load(std::memory_order_relaxed);
    if (now < due) return;
    // Whoever moves the next sample on takes this one: a poll from inside the sample
    // (note_resident_over asks reached()) or from another thread finds it not due.
    const Limits::Clock::rep next = now + std::chrono::duration_cast<Limits::Clock::duration>(kSamplePeriod).count();
    if (!next_sample.compare_exchange_strong(due, next, std::memory_order_relaxed)) return;
    sample();
    if (progress_due()) show_progress();
  }
};

LimitsWatch::LimitsWatch(const Limits& limits, std::function<void()> progress, Limits::Clock::duration progress_after)
    : state_(std::make_unique<State>(limits, std::move(progress), progress_after)) {
  if (limits.jobs() <= 1) {
    limits.polled_watch_.store(this, std::memory_order_relaxed);
    return;
  }
  state_->thread = std::thread([state = state_.get()] { state->watch(); });
}

LimitsWatch::~LimitsWatch() {
  if (!state_->thread.joinable()) {
    state_->limits.polled_watch_.store(nullptr, std::memory_order_relaxed);
    return;
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  state_->thread.join();
}

void LimitsWatch::sample_if_due() const { state_->sample_if_due(); }

}  // namespace ariadne
