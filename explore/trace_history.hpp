// A replayed trajectory's steps written as a history ariadne (and Knossos) can read:
// client events with integer processes, and each internal step as an :info event of
// a keyword process, e.g. {:process :n2, :type :info, :f :replicate-from-primary,
// :value :n1}, which checkers ignore (history.hpp) but readers of the file need.
#pragma once

#include "explore/explorer.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace ariadne::explore {

struct TraceHistoryNames {
  std::function<std::string(std::uint8_t)> actor;  // "n1", "coord"
  std::function<std::string(std::uint8_t)> note;   // "replicate-from-primary"
};

// Fills trace.history (source "trajectory") and trace.event_step from trace.steps.
void write_trace_history(Trace& trace, const TraceHistoryNames& names);

}  // namespace ariadne::explore
