// The mutex sweep (relaxed_mutex.hpp) against brute force and WGL on random relaxed
// mutex histories: it answers every question, always as they do, and every order it
// returns replays as a linearization of the relaxed history (verify_linearization
// shares nothing with the sweep). The sweep decides core questions on its own, so an
// answer that differed would change a core.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/relaxed_history.hpp"
#include "refute/relaxed_mutex.hpp"
#include "refute/relevant_relaxed.hpp"
#include "support/history_builder.hpp"
#include "support/random_history.hpp"
#include "support/relaxed_replay.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;
using testing::EventScript;
using testing::replay_relaxed_witness;

namespace {

Verdict decide_by(Engine engine, const History& relaxed, const Model& model) {
  const CheckOptions options{.engine = engine, .timeout_seconds = 20, .jobs = 1, .minimal_core = false};
  return check(relaxed, model, options).verdict;
}

struct Tally {
  int ordered = 0;
  int refuted = 0;
};

// `engine`: what to compare with (brute force takes at most kBruteForceMaxOps ops).
Tally compare(Engine engine, int histories, int max_operations, int processes, std::uint64_t seed) {
  auto model = make_model_from_spec("mutex()");
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int h = 0; h < histories; ++h) {
    testing::RandomHistoryShape shape;
    shape.operations = 3 + h % (max_operations - 2);
    shape.processes = 2 + h % (processes - 1);
    shape.crash_probability = h % 3 == 0 ? 0.3 : 0.1;
    const History history = build_history(testing::random_history("mutex()", shape, rng), *model);
    const std::vector<const Operation*> ops = testing::first_partition(history, *model);
    if (ops.empty()) continue;
    std::vector<bool> keep(ops.size());
    const int percent = 30 + static_cast<int>(rng() % 70);
    for (std::size_t i = 0; i < ops.size(); ++i) keep[i] = static_cast<int>(rng() % 100) < percent;
    const refute::RelaxedRelevance relevance(ops, *model);
    // As core questions ask it: the relaxed ops that cannot matter left out; and whole.
    const std::vector<bool> leave_out = relevance.irrelevant(keep);
    for (const bool thinned : {true, false}) {
      const refute::RelaxedHistory relaxed = refute::relax(ops, keep, thinned ? &leave_out : nullptr);
      const History as_history = relaxed.as_history("relaxed");
      const refute::RelaxedDecision swept = refute::decide_mutex_by_sweep(relaxed, relevance);
      INFO("seed ", seed, ", history #", h, ", thinned ", thinned);
      REQUIRE(swept.verdict != refute::RelaxedVerdict::undecided);
      if (swept.verdict == refute::RelaxedVerdict::linearizable) {
        ++tally.ordered;
        CHECK(replay_relaxed_witness(relaxed, as_history, *model, swept.linearization) == "");
        CHECK(decide_by(engine, as_history, *model) == Verdict::linearizable);
      } else {
        ++tally.refuted;
        CHECK(decide_by(engine, as_history, *model) == Verdict::not_linearizable);
      }
    }
  }
  return tally;
}

}  // namespace

TEST_SUITE("explain") {
  TEST_CASE("the mutex sweep answers every relaxed mutex history as brute force does") {
    const Tally tally = compare(Engine::brute, 1500, 12, 4, 71);
    INFO(tally.ordered, " ordered, ", tally.refuted, " refuted");
    CHECK(tally.ordered > 300);
    CHECK(tally.refuted > 300);
  }

  TEST_CASE("the mutex sweep answers longer relaxed mutex histories as WGL does") {
    const Tally tally = compare(Engine::wgl, 600, 60, 6, 72);
    INFO(tally.ordered, " ordered, ", tally.refuted, " refuted");
    CHECK(tally.ordered > 100);
    CHECK(tally.refuted > 100);
  }

  TEST_CASE("the mutex sweep: a release taken first from a pending one, then a relaxed one") {
    auto model = make_model_from_spec("mutex()");
    // Two acquires that each returned before the other's next acquire: a release must
    // come between them, and only p2's pending release (or a relaxed one) can.
    const History history = build_history(EventScript{}
                                              .invoke(1, "acquire")
                                              .ok(1, "acquire")
                                              .invoke(2, "release")
                                              .invoke(3, "acquire")
                                              .ok(3, "acquire")
                                              .ok(2, "release")
                                              .log(),
                                          *model);
    std::vector<const Operation*> ops;
    for (const Operation& op : history.ops) ops.push_back(&op);
    const refute::RelaxedRelevance relevance(ops, *model);
    const refute::RelaxedDecision all =
        refute::decide_mutex_by_sweep(refute::relax(ops, {true, true, true}), relevance);
    CHECK(all.verdict == refute::RelaxedVerdict::linearizable);
    // Without the release's interval (relaxed), it may still go between them.
    const refute::RelaxedDecision relaxed_release =
        refute::decide_mutex_by_sweep(refute::relax(ops, {true, false, true}), relevance);
    CHECK(relaxed_release.verdict == refute::RelaxedVerdict::linearizable);
  }
}
