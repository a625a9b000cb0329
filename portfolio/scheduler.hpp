// Deciding the partitions of one check: the engines scheduled over worker threads.
//
// Partitions are time-sliced (a budget of model steps per turn, doubling each turn)
// across the worker threads, so a key that is hard to decide cannot keep a worker
// from the key that refutes the whole history. A refutation stops the partitions after
// it (in order of first appearance) and lets those before it finish within a grace, so
// that the partition reported is the first refuted one, not the first found.
// With --engine auto, a partition first meets the engines the table runs first
// (RaceRole::first), then its opening search alone, then the race (race_plan.hpp);
// the worker that started a race referees it and comes back to the queue when it
// ends. Every linearization is replayed by the certificate checker on the worker that
// found it. Threads are started here, in race.cpp and in parallel.cpp only, and none
// at all with one job (Limits::jobs()): one worker, the race in turns, the grace
// polled.
#pragma once

#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>
#include <ariadne/options.hpp>

#include "portfolio/partition.hpp"
#include "search/search_engine.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace ariadne::portfolio {

struct Schedule {
  std::uint64_t peak_search_bytes = 0;
  // The check's own limits (deadline, cancel, memory) without "another partition
  // decided": what the phases after the verdict may still run under.
  search::StopSignal limits;
};

// Decides `parts` (from split()) with `engine`, filling each partition's answer:
// linearizable ones certified and chained for the merge, the first refuted one with
// its refuting ops, the others stopped. Throws InternalError when an engine failed
// or a certificate did not hold (a bug).
// `distrusted`: engines whose refutation a confirmation contradicted in this check
// (confirmation.hpp); the race runs without them.
// `on_refuted(i)`: called once for each partition i that becomes the first refuted in
// order so far, on the worker that refuted it, with no lock held, while the partitions
// before it may still run (the grace, see scheduler.cpp): the caller confirms the
// refutation there, so that the verdict is known as soon as any key is refuted, and
// the wait for earlier keys only settles which key is reported. Its limits are the
// check's own (Schedule::limits).
using RefutedHook = std::function<void(std::size_t, const search::StopSignal& limits)>;
Schedule schedule(std::vector<Partition>& parts, const Model& model, const CheckOptions& options, const Limits& limits,
                  Engine engine, std::span<const Engine> distrusted = {}, const RefutedHook& on_refuted = {});

}  // namespace ariadne::portfolio
