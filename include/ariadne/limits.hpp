// The limits of one command, in one object: a deadline, a request to stop (Ctrl-C,
// SIGTERM, a caller's flag), a memory limit and the number of threads it may run at
// once (its jobs), together with the phase the command is in and the engines running
// in it.
//
// A command makes one Limits and hands it to every phase it runs: reading, the
// verdict, the failing-op search, the core, the explanation, the proof, the report.
// No phase keeps a budget of its own; a phase that wants only a share of the time
// asks deadline_within(). Engines and phases poll reached(), which is cheap (two
// atomic loads and a clock read), so a limit stops whatever is running when it is hit,
// and the answer can say which limit stopped which phase.
//
//   ariadne::Limits limits({.timeout_seconds = 5, .memory_limit = 1ULL << 30, .jobs = 1});
//   ariadne::CheckResult r = ariadne::check(history, *model, {.limits = &limits});
//   if (r.verdict == ariadne::Verdict::unknown) ... r.limit, r.phase, r.reason ...
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ariadne {

// engine.hpp. Declared, not included: the limits name no engine, they count them.
enum class Engine : std::uint8_t;

namespace base {
class LimitsLedger;  // the engines' bookkeeping on a Limits (base/limits_ledger.hpp)
}

// The memory limit a command has unless told otherwise: CheckOptions', the command
// line's --memory-limit and the explorer's.
inline constexpr std::uint64_t kDefaultMemoryLimit = std::uint64_t{2} << 30;

// The CPUs this process may run on, by its affinity mask (what `taskset` or a batch
// system such as Slurm allowed it), at least 1: a command's jobs unless told otherwise.
unsigned available_cpus();

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

// What a Limits is made of. An aggregate, so designated initializers name what they
// set: LimitSettings{.timeout_seconds = 5, .jobs = 1}.
struct LimitSettings {
  double timeout_seconds = 0;      // 0: no deadline
  std::uint64_t memory_limit = 0;  // bytes; 0: no memory limit
  // A flag set from elsewhere (a signal handler, another thread) to stop; it must
  // outlive the Limits.
  const std::atomic<bool>* cancel = nullptr;
  // The command's thread budget. 1: no thread is started at all, in any part of the
  // command (reading, vetting, the partitions' workers, the race, the core's
  // decisions, the memory watch). N > 1: the pools (the readers of a file, the
  // vetting, the partitions' and keys' workers, corpus rows) hold at most N threads;
  // a race on one of them still runs each of its few engines (at most four) on a
  // thread of its own. 0: the parent's jobs, or without a parent available_cpus().
  unsigned jobs = 0;
};

class LimitsWatch;

class Limits {
 public:
  using Clock = std::chrono::steady_clock;

  // No limit at all, and available_cpus() jobs.
  Limits() : Limits(LimitSettings{}) {}
  // With `parent` (the command's limits, when this is one row's of several), the
  // parent's limits hold as well: its deadline, its cancel flag, and its memory,
  // which the parent's LimitsWatch measures for the whole process.
  explicit Limits(const LimitSettings& settings, const Limits* parent = nullptr);
  // Deprecated, kept for one version: Limits(LimitSettings{...}, parent) says the same.
  Limits(double timeout_seconds, std::uint64_t memory_limit, const std::atomic<bool>* cancel = nullptr,
         const Limits* parent = nullptr)
      : Limits(LimitSettings{.timeout_seconds = timeout_seconds, .memory_limit = memory_limit, .cancel = cancel},
               parent) {}
  Limits(const Limits&) = delete;
  Limits& operator=(const Limits&) = delete;

  double timeout_seconds() const { return timeout_seconds_; }
  Clock::time_point started() const { return started_; }
  // Clock::time_point::max() without a timeout.
  Clock::time_point deadline() const { return deadline_; }
  // The deadline of a phase that may take at most `budget` of what is left.
  Clock::time_point deadline_within(Clock::duration budget) const;
  std::uint64_t memory_limit() const { return memory_limit_; }
  // LimitSettings::jobs, resolved: at least 1.
  unsigned jobs() const { return jobs_; }

  // What stops the command now: a cancel request first (the user asked), then memory,
  // then the deadline. Once anything is reached it stays reached, except the
  // resident-memory measure, which holds while the process is over the limit.
  Limit reached() const;
  // The first limit reached() reported, none if none has been: the one to name.
  Limit first_reached() const { return static_cast<Limit>(first_reached_.load(std::memory_order_relaxed)); }
  // The phase that was running when first_reached() was first seen.
  Phase phase_when_reached() const { return static_cast<Phase>(phase_reached_.load(std::memory_order_relaxed)); }

  // The memory limit was found exceeded (by a phase of the caller's own, say, whose
  // allocation failed): from now on reached() says memory.
  void note_memory_exceeded() const;
  // The largest resident size the watch saw, process and outside together.
  std::uint64_t peak_resident_bytes() const { return peak_resident_.load(std::memory_order_relaxed); }

  void enter(Phase phase) const { phase_.store(static_cast<std::uint8_t>(phase), std::memory_order_relaxed); }
  Phase phase() const { return static_cast<Phase>(phase_.load(std::memory_order_relaxed)); }
  // The engines running now, in Engine order (engine_name(), engine.hpp, names them);
  // empty when none is.
  std::vector<Engine> running_engines() const;

  // A counter per Engine value (engine.hpp's kEngineCount, which engines/ holds to
  // this bound): limits.hpp sits below the engines and names none of them.
  static constexpr std::size_t kEngineSlots = 8;

  // "timeout after 5 s during the verdict", "memory limit of 1 GiB reached during the
  // minimal core", "cancelled during reading": for first_reached(), or for `limit`.
  std::string describe(Limit limit) const;
  std::string describe() const { return describe(first_reached()); }

 private:
  double timeout_seconds_;
  std::uint64_t memory_limit_;
  unsigned jobs_;
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
  mutable std::array<std::atomic<std::uint32_t>, kEngineSlots> running_{};
  // The watch that samples when polled, with one job (LimitsWatch); null otherwise.
  mutable std::atomic<const LimitsWatch*> polled_watch_{nullptr};
  friend class LimitsWatch;
  friend class base::LimitsLedger;
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

// Watches the process's resident memory every few milliseconds, and notes the memory
// limit exceeded once its growth since the watch started, with the memory held
// outside (a solver's child process), passes limits.memory_limit(): the measure that
// counts everything, solvers' allocations included, where the engines' own accounts
// count only what they know they hold. The resident size the program had when the
// watch started (its code and libraries, a few MiB) is not counted. With `progress`,
// also calls it every 250 ms once `progress_after` has passed, for a progress line.
// The command line keeps one for each command; a library user may keep one around
// check() for the same limit.
//
// With limits.jobs() above 1 the watch samples on a thread of its own. With one job it
// starts none: it samples when the command polls its limits (Limits::reached(), which
// every phase and engine calls between steps), at most every few milliseconds, and
// calls `progress` from there, on the polling thread.
class LimitsWatch {
 public:
  explicit LimitsWatch(const Limits& limits, std::function<void()> progress = {},
                       Limits::Clock::duration progress_after = std::chrono::seconds(2));
  ~LimitsWatch();  // stops the thread and joins it, if there is one
  LimitsWatch(const LimitsWatch&) = delete;
  LimitsWatch& operator=(const LimitsWatch&) = delete;

 private:
  friend class Limits;
  void sample_if_due() const;
  struct State;
  std::unique_ptr<State> state_;
};

// "2 GiB", "512 MiB", or a count of bytes: how limits are named in messages.
std::string format_byte_count(std::uint64_t bytes);

}  // namespace ariadne
