// Real time from timestamps (docs/formats.md, "Timestamps"). A harness that records
// from many threads appends an event some time after it happened, so its file order
// can differ from real time; one that stamps each event with one clock (a call's time
// on the invocation, a return's on the completion, as Porcupine's Operation does)
// knows better. When a history's client events carry timestamps, real time is their
// order, ties in file order, as if the file had been sorted by timestamp first: op ids
// are positions in that order, and every message still names the event's place in the
// file.
//
// The rules, each an InputError at the event that breaks it:
//  - the first client event decides: timestamps on every client event, or on none;
//  - a process's events are in time order in the file too (its timestamps never go
//    back), so the per-process rules (an op completed twice, a second invocation
//    while one is open) mean the same in file order and in time order, and are held
//    where the event is added;
//  - an event of a process that is no client (:nemesis) may go without one: it keeps
//    its place after the event before it.
//
// Jepsen's :time is not a timestamp here: it comes from per-node clocks in some
// histories (Knossos' etcd.edn), and file order is the truth for those.
#pragma once

#include <ariadne/history.hpp>

#include "history/event_sink.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ariadne {

// The rules above, for a history built event by event (the C API, which holds them at
// the call). check() throws without changing anything; note() records an event that
// check() accepted.
class TimestampRules {
 public:
  explicit TimestampRules(std::string source) : source_(std::move(source)) {}
  void check(const Event& event) const;
  void note(const Event& event);
  // Whether the client events carry timestamps; nullopt while no client event was seen.
  std::optional<bool> timestamped() const { return timestamped_; }

 private:
  std::string source_;
  std::optional<bool> timestamped_;
  SourcePos decided_at_;  // the first client event
  struct Latest {
    std::int64_t timestamp = 0;
    SourcePos pos;
  };
  std::unordered_map<std::int64_t, Latest> latest_;  // per client process
};

// Between a reader and its sink: events pass straight through when the history has no
// timestamps; with them, they are held, then handed on in timestamp order by finish().
// Events of processes that are no client, before the first client event, are held
// until that event says which it is.
class TimestampOrder final : public EventSink {
 public:
  TimestampOrder(EventSink& next, std::string source) : next_(next), rules_(std::move(source)) {}
  void add(Event&& event) override;
  void passed(std::size_t offset) override { next_.passed(offset); }
  void warn(ReadWarning warning) override { next_.warn(std::move(warning)); }
  // Hands on what is held. Call once, after the last add().
  void finish();
  // Whether the client events carry timestamps; nullopt while no client event was seen.
  std::optional<bool> timestamped() const { return rules_.timestamped(); }

 private:
  struct Held {
    std::int64_t timestamp;  // the event's, or the one before it for a non-client event
    Event event;
  };
  EventSink& next_;
  TimestampRules rules_;
  std::vector<Held> held_;
  std::int64_t latest_ = INT64_MIN;  // the timestamp an event without one inherits
};

}  // namespace ariadne
