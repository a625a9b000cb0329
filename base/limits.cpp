// ariadne::Limits (include/ariadne/limits.hpp): the one object a command's phases poll.
#include <ariadne/limits.hpp>

#include "base/limits_ledger.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace ariadne {

namespace {

// One row per enumerator, in declaration order: its JSON id and its words.
struct PhaseNames {
  std::string_view id;
  std::string_view words;
};
constexpr std::array<PhaseNames, 9> kPhaseNames{{
    {"starting", "starting"},
    {"reading", "reading"},
    {"verdict", "the verdict"},
    {"failing-op", "the failing-op search"},
    {"core", "the minimal core"},
    {"explanation", "the explanation"},
    {"proof", "the proof"},
    {"report", "the report"},
    {"done", "the end"},
}};
static_assert(kPhaseNames.size() == static_cast<std::size_t>(Phase::done) + 1, "a row for every Phase");

constexpr std::array<std::string_view, 4> kLimitNames{"", "timeout", "memory", "cancelled"};
static_assert(kLimitNames.size() == static_cast<std::size_t>(Limit::cancelled) + 1, "a name for every Limit");

const PhaseNames& names_of(Phase phase) {
  const auto i = static_cast<std::size_t>(phase);
  return kPhaseNames[i < kPhaseNames.size() ? i : 0];
}

}  // namespace

std::string_view limit_name(Limit limit) {
  const auto i = static_cast<std::size_t>(limit);
  return i < kLimitNames.size() ? kLimitNames[i] : "";
}

std::string_view phase_id(Phase phase) { return names_of(phase).id; }

std::string_view phase_name(Phase phase) { return names_of(phase).words; }

std::string format_byte_count(std::uint64_t bytes) {
  if (bytes != 0 && bytes % (1ULL << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes != 0 && bytes % (1ULL << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

Limits::Limits(const LimitSettings& settings, const Limits* parent)
    : timeout_seconds_(settings.timeout_seconds > 0 ? settings.timeout_seconds : 0),
      memory_limit_(settings.memory_limit),
      jobs_(settings.jobs != 0 ? settings.jobs
            : parent           ? parent->jobs()
                               : available_cpus()),
      cancel_(settings.cancel),
      parent_(parent),
      started_(Clock::now()),
      deadline_(timeout_seconds_ > 0 ? started_ + std::chrono::duration_cast<Clock::duration>(
                                                      std::chrono::duration<double>(timeout_seconds_))
                                     : Clock::time_point::max()) {
  if (parent_) deadline_ = std::min(deadline_, parent_->deadline());
}

Limits::Clock::time_point Limits::deadline_within(Clock::duration budget) const {
  const auto now = Clock::now();
  // now + budget cannot overflow for any budget a phase asks for (hours at most), but
  // a caller asking for "everything" may pass duration::max().
  if (budget >= deadline_ - now) return deadline_;
  return now + budget;
}

Limit Limits::reached() const {
  // A LimitsWatch without a thread of its own (one job) samples here, when due.
  if (const LimitsWatch* watch = polled_watch_.load(std::memory_order_relaxed)) watch->sample_if_due();
  Limit limit = parent_ ? parent_->reached() : Limit::none;
  if (limit != Limit::none) {
    // The parent's limit is this one's too.
  } else if (cancel_ && cancel_->load(std::memory_order_relaxed)) {
    limit = Limit::cancelled;
  } else if (memory_exceeded_.load(std::memory_order_relaxed) || resident_over_.load(std::memory_order_relaxed)) {
    limit = Limit::memory;
  } else if (timeout_noted_.load(std::memory_order_relaxed) ||
             (deadline_ != Clock::time_point::max() && Clock::now() >= deadline_)) {
    limit = Limit::timeout;
  }
  if (limit != Limit::none && first_reached_.load(std::memory_order_relaxed) == 0) {
    std::uint8_t none = 0;
    if (first_reached_.compare_exchange_strong(none, static_cast<std::uint8_t>(limit))) {
      phase_reached_.store(phase_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    }
  }
  return limit;
}

void Limits::note_memory_exceeded() const {
  memory_exceeded_.store(true, std::memory_order_relaxed);
  (void)reached();
}

namespace base {

void LimitsLedger::note_resident_over(const Limits& limits, bool over) {
  limits.resident_over_.store(over, std::memory_order_relaxed);
  if (over) (void)limits.reached();
}

void LimitsLedger::note_timeout(const Limits& limits) {
  if (limits.deadline_ == Limits::Clock::time_point::max()) return;
  limits.timeout_noted_.store(true, std::memory_order_relaxed);
  (void)limits.reached();
}

void LimitsLedger::note_resident_bytes(const Limits& limits, std::uint64_t bytes) {
  std::uint64_t peak = limits.peak_resident_.load(std::memory_order_relaxed);
  while (bytes > peak && !limits.peak_resident_.compare_exchange_weak(peak, bytes, std::memory_order_relaxed)) {
  }
}

}  // namespace base

std::vector<Engine> Limits::running_engines() const {
  std::vector<Engine> out;
  for (std::size_t i = 0; i < kEngineSlots; ++i) {
    if (running_[i].load(std::memory_order_relaxed) != 0) out.push_back(static_cast<Engine>(i));
  }
  return out;
}

std::string Limits::describe(Limit limit) const {
  const std::string during = " during " + std::string(phase_name(phase_when_reached()));
  switch (limit) {
    case Limit::none: return "";
    case Limit::timeout: {
      char seconds[64];
      std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds_);
      return std::string("timeout after ") + seconds + " s" + during;
    }
    case Limit::memory: return "memory limit of " + format_byte_count(memory_limit_) + " reached" + during;
    case Limit::cancelled: return "cancelled" + during;
  }
  return "";
}

}  // namespace ariadne
