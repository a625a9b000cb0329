// race_decision (decision_race.hpp): whichever side answers first stops the other;
// the solver's answer is preferred; the caller's stop signal reaches both; errors
// from either side come back to the caller.
#include "refute/decision_race.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace ariadne;
using refute::RelaxedDecision;
using refute::RelaxedVerdict;

namespace {

RelaxedDecision answer(RelaxedVerdict verdict, std::uint32_t tag) {
  RelaxedDecision decision;
  decision.verdict = verdict;
  decision.needed = {tag};
  return decision;
}

// Waits for `stop` to fire (for at most 10 s, so that a broken race fails the test
// rather than hanging it) and reports why it fired.
search::StopSignal::Why wait_for(const search::StopSignal& stop) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (stop.check() == search::StopSignal::Why::none && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return stop.check();
}

}  // namespace

TEST_SUITE("explain") {
  TEST_CASE("a decision race prefers the solver's answer when both sides have one") {
    const search::StopSignal stop;
    const RelaxedDecision decision = refute::race_decision(
        stop, [](const search::StopSignal&) { return answer(RelaxedVerdict::not_linearizable, 1); },
        [](const search::StopSignal&) { return answer(RelaxedVerdict::not_linearizable, 2); });
    CHECK(decision.needed == std::vector<std::uint32_t>{2});
  }

  TEST_CASE("a decision race stops the solver once the search has answered, and returns the search's answer") {
    const search::StopSignal stop;
    search::StopSignal::Why solver_saw = search::StopSignal::Why::none;
    const RelaxedDecision decision = refute::race_decision(
        stop, [](const search::StopSignal&) { return answer(RelaxedVerdict::linearizable, 1); },
        [&](const search::StopSignal& solver_stop) {
          solver_saw = wait_for(solver_stop);
          return RelaxedDecision{};
        });
    CHECK(solver_saw == search::StopSignal::Why::decided);
    CHECK(decision.verdict == RelaxedVerdict::linearizable);
    CHECK(decision.needed == std::vector<std::uint32_t>{1});
  }

  TEST_CASE("a decision race stops the search once the solver has answered") {
    const search::StopSignal stop;
    std::atomic<search::StopSignal::Why> search_saw{search::StopSignal::Why::none};
    const RelaxedDecision decision = refute::race_decision(
        stop,
        [&](const search::StopSignal& search_stop) {
          search_saw = wait_for(search_stop);
          return RelaxedDecision{};
        },
        [](const search::StopSignal&) { return answer(RelaxedVerdict::not_linearizable, 2); });
    CHECK(search_saw.load() == search::StopSignal::Why::decided);
    CHECK(decision.needed == std::vector<std::uint32_t>{2});
  }

  TEST_CASE("a decision race passes the caller's stop signal to both sides") {
    std::atomic<bool> cancel{true};
    search::StopSignal stop;
    stop.cancel = &cancel;
    std::atomic<search::StopSignal::Why> search_saw{search::StopSignal::Why::none};
    search::StopSignal::Why solver_saw = search::StopSignal::Why::none;
    const RelaxedDecision decision = refute::race_decision(
        stop,
        [&](const search::StopSignal& search_stop) {
          search_saw = wait_for(search_stop);
          return RelaxedDecision{};
        },
        [&](const search::StopSignal& solver_stop) {
          solver_saw = wait_for(solver_stop);
          return RelaxedDecision{};
        });
    CHECK(decision.verdict == RelaxedVerdict::undecided);
    CHECK(search_saw.load() == search::StopSignal::Why::cancelled);
    CHECK(solver_saw == search::StopSignal::Why::cancelled);
  }

  TEST_CASE("a decision race rethrows what either side threw, after both ended") {
    const search::StopSignal stop;
    CHECK_THROWS_AS(refute::race_decision(
                        stop, [](const search::StopSignal&) -> RelaxedDecision { throw std::logic_error("search"); },
                        [](const search::StopSignal& solver_stop) {
                          wait_for(solver_stop);
                          return RelaxedDecision{};
                        }),
                    std::logic_error);
    CHECK_THROWS_AS(refute::race_decision(
                        stop,
                        [](const search::StopSignal& search_stop) {
                          wait_for(search_stop);
                          return RelaxedDecision{};
                        },
                        [](const search::StopSignal&) -> RelaxedDecision { throw std::runtime_error("solver"); }),
                    std::runtime_error);
  }

}  // TEST_SUITE
