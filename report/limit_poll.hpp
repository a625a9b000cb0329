// The command's limits, polled while a report is built: the HTML report of a
// million-op history takes seconds and hundreds of megabytes, and --timeout,
// --memory-limit and Ctrl-C hold in it as in every other phase. A report stopped
// by a limit has nothing partial worth writing, so the poll throws LimitReached and
// the caller says the report was not written, and why.
#pragma once

#include <ariadne/limits.hpp>

#include <cstdint>
#include <string>

namespace ariadne::report {

class LimitPoll {
 public:
  explicit LimitPoll(const Limits* limits) : limits_(limits) {}

  // Throws LimitReached once a limit is reached.
  void check() const {
    if (limits_ == nullptr) return;
    if (const Limit limit = limits_->reached(); limit != Limit::none) {
      throw LimitReached(limit, "no report: " + limits_->describe(limit));
    }
  }
  // For a loop's every step: checks once every 4,096 steps, which keeps the cost of
  // the clock read out of loops whose steps take nanoseconds.
  void step() {
    if ((++steps_ & 4095) == 0) check();
  }

 private:
  const Limits* limits_;
  std::uint64_t steps_ = 0;
};

}  // namespace ariadne::report
