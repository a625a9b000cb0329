// The race: several engines decide one partition side by side, each on its own
// thread; the first answer that survives certification wins, and the others are
// stopped and joined before the race returns, so no engine outlives its race. With
// one job the entrants take turns on the calling thread instead (race_in_turn.cpp).
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
  // answered before the StopSignal fired), out_of_memory, or engine_failed (an entrant
  // threw and none answered: `failure` says what).
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
  // The command's jobs (Limits::jobs()). 1: no thread is started, the entrants take
  // turns on the calling thread (run_race_in_turn). 0 or more: a thread per entrant.
  unsigned jobs = 0;
};

RaceResult run_race(std::vector<std::unique_ptr<search::SearchEngine>>& entrants, const RaceSettings& settings);

// What both races do with a linearizable answer: the certificate checker replays it
// first. True when the race is over: the answer won, or its check threw (bad_alloc:
// out of memory; anything else: the race's failure, an internal error after it). A
// check that finds a problem drops the answer and distrusts the engine: false.
bool take_linearization(const RaceSettings& settings, const search::SearchEngine& engine, RaceResult& result,
                        bool& out_of_memory);
// What both races record of an entrant that gave up (out of memory, stopped,
// undecided, failed): the withdrawal it gives, else why it was stopped.
void note_give_up(const search::SearchEngine& engine, search::Outcome outcome, RaceResult& result, bool& out_of_memory);
// A race that ended without a winner: failed if an entrant failed, else out of memory
// if one ran out, else stopped.
void settle_without_winner(RaceResult& result, bool out_of_memory);

// The race on the calling thread alone, what run_race() runs with one job. Round after
// round, each entrant still in it runs in turn: a native search for a budget of steps
// that doubles every round (SearchEngine::run resumes where it stopped), a solver,
// which takes no budget, until it answers or its StopSignal fires; the solvers only
// once the searches have had the race alone for a while (race_in_turn.cpp), since a
// solver's turn cannot be cut short. The first answer that survives certification
// wins, as in the threaded race. Otherwise start_after is not waited for: the plan's
// order is kept.
//
// Why the answers are the ones the threaded race gives: every entrant decides the
// same question, a linearizable answer wins only once the certificate checker has
// replayed it and a refutation is the engine's own (exhaustive search, solver), so
// whichever entrant answers first, in time or in turn, the verdict is the history's.
// Only which engine wins, and how soon, may differ. Why the limits still hold: each
// entrant polls its StopSignal (deadline, cancel, the memory limit seen exceeded) as
// it does in the threaded race, CaDiCaL through its terminate() callback and Z3 in
// the child process its parent polls (solvers/isolated_decision.hpp: a process, not a
// thread of ours); what the referee thread added, interrupting on a stop and
// watching resident memory, is the entrants' own polls here and the command's
// LimitsWatch, which samples from those polls when it has no thread (limits.hpp).
RaceResult run_race_in_turn(std::vector<std::unique_ptr<search::SearchEngine>>& entrants, const RaceSettings& settings);

}  // namespace ariadne::portfolio
