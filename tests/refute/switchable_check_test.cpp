// The two shortcuts core decisions take, against brute force on random small
// histories of every model:
//  - leaving out the relaxed ops that cannot matter (relevant_relaxed.hpp), for one
//    kept set and for every subset of a candidate at once, never changes a verdict;
//  - the switchable formula (switchable_check.hpp) decides every subset of its
//    candidate as the relaxed history itself does, and the failed assumptions of a
//    refutation name a subset that is refuted too.
// Brute force enumerates orders of the relaxed history as check() builds it, sharing
// nothing with the encoder or the rules under test.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/relaxed_history.hpp"
#include "refute/relevant_relaxed.hpp"
#include "refute/switchable_check.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <random>

using namespace ariadne;

namespace {

Verdict brute(const refute::RelaxedHistory& relaxed, const Model& model) {
  const CheckOptions options{.engine = Engine::brute, .timeout_seconds = 20, .jobs = 1, .minimal_core = false};
  return check(relaxed.as_history("relaxed"), model, options).verdict;
}

std::vector<bool> random_subset(const std::vector<bool>& of, std::mt19937_64& rng, int percent) {
  std::vector<bool> subset(of.size(), false);
  for (std::size_t i = 0; i < of.size(); ++i) subset[i] = of[i] && static_cast<int>(rng() % 100) < percent;
  return subset;
}

struct Tally {
  int decisions = 0;
  int refuted = 0;
};

// A relaxed history is one partition's: for partitioned models (kv), the partition
// of the history's first op.
Tally check_model(const std::string& spec, int histories, std::uint64_t seed) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int h = 0; h < histories; ++h) {
    testing::RandomHistoryShape shape;
    shape.operations = 4 + h % 5;
    shape.crash_probability = h % 3 == 0 ? 0.3 : 0.1;
    const History history = build_history(testing::random_history(spec, shape, rng), *model);
    const std::vector<const Operation*> ops = testing::first_partition(history, *model);
    if (ops.empty()) continue;
    const refute::RelaxedRelevance relevance(ops, *model);
    const std::vector<bool> all(ops.size(), true);
    const std::vector<bool> candidate = random_subset(all, rng, 80);
    const search::StopSignal no_stop;
    auto switchable =
        refute::SwitchableCheck::make(ops, *model, relevance, candidate, no_stop, 1ULL << 30, std::chrono::seconds(60));
    REQUIRE(switchable != nullptr);
    const std::vector<bool> for_every_subset = relevance.irrelevant_to_every_subset(candidate);
    for (int s = 0; s < 4; ++s) {
      const std::vector<bool> keep = s == 0 ? candidate : random_subset(candidate, rng, 70);
      INFO(spec, ", seed ", seed, ", history #", h, ", subset #", s);
      const Verdict full = brute(refute::relax(ops, keep), *model);
      REQUIRE(full != Verdict::unknown);
      const std::vector<bool> irrelevant = relevance.irrelevant(keep);
      CHECK(brute(refute::relax(ops, keep, &irrelevant), *model) == full);
      // What every subset may leave out applies to ops outside the candidate only;
      // the candidate's own relaxed ops stay.
      CHECK(brute(refute::relax(ops, keep, &for_every_subset), *model) == full);

      const refute::RelaxedDecision decision = switchable->decide(keep);
      ++tally.decisions;
      CHECK(decision.verdict == (full == Verdict::linearizable ? refute::RelaxedVerdict::linearizable
                                                               : refute::RelaxedVerdict::not_linearizable));
      if (decision.verdict != refute::RelaxedVerdict::not_linearizable) continue;
      ++tally.refuted;
      std::vector<bool> needed(ops.size(), false);
      for (const std::uint32_t i : decision.needed) {
        CHECK(keep[i]);
        needed[i] = true;
      }
      CHECK(brute(refute::relax(ops, needed), *model) == Verdict::not_linearizable);
    }
  }
  return tally;
}

}  // namespace

TEST_SUITE("explain") {
  TEST_CASE("relaxed ops left out and switchable decisions agree with brute force: registers") {
    for (const auto& [spec, seed] : {std::pair{"register(0)", 11},
                                     {"cas-register(0)", 12},
                                     {"etcd", 13},
                                     {"multi-register({:x 0 :y 0})", 19},
                                     {"kv", 20}}) {
      const Tally tally = check_model(spec, 120, seed);
      CHECK(tally.refuted > 10);
      CHECK(tally.refuted < tally.decisions);
    }
  }

  TEST_CASE("relaxed ops left out and switchable decisions agree with brute force: mutex, queues, stack, set") {
    for (const auto& [spec, seed] :
         {std::pair{"mutex()", 14}, {"fifo-queue()", 15}, {"unordered-queue()", 16}, {"stack()", 17}, {"set()", 18}}) {
      const Tally tally = check_model(spec, 120, seed);
      CHECK(tally.refuted > 10);
      CHECK(tally.refuted < tally.decisions);
    }
  }

  // Their direct encoding with selectors: the priority axiom and the peeks' matching
  // under ops switched on and off.
  TEST_CASE("relaxed ops left out and switchable decisions agree with brute force: priority queues") {
    for (const auto& [spec, seed] : {std::pair{"priority-queue()", 21}, {"max-priority-queue()", 22}}) {
      const Tally tally = check_model(spec, 300, seed);
      MESSAGE(std::string(spec), ": ", tally.decisions, " decisions, ", tally.refuted, " refuted");
      CHECK(tally.refuted > 10);
      CHECK(tally.refuted < tally.decisions);
    }
  }

}  // TEST_SUITE
