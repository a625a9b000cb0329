// What the engines, the readers and the memory watch note on a command's Limits, and
// ask of it: its bookkeeping, kept out of the public header (include/ariadne/limits.hpp)
// so that it can change without changing the API. LimitsLedger is the Limits' friend;
// the free functions below are what callers use.
#pragma once

#include <ariadne/limits.hpp>

#include <cstdint>

namespace ariadne::base {

class LimitsLedger {
 public:
  // The watch's verdict at each sample: over the limit or not. Unlike
  // note_memory_exceeded() it is withdrawn once the process is back under the limit,
  // so that a batch of rows under one watch is not stopped for good by one large row.
  static void note_resident_over(const Limits& limits, bool over);
  // The deadline is as good as reached: what is left of it is needed to wind down (to
  // free what a solver holds, say). From now on reached() says timeout.
  static void note_timeout(const Limits& limits);
  // Memory held on the command's behalf outside the process (a solver in a child
  // process), counted with the process's own resident size against memory_limit().
  static void add_outside_bytes(const Limits& limits, std::int64_t delta) {
    limits.outside_bytes_.fetch_add(delta, std::memory_order_relaxed);
    if (limits.parent_) add_outside_bytes(*limits.parent_, delta);
  }
  static std::int64_t outside_bytes(const Limits& limits) {
    return limits.outside_bytes_.load(std::memory_order_relaxed);
  }
  // What the command holds now, as its LimitsWatch last measured it (resident growth
  // since the watch started, plus outside bytes); 0 without a watch.
  static std::uint64_t taken_bytes(const Limits& limits) {
    return limits.parent_ ? taken_bytes(*limits.parent_) : limits.taken_.load(std::memory_order_relaxed);
  }
  static void note_taken_bytes(const Limits& limits, std::uint64_t bytes) {
    limits.taken_.store(bytes, std::memory_order_relaxed);
  }
  // Whether `more` bytes could still be allocated without passing the memory limit,
  // by the watch's last measure: asked before a large allocation (a formula, a
  // solver), which could otherwise pass the limit between two of the watch's samples.
  static bool would_fit(const Limits& limits, std::uint64_t more) {
    if (limits.parent_ && !would_fit(*limits.parent_, more)) return false;
    return limits.memory_limit_ == 0 || taken_bytes(limits) + more <= limits.memory_limit_;
  }
  static void note_resident_bytes(const Limits& limits, std::uint64_t bytes);
  // Engines say when they start and stop running, so a progress line can name them
  // (Limits::running_engines()).
  static void engine_started(const Limits& limits, Engine engine) {
    limits.running_[static_cast<std::size_t>(engine)].fetch_add(1, std::memory_order_relaxed);
  }
  static void engine_stopped(const Limits& limits, Engine engine) {
    limits.running_[static_cast<std::size_t>(engine)].fetch_sub(1, std::memory_order_relaxed);
  }
};

inline void note_resident_over(const Limits& limits, bool over) { LimitsLedger::note_resident_over(limits, over); }
inline void note_timeout(const Limits& limits) { LimitsLedger::note_timeout(limits); }
inline void add_outside_bytes(const Limits& limits, std::int64_t delta) {
  LimitsLedger::add_outside_bytes(limits, delta);
}
inline std::int64_t outside_bytes(const Limits& limits) { return LimitsLedger::outside_bytes(limits); }
inline std::uint64_t taken_bytes(const Limits& limits) { return LimitsLedger::taken_bytes(limits); }
inline void note_taken_bytes(const Limits& limits, std::uint64_t bytes) {
  LimitsLedger::note_taken_bytes(limits, bytes);
}
inline bool would_fit(const Limits& limits, std::uint64_t more) { return LimitsLedger::would_fit(limits, more); }
inline void note_resident_bytes(const Limits& limits, std::uint64_t bytes) {
  LimitsLedger::note_resident_bytes(limits, bytes);
}
inline void engine_started(const Limits& limits, Engine engine) { LimitsLedger::engine_started(limits, engine); }
inline void engine_stopped(const Limits& limits, Engine engine) { LimitsLedger::engine_stopped(limits, engine); }

}  // namespace ariadne::base
