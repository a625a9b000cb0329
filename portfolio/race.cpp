// run_race(): one thread per entrant, the calling thread as the referee.
//
// The referee wakes on every entrant's report and every few milliseconds besides, to
// enforce what the entrants cannot all enforce themselves: Z3 does not poll a
// deadline or a cancel flag, so the referee interrupts every entrant once the
// StopSignal fires; and solver memory is invisible to the MemoryBudget, so the
// referee watches the process's resident size. A linearizable answer wins only once
// the certificate checker has replayed it; a refutation wins as it comes (its proof
// is the solver's or the exhaustive search's; docs/how-it-works.md says what is certified).
#include "portfolio/race.hpp"

#include "portfolio/confirmation.hpp"

#include "base/resident_memory.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

namespace ariadne::portfolio {

namespace {

using search::Outcome;
using search::StopSignal;

constexpr auto kRefereePeriod = std::chrono::milliseconds(5);

struct Report {
  std::size_t entrant = 0;
  Outcome outcome = Outcome::stopped;
  std::string failure;                       // an exception's message
  std::chrono::steady_clock::time_point at;  // when run() returned
};

}  // namespace

void note_give_up(const search::SearchEngine& engine, Outcome outcome, RaceResult& result, bool& out_of_memory) {
  const std::string name(engine_name(engine.id()));
  if (outcome == Outcome::out_of_memory) {
    out_of_memory = true;
    result.withdrawals.push_back(name + ": memory limit reached");
  } else if (const std::string why = engine.withdrawal_reason(); !why.empty()) {
    result.withdrawals.push_back(name + ": " + why);
  } else if (result.stop_reason == StopSignal::Why::none) {
    result.stop_reason = engine.stop_reason();
  }
}

bool take_linearization(const RaceSettings& settings, const search::SearchEngine& engine, RaceResult& result,
                        bool& out_of_memory) {
  std::vector<std::uint32_t> order = engine.linearization();
  std::optional<std::string> problem;
  // What the check throws (bad_alloc copying a large partition, a user model's step()
  // that throws) ends the race as an engine's failure does, never past it: the
  // threaded race still has entrants to stop and join.
  try {
    problem = settings.certify(order);
  } catch (const std::bad_alloc&) {
    out_of_memory = true;
    return true;
  } catch (const std::exception& error) {
    if (result.failure.empty()) {
      result.failure =
          "the certificate check of " + std::string(engine_name(engine.id())) + "'s answer failed: " + error.what();
    }
    return true;
  }
  if (problem) {
    // A bug in that engine: its answer is dropped and the others race on.
    result.dropped.push_back(uncertified_linearization(engine.id(), *problem));
    result.distrusted.push_back(engine.id());
    return false;
  }
  result.outcome = Outcome::linearizable;
  result.winner = engine.id();
  result.linearization = std::move(order);
  return true;
}

void settle_without_winner(RaceResult& result, bool out_of_memory) {
  if (result.winner) return;
  result.outcome = !result.failure.empty() ? Outcome::engine_failed
                   : out_of_memory         ? Outcome::out_of_memory
                                           : Outcome::stopped;
}

RaceResult run_race(std::vector<std::unique_ptr<search::SearchEngine>>& entrants, const RaceSettings& settings) {
  if (settings.jobs == 1) return run_race_in_turn(entrants, settings);
  RaceResult result;
  std::mutex mutex;
  std::condition_variable reported;
  std::vector<Report> reports;
  std::vector<std::thread> threads;
  threads.reserve(entrants.size());

  const auto race_started = std::chrono::steady_clock::now();
  std::vector<bool> started(entrants.size(), false);
  std::size_t running = 0;
  auto start_entrant = [&](std::size_t i) {
    started[i] = true;
    ++running;
    result.entrants.push_back(entrants[i]->id());
    threads.emplace_back([&, i] {
      Report report;
      report.entrant = i;
      // Nothing may escape a thread: memory exhaustion is an honest give-up, anything
      // else a bug the referee passes on.
      try {
        if (settings.started) settings.started(*entrants[i]);
        report.outcome = entrants[i]->run(UINT64_MAX);
        if (settings.stopped) settings.stopped(*entrants[i]);
      } catch (const std::bad_alloc&) {
        if (settings.stopped) settings.stopped(*entrants[i]);
        report.outcome = Outcome::out_of_memory;
      } catch (const std::exception& e) {
        if (settings.stopped) settings.stopped(*entrants[i]);
        report.failure = std::string(engine_name(entrants[i]->id())) + ": " + e.what();
      }
      report.at = std::chrono::steady_clock::now();
      std::lock_guard lock(mutex);
      reports.push_back(std::move(report));
      reported.notify_all();
    });
  };
  auto due = [&](std::size_t i) {
    const auto delay = i < settings.start_after.size() ? settings.start_after[i] : std::chrono::milliseconds(0);
    return std::chrono::steady_clock::now() >= race_started + delay;
  };
  for (std::size_t i = 0; i < entrants.size(); ++i) {
    if (due(i)) start_entrant(i);
  }

  const std::uint64_t resident_at_start = base::resident_bytes();
  std::size_t handled = 0;
  bool stopping = false;
  bool out_of_memory = false;
  std::chrono::steady_clock::time_point stop_requested;
  auto stop_everyone = [&] {
    if (stopping) return;
    stopping = true;
    stop_requested = std::chrono::steady_clock::now();
    settings.settled->store(true);
    for (auto& entrant : entrants) entrant->interrupt();
  };

  std::unique_lock lock(mutex);
  // The race ends when every entrant that started has reported and the rest either
  // are no longer needed (an answer, a stop) or have no one left to wait for.
  while (handled < running || (!stopping && running < entrants.size())) {
    if (!stopping) {
      for (std::size_t i = 0; i < entrants.size(); ++i) {
        // Every engine so far gave up: the next one need not wait its turn.
        if (!started[i] && (due(i) || handled == running)) start_entrant(i);
      }
    }
    reported.wait_for(lock, kRefereePeriod, [&] { return reports.size() > handled; });
    while (handled < reports.size()) {
      const Report report = reports[handled++];
      search::SearchEngine& engine = *entrants[report.entrant];
      if (stopping) {
        // An entrant that ended on its own just before the answer was taken stopped
        // with no delay at all.
        const double late =
            std::max(0.0, std::chrono::duration<double, std::milli>(report.at - stop_requested).count());
        if (late >= result.stop_latency_ms) {
          result.stop_latency_ms = late;
          result.slowest_to_stop = engine.id();
        }
      }
      if (!report.failure.empty()) {
        if (result.failure.empty()) result.failure = report.failure;
        continue;
      }
      if (stopping) continue;
      switch (report.outcome) {
        case Outcome::linearizable: {
          // The check runs with the lock released, entrants still running: the result
          // is the referee's alone, the lock guards the reports.
          lock.unlock();
          const bool over = take_linearization(settings, engine, result, out_of_memory);
          lock.lock();
          if (over) stop_everyone();
          break;
        }
        case Outcome::not_linearizable:
          result.outcome = Outcome::not_linearizable;
          result.winner = engine.id();
          stop_everyone();
          break;
        case Outcome::out_of_memory:
        case Outcome::stopped:
        case Outcome::undecided:
        case Outcome::engine_failed: note_give_up(engine, report.outcome, result, out_of_memory); break;
      }
    }
    if (stopping) continue;
    if (settings.stop->check() != StopSignal::Why::none) {
      result.stop_reason = settings.stop->check();
      stop_everyone();
    } else if (settings.resident_allowance > 0 && resident_at_start > 0 &&
               base::resident_bytes() > resident_at_start + settings.resident_allowance) {
      out_of_memory = true;
      stop_everyone();
    }
  }
  lock.unlock();
  for (auto& t : threads) t.join();
  for (auto& entrant : entrants) result.steps += entrant->steps();
  settle_without_winner(result, out_of_memory);
  return result;
}

}  // namespace ariadne::portfolio
