// run_race_in_turn() (race.hpp): the race with one job, its entrants taking turns on
// the calling thread.
#include "base/resident_memory.hpp"
#include "engines/engine_table.hpp"
#include "portfolio/confirmation.hpp"
#include "portfolio/race.hpp"
#include "portfolio/race_plan.hpp"

#include <algorithm>
#include <chrono>
#include <new>
#include <optional>

namespace ariadne::portfolio {

namespace {

using search::Outcome;
using search::StopSignal;

// A native entrant's first turn, in model steps: a few milliseconds of WGL, so that
// a solver that would answer at once is not kept waiting long; each round doubles it.
constexpr std::uint64_t kFirstTurnSteps = std::uint64_t{1} << 16;
constexpr std::uint64_t kLongestTurnSteps = std::uint64_t{1} << 40;
constexpr auto kLongTurn = std::chrono::milliseconds(50);

// A solver cannot be paused: its turn lasts until it answers or is stopped. It takes
// its turn once the searches have had the race to themselves for as long as the
// plan gives the first wave before the second (or once no search is left): a search
// that needs a few seconds more is not made to wait for a solve of minutes (a 160,000
// op cas-register history: WGL 3 s, SAT past 20 s).
constexpr auto kSearchesAlone = kSecondWave;

bool pausable(const search::SearchEngine& engine) {
  return engines::engine_row(engine.id()).kind == engines::EngineKind::native;
}

}  // namespace

RaceResult run_race_in_turn(std::vector<std::unique_ptr<search::SearchEngine>>& entrants,
                            const RaceSettings& settings) {
  RaceResult result;
  for (const auto& entrant : entrants) result.entrants.push_back(entrant->id());
  std::vector<bool> out(entrants.size(), false);  // answered, gave up or failed
  bool out_of_memory = false;
  std::uint64_t turn = kFirstTurnSteps;
  const auto race_started = std::chrono::steady_clock::now();
  const auto in_play = [&] { return std::ranges::find(out, false) != out.end(); };
  const auto searches_in_play = [&] {
    for (std::size_t i = 0; i < entrants.size(); ++i) {
      if (!out[i] && pausable(*entrants[i])) return true;
    }
    return false;
  };
  std::optional<Engine> last_ran;  // the entrant whose turn ended last, the winner's aside
  // When entrant i may take turns: when the threaded race would start it, and a
  // solver not before the searches had kSearchesAlone.
  const auto due = [&](std::size_t i) {
    std::chrono::steady_clock::duration at = std::chrono::steady_clock::duration::zero();
    if (i < settings.start_after.size()) at = settings.start_after[i];
    if (!pausable(*entrants[i]) && searches_in_play())
      at = std::max<std::chrono::steady_clock::duration>(at, kSearchesAlone);
    return std::chrono::steady_clock::now() - race_started >= at;
  };
  // The race's own memory bound, as the threaded referee keeps it: what the
  // partition's budget has left, over the resident size at the start.
  const std::uint64_t resident_at_start = settings.resident_allowance > 0 ? base::resident_bytes() : 0;
  while (!result.winner && in_play()) {
    bool any_due = false;
    for (std::size_t i = 0; i < entrants.size(); ++i) any_due = any_due || (!out[i] && due(i));
    const bool searches = searches_in_play();
    auto longest_turn = std::chrono::steady_clock::duration::zero();
    for (std::size_t i = 0; i < entrants.size() && !result.winner; ++i) {
      // With no entrant in play due yet, the next need not wait its time; but a
      // solver, whose turn cannot be cut short, waits its time while a search is left.
      if (out[i] || (any_due && !due(i)) || (!any_due && searches && !pausable(*entrants[i]))) continue;
      const auto turn_started = std::chrono::steady_clock::now();
      if (const StopSignal::Why why = settings.stop->check(); why != StopSignal::Why::none) {
        result.stop_reason = why;
        std::fill(out.begin(), out.end(), true);
        break;
      }
      if (resident_at_start > 0 && base::resident_bytes() > resident_at_start + settings.resident_allowance) {
        out_of_memory = true;
        std::fill(out.begin(), out.end(), true);
        break;
      }
      search::SearchEngine& engine = *entrants[i];
      const std::string name(engine_name(engine.id()));
      Outcome outcome = Outcome::stopped;
      // As on the threaded race's entrant threads: memory exhaustion is an honest
      // give-up, anything else a bug passed on in `failure`.
      if (settings.started) settings.started(engine);
      try {
        outcome = engine.run(turn);
      } catch (const std::bad_alloc&) {
        outcome = Outcome::out_of_memory;
      } catch (const std::exception& e) {
        if (result.failure.empty()) result.failure = name + ": " + e.what();
        out[i] = true;
        if (settings.stopped) settings.stopped(engine);
        continue;
      }
      if (settings.stopped) settings.stopped(engine);
      longest_turn = std::max(longest_turn, std::chrono::steady_clock::now() - turn_started);
      if (outcome != Outcome::linearizable && outcome != Outcome::not_linearizable) last_ran = engine.id();
      if (outcome == Outcome::undecided) continue;  // its turn is spent: the next round goes on
      out[i] = true;
      switch (outcome) {
        case Outcome::linearizable:
          // A check that threw ends the race; one that found a problem drops the answer.
          if (take_linearization(settings, engine, result, out_of_memory) && !result.winner) {
            std::fill(out.begin(), out.end(), true);
          }
          break;
        case Outcome::not_linearizable:
          result.outcome = Outcome::not_linearizable;
          result.winner = engine.id();
          break;
        case Outcome::out_of_memory:
        case Outcome::stopped:
        case Outcome::undecided:
        case Outcome::engine_failed: note_give_up(engine, outcome, result, out_of_memory); break;
      }
    }
    // Turns grow while they are short, so that a round stays short enough for the
    // entrants due later to join near their time.
    if (longest_turn < kLongTurn) turn = std::min(turn * 2, kLongestTurnSteps);
  }
  // As the threaded race does once it has an answer: the partition is settled.
  if (result.winner) settings.settled->store(true);
  // No loser was running when the race ended: the last to have had a turn stopped
  // with it, at once.
  result.slowest_to_stop = last_ran;
  result.stop_latency_ms = 0;
  for (auto& entrant : entrants) result.steps += entrant->steps();
  settle_without_winner(result, out_of_memory);
  return result;
}

}  // namespace ariadne::portfolio
