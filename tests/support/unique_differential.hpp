// The unique-value engines' differential loop, shared by their tests: random small
// histories, each decided by `--engine unique` and by brute force through check()
// (so every order is replayed by the certificate checker); wherever the engine
// answers, the answers agree; each refutation's violation is refuted by brute force
// on its own and is small. What a decline or a refutation must satisfy beyond that,
// each test says in its hooks.
#pragma once

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "models/semantics.hpp"
#include "refute/relaxed_check.hpp"
#include "search/unique_values.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace ariadne::testing {

struct UniqueTally {
  int linearizable = 0;
  int refuted = 0;
  int declined = 0;
};

struct UniqueDifferential {
  std::string spec;
  int histories = 0;
  std::uint64_t seed = 0;
  // The h-th history's events (its size is the generator's choice).
  std::function<EventLog(std::mt19937_64& rng, int h)> generate = {};
  // A decline's reason, and the history's log (the engine answered unknown).
  std::function<void(const std::string& reason, const EventLog& log, Verdict oracle)> on_decline = {};
  // A refutation: the partition's ops and the engine's own analysis of them.
  std::function<void(std::span<const Operation* const> ops, const search::UniqueValueAnalysis& analysis)> on_refuted =
      {};
};

inline UniqueTally compare_unique_with_brute_force(const UniqueDifferential& run) {
  auto model = make_model_from_spec(run.spec);
  std::mt19937_64 rng(run.seed);
  UniqueTally tally;
  const CheckOptions unique{.engine = Engine::unique, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  for (int h = 0; h < run.histories; ++h) {
    const EventLog log = run.generate(rng, h);
    const History history = build_history(log, *model);
    INFO(run.spec, ", seed ", run.seed, ", history #", h);
    const CheckResult fast = check(history, *model, unique);
    const CheckResult oracle = check(history, *model, brute);
    REQUIRE(oracle.verdict != Verdict::unknown);
    if (fast.verdict == Verdict::unknown) {
      INFO(fast.reason);
      REQUIRE(fast.reason.find("internal") == std::string::npos);
      ++tally.declined;
      if (run.on_decline) run.on_decline(fast.reason, log, oracle.verdict);
      continue;
    }
    REQUIRE(verdict_name(fast.verdict) == verdict_name(oracle.verdict));
    if (fast.verdict == Verdict::linearizable) {
      ++tally.linearizable;
      continue;
    }
    ++tally.refuted;
    std::vector<const Operation*> ops;
    for (const Operation& op : history.ops) ops.push_back(&op);
    const search::UniqueValueAnalysis analysis =
        search::analyse_as_unique_engine(ops, *model, search::UniqueTests::all);
    REQUIRE(analysis.answer == search::UniqueValueAnalysis::Answer::not_linearizable);
    REQUIRE_FALSE(analysis.violation.empty());
    INFO(analysis.why);
    CHECK(analysis.violation.size() <= 8);
    History alone;
    for (const std::uint32_t i : analysis.violation) alone.ops.push_back(history.ops[i]);
    CHECK(check(alone, *model, brute).verdict == Verdict::not_linearizable);
    if (run.on_refuted) run.on_refuted(ops, analysis);
  }
  MESSAGE(run.spec, ": ", tally.linearizable, " linearizable, ", tally.refuted, " refuted, ", tally.declined,
          " declined");
  return tally;
}

// The violation, with every other op relaxed, refuted: what the race's confirmation
// asks of it before trusting the engine's refutation.
inline void check_refuted_relaxed(std::span<const Operation* const> ops, const std::string& spec,
                                  const search::UniqueValueAnalysis& analysis) {
  auto model = make_model_from_spec(spec);
  search::StopSignal stop;
  refute::RelaxedChecker checker(ops, *model, stop, 1ULL << 30);
  std::vector<bool> keep(ops.size(), false);
  for (const std::uint32_t i : analysis.violation) keep[i] = true;
  std::string listing;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    const Operation& op = *ops[i];
    listing += (keep[i] ? "* " : "  ") + op.f + " " + op.value.to_edn() + " [" + std::to_string(op.call) + ", " +
               (op.ret == kNever ? std::string("-") : std::to_string(op.ret)) + "]\n";
  }
  INFO(analysis.why, "\n", listing);
  CHECK(checker.decide_quickly(keep).verdict == refute::RelaxedVerdict::not_linearizable);
}

// What check() with `--engine unique` answers on the script's history, and its reason.
inline Verdict unique_engine_verdict(const EventScript& script, const std::string& spec, std::string& reason) {
  auto model = make_model_from_spec(spec);
  const CheckResult r = check(script.build(*model), *model, CheckOptions{.engine = Engine::unique, .jobs = 1});
  reason = r.reason;
  return r.verdict;
}

}  // namespace ariadne::testing
