// Real time from timestamps: the rules and the ordering (timestamp_order.hpp).
#include "history/timestamp_order.hpp"

#include <ariadne/errors.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace ariadne {

namespace {

std::string at(const SourcePos& pos) { return std::to_string(pos.line) + ":" + std::to_string(pos.column); }

}  // namespace

void TimestampRules::check(const Event& event) const {
  if (!event.process.is_integer() || !timestamped_) return;
  if (*timestamped_ && !event.timestamp) {
    throw InputError(source_, event.pos,
                     "client event without a timestamp, but the first client event (at " + at(decided_at_) +
                         ") has one: when timestamps give real time, every client event needs one");
  }
  if (!*timestamped_ && event.timestamp) {
    throw InputError(source_, event.pos,
                     "client event with a timestamp, but the first client event (at " + at(decided_at_) +
                         ") has none: timestamps give real time only when every client event has one");
  }
  if (!*timestamped_) return;
  const auto latest = latest_.find(event.process.as_integer());
  if (latest != latest_.end() && *event.timestamp < latest->second.timestamp) {
    throw InputError(source_, event.pos,
                     "timestamp " + std::to_string(*event.timestamp) + " of process " +
                         std::to_string(event.process.as_integer()) + " goes back from " +
                         std::to_string(latest->second.timestamp) + ", its event's at " + at(latest->second.pos) +
                         ": a process's events must come in time order");
  }
}

void TimestampRules::note(const Event& event) {
  if (!event.process.is_integer()) return;
  if (!timestamped_) {
    timestamped_ = event.timestamp.has_value();
    decided_at_ = event.pos;
  }
  if (*timestamped_) latest_[event.process.as_integer()] = {*event.timestamp, event.pos};
}

void TimestampOrder::add(Event&& event) {
  rules_.check(event);
  rules_.note(event);
  const std::optional<bool> timestamped = rules_.timestamped();
  if (timestamped == false) {
    // No timestamps: file order is real time, and events pass straight on. Those of
    // non-clients held before the first client event go first.
    if (!held_.empty()) finish();
    next_.add(std::move(event));
    return;
  }
  // Timestamped, or undecided (non-client events alone so far): held. An event without
  // a timestamp (a non-client's) keeps its place after the event before it.
  latest_ = event.timestamp.value_or(latest_);
  held_.push_back({latest_, std::move(event)});
}

void TimestampOrder::finish() {
  if (rules_.timestamped() == true) {
    std::stable_sort(held_.begin(), held_.end(),
                     [](const Held& a, const Held& b) { return a.timestamp < b.timestamp; });
  }
  for (Held& held : held_) next_.add(std::move(held.event));
  held_.clear();
  held_.shrink_to_fit();
}

}  // namespace ariadne
