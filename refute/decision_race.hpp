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

#include <atomic>
#include <exception>
#include <thread>

namespace ariadne::refute {

// Runs `search` on a new thread and `solve` on this one, each given a copy of `stop`
// that also fires as soon as the other has answered; returns the solver's decision
// unless it is undecided (its failed assumptions make it the more useful one), else
// the search's. Exceptions from either side are rethrown here, after both ended.
template <typename Search, typename Solve>
RelaxedDecision race_decision(const search::StopSignal& stop, Search&& search, Solve&& solve) {
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
