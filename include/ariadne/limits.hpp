// The limits of one command, in one object: a deadline, a request to stop (Ctrl-C,
// SIGTERM, a caller's flag) and a memory limit, together with the phase the command is
// in and the engines running in it.
//
// A command makes one Limits and hands it to every phase it runs: reading, the
// verdict, the failing-op search, the core, the explanation, the proof, the report.
// No phase keeps a budget of its own; a phase that wants only a share of the time
// asks deadline_within(). Engines and phases poll reached(), which is cheap (two
// atomic loads and a clock read), so a limit stops whatever is running when it is hit,
// and the answer can say which limit stopped which phase.
//
//   ariadne::Limits limits(/*timeout_seconds=*/5, /*memory_limit=*/1ULL << 30);
//   ariadne::CheckResult r = ariadne::check(history, *model, {.limits = &limits});
//   if (r.verdict == ariadne::Verdict::unknown) ... r.limit, r.phase, r.reason ...
#pragma once

#include <ariadne/engine.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne {

// Which limit stopped something; none while nothing has.
enum class Limit : std::uint8_t { none, timeout, memory, cancelled };
std::string_view limit_name(Limit limit);  // "", "timeout", "memory", "cancelled"

// What a command is doing, for progress lines and for saying where a limit was hit.
enum class Phase : std::uint8_t {
  starting,
  reading,      // reading and pairing the history
  verdict,      // the engines deciding
  failing_op,   // the search for Knossos' failing op and the linearizable prefix
  core,         // shrinking the refuted partition to a minimal core
  explanation,  // the explanation's dead-end search
  proof,        // writing the core's DRAT proof
  report,       // writing the HTML report
  done,
};
// For JSON: "starting", "reading", "verdict", "failing-op", "core", "explanation",
// "proof", "report", "done".
std::string_view phase_id(Phase phase);
// For sentences: "reading", "the verdict", "the minimal core", ...
std::string_view phase_name(Phase phase);

class Limits {
 public:
  using Clock = std::chrono::steady_clock;

  // No limit at all.
  Limits() : Limits(0, 0, nullptr) {}
  // timeout_seconds 0: no deadline; memory_limit 0: no memory limit; cancel: a flag set
  // from elsewhere (a signal handler, another thread) to stop; it must outlive this.
  // With `parent` (the command's limits, when this is one row's of several), the
  // parent's limits hold as well: its deadline, its cancel flag, and its memory,
  // which the parent's LimitsWatch measures for the whole process.
  Limits(double timeout_seconds, std::uint64_t memory_limit, const std::atomic<bool>* cancel = nullptr,
         const Limits* parent = nullptr);
  Limits(const Limits&) = delete;
  Limits& operator=(const Limits&) = delete;

  double timeout_seconds() const { return timeout_seconds_; }
  Clock::time_point started() const { return started_; }
  // Clock::time_point::max() without a timeout.
  Clock::time_point deadline() const { return deadline_; }
  // The deadline of a phase that may take at most `budget` of what is left.
  Clock::time_point deadline_within(Clock::duration budget) const;
  std::uint64_t memory_limit() const { return memory_limit_; }
  const std::atomic<bool>* cancel_flag() const { return cancel_; }

  // What stops the command now: a cancel request first (the user asked), then memory,
  // then the deadline. Once anything is reached it stays reached, except the
  // resident-memory measure, which holds while the process is over the limit.
  Limit reached() const;
  // The first limit reached() reported, none if none has been: the one to name.
  Limit first_reached() const { return static_cast<Limit>(first_reached_.load(std::memory_order_relaxed)); }
  // The phase that was running when first_reached() was first seen.
  Phase phase_when_reached() const { return static_cast<Phase>(phase_reached_.load(std::memory_order_relaxed)); }

  // The memory limit was found exceeded (by the resident-memory watch, or by an engine
  // whose own account went over): from now on reached() says memory.
  void note_memory_exceeded() const;
  // The LimitsWatch's verdict at each sample: over the limit or not. Unlike the above
  // it is withdrawn once the process is back under the limit, so that a batch of rows
  // under one watch is not stopped for good by one large row.
  void note_resident_over(bool over) const;
  // The deadline is as good as reached: what is left of it is needed to wind down (to
  // free what a solver holds, say). From now on reached() says timeout.
  void note_timeout() const;
  // Memory held on this command's behalf outside the process (a solver in a child
  // process), counted with the process's own resident size against memory_limit().
  void add_outside_bytes(std::int64_t delta) const {
    outside_bytes_.fetch_add(delta, std::memory_order_relaxed);
    if (parent_) parent_->add_outside_bytes(delta);
  }
  std::int64_t outside_bytes() const { return outside_bytes_.load(std::memory_order_relaxed); }
  // What the command holds now, as its LimitsWatch last measured it (resident growth
  // since the watch started, plus outside bytes); 0 without a watch.
  std::uint64_t taken_bytes() const {
    return parent_ ? parent_->taken_bytes() : taken_.load(std::memory_order_relaxed);
  }
  void note_taken_bytes(std::uint64_t bytes) const { taken_.store(bytes, std::memory_order_relaxed); }
  // Whether `more` bytes could still be allocated without passing the memory limit,
  // by the watch's last measure: asked before a large allocation (a formula, a
  // solver), which could otherwise pass the limit between two of the watch's samples.
  bool would_fit(std::uint64_t more) const {
    if (parent_ && !parent_->would_fit(more)) return false;
    return memory_limit_ == 0 || taken_bytes() + more <= memory_limit_;
  }
  // The largest resident size the watch saw, process and outside together.
  std::uint64_t peak_resident_bytes() const { return peak_resident_.load(std::memory_order_relaxed); }
  void note_resident_bytes(std::uint64_t bytes) const;

  void enter(Phase phase) const { phase_.store(static_cast<std::uint8_t>(phase), std::memory_order_relaxed); }
  Phase phase() const { return static_cast<Phase>(phase_.load(std::memory_order_relaxed)); }
  // Engines say when they start and stop running, so a progress line can name them.
  void engine_started(Engine engine) const;
  void engine_stopped(Engine engine) const;
  // The engines running now, in Engine order (engine_name() names them); empty when
  // none is.
  std::vector<Engine> running_engines() const;

  // "timeout after 5 s during the verdict", "memory limit of 1 GiB reached during the
  // minimal core", "cancelled during reading": for first_reached(), or for `limit`.
  std::string describe(Limit limit) const;
  std::string describe() const { return describe(first_reached()); }

 private:
  double timeout_seconds_;
  std::uint64_t memory_limit_;
  const std::atomic<bool>* cancel_;
  const Limits* parent_;
  Clock::time_point started_;
  Clock::time_point deadline_;
  mutable std::atomic<bool> memory_exceeded_{false};
  mutable std::atomic<bool> resident_over_{false};
  mutable std::atomic<bool> timeout_noted_{false};
  mutable std::atomic<std::uint8_t> first_reached_{0};
  mutable std::atomic<std::uint8_t> phase_reached_{0};
  mutable std::atomic<std::uint8_t> phase_{0};
  mutable std::atomic<std::int64_t> outside_bytes_{0};
  mutable std::atomic<std::uint64_t> peak_resident_{0};
  mutable std::atomic<std::uint64_t> taken_{0};
  mutable std::array<std::atomic<std::uint32_t>, kEngineCount> running_{};
};

// Thrown by a phase that has no answer to give when a limit stops it (reading a
// history cut short has nothing to check); phases that do have one (the verdict:
// unknown; a core: not minimal) return it instead.
class LimitReached : public std::runtime_error {
 public:
  LimitReached(Limit limit, const std::string& what) : std::runtime_error(what), limit_(limit) {}
  Limit limit() const { return limit_; }

 private:
  Limit limit_;
};

// Watches the process's resident memory on a thread of its own, every few
// milliseconds, and notes the memory limit exceeded once its growth since the watch
// started, with the memory held outside (Limits::add_outside_bytes), passes
// limits.memory_limit(): the measure that counts everything, solvers' allocations
// included, where the engines' own accounts count only what they know they hold.
// The resident size the program had when the watch started (its code and libraries,
// a few MiB) is not counted. With `progress`, also calls it every 250 ms
// once `progress_after` has passed, for a progress line. The command line keeps one
// for each command; a library user may keep one around check() for the same limit.
class LimitsWatch {
 public:
  explicit LimitsWatch(const Limits& limits, std::function<void()> progress = {},
                       Limits::Clock::duration progress_after = std::chrono::seconds(2));
  ~LimitsWatch();  // stops the thread and joins it
  LimitsWatch(const LimitsWatch&) = delete;
  LimitsWatch& operator=(const LimitsWatch&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// "2 GiB", "512 MiB", or a count of bytes: how limits are named in messages.
std::string format_byte_count(std::uint64_t bytes);

}  // namespace ariadne
