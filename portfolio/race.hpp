// The race: several engines decide one partition side by side, each on its own
// thread; the first answer that survives certification wins, and the others are
// stopped and joined before the race returns, so no engine outlives its race.
#pragma once

#include <ariadne/engine.hpp>

#include "search/search_engine.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ariadne::portfolio {

struct RaceResult {
  // linearizable or not_linearizable with a winner; otherwise stopped (no entrant
  // answered before the StopSignal fired) or out_of_memory.
  search::Outcome outcome = search::Outcome::stopped;
  std::optional<Engine> winner;
  std::vector<std::uint32_t> linearization;  // the winner's, indices into the sub-history
  std::uint64_t steps = 0;                   // model steps of the native entrants
  search::StopSignal::Why stop_reason = search::StopSignal::Why::none;
  // Entrants that gave up on their own, e.g. "sat: the formula outgrew the memory limit".
  std::vector<std::string> withdrawals;
  // Set when an entrant threw: a bug, reported by check() as an InternalError.
  std::string failure;
  // Entrants whose linearization failed certification, in words (not among the
  // withdrawals): their answers were dropped (a bug in that engine) and the race went
  // on without them.
  std::vector<std::string> dropped;
  std::vector<Engine> distrusted;
  // From the answer (or the stop) to the last loser's run() returning, in
  // milliseconds, and which engine that was.
  double stop_latency_ms = 0;
  std::optional<Engine> slowest_to_stop;
  std::vector<Engine> entrants;  // the engines that ran, in the order they joined
};

struct RaceSettings {
  // Set by the race once it has a winner; every entrant's StopSignal must watch it.
  std::atomic<bool>* settled = nullptr;
  // The entrants' StopSignal (deadline, cancel, other partitions), watched by the race
  // too, so that solvers that cannot poll (Z3) are interrupted.
  const search::StopSignal* stop = nullptr;
  // Replays a linearization (indices into the sub-history); nullopt when valid.
  std::function<std::optional<std::string>(const std::vector<std::uint32_t>&)> certify;
  // How much the process may grow while the race runs, in bytes: solvers allocate
  // behind our back, so resident memory is watched and the race stopped beyond it.
  std::uint64_t resident_allowance = 0;
  // When each entrant joins, from the start of the race (missing: at once). An
  // entrant whose time has not come when the race ends never runs.
  std::vector<std::chrono::milliseconds> start_after;
  // Told on the entrant's own thread just before its run() and just after it returns
  // (for the progress line's "engines running"); may be empty.
  std::function<void(const search::SearchEngine&)> started;
  std::function<void(const search::SearchEngine&)> stopped;
};

RaceResult run_race(std::vector<std::unique_ptr<search::SearchEngine>>& entrants, const RaceSettings& settings);

}  // namespace ariadne::portfolio
