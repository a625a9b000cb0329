// One relaxed-history question put to a solver and to the native search at once.
//
// Neither wins everywhere on core questions. Measured on the candidates of the 79
// refuted etcd histories that the closure look (relaxed_closure.hpp) leaves open: the
// search answered some in 0.3 ms where the solver took 3 ms, the solver others in
// 1-36 ms where the search took 10-70 ms, and one solve took 2 s. Run side by side,
// a question costs about the faster of the two, on the machine's second core.
#pragma once

#include "refute/relaxed_check.hpp"
#include "search/search_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>

namespace ariadne::refute {

// With one job, the search's first turn before the solver's (race_decision).
inline constexpr std::chrono::milliseconds kSearchTurnInRace{20};

// Runs `search` on a new thread and `solve` on this one, each given a copy of `stop`
// that also fires as soon as the other has answered; returns the solver's decision
// unless it is undecided (its failed assumptions make it the more useful one), else
// the search's. Exceptions from either side are rethrown here, after both ended.
//
// With one job (stop.limits->jobs() 1) no thread is started: on this thread the
// search has a short turn first (most questions it answers in a millisecond or two),
// then the solver until it decides, then the search again until it does. Each answer
// is one the race could have given (the side that answers first wins it); both sides
// poll `stop`, so the limits hold as in the race.
template <typename Search, typename Solve>
RelaxedDecision race_decision(const search::StopSignal& stop, Search&& search, Solve&& solve) {
  if (stop.limits && stop.limits->jobs() == 1) {
    search::StopSignal turn = stop;
    turn.deadline = std::min(stop.deadline, std::chrono::steady_clock::now() + kSearchTurnInRace);
    if (RelaxedDecision searched = search(turn); searched.verdict != RelaxedVerdict::undecided) return searched;
    RelaxedDecision solved = solve(stop);
    if (solved.verdict != RelaxedVerdict::undecided || stop.check() != search::StopSignal::Why::none) return solved;
    return search(stop);
  }
  std::atomic<bool> solver_done{false};
  std::atomic<bool> search_done{false};
  search::StopSignal search_stop = stop;
  search_stop.superseded = &solver_done;
  search::StopSignal solver_stop = stop;
  solver_stop.superseded = &search_done;
  RelaxedDecision searched;
  std::exception_ptr search_error;
  std::thread searcher([&] {
    try {
      searched = search(search_stop);
    } catch (...) {
      search_error = std::current_exception();
    }
    search_done.store(true, std::memory_order_relaxed);
  });
  RelaxedDecision solved;
  std::exception_ptr solver_error;
  try {
    solved = solve(solver_stop);
  } catch (...) {
    solver_error = std::current_exception();
  }
  solver_done.store(true, std::memory_order_relaxed);
  searcher.join();
  if (solver_error) std::rethrow_exception(solver_error);
  if (search_error) std::rethrow_exception(search_error);
  return solved.verdict != RelaxedVerdict::undecided ? solved : searched;
}

}  // namespace ariadne::refute
