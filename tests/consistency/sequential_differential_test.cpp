// Sequential consistency against the brute-force oracle on thousands of random small
// histories per model: the program-order search (what --engine auto runs), SAT where
// it encodes the history, and brute force, which shares no idea with either. Every
// witness replays under the program-order rule, every linearizable history is also
// sequentially consistent, and every refuted one's core is checked for being a core
// and minimal with brute force alone. Crash-heavy histories get a run of their own:
// crashed ops are where the search's register reductions act (register_facts.hpp).
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "certify/witness_checker.hpp"
#include "refute/program_order_core.hpp"
#include "search/search_engine.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ariadne;

namespace {

// Brute force, run directly, on the relaxed history that keeps `keep`.
bool relaxed_holds(const History& h, const Model& model, const std::vector<bool>& keep) {
  std::vector<const Operation*> ops;
  for (const Operation& op : h.ops) ops.push_back(&op);
  std::vector<const Operation*> pointers;
  const std::vector<Operation> relaxed = refute::relax_outside(ops, keep, pointers);
  search::SubHistory sub;
  sub.ops = pointers;
  sub.consistency = Consistency::sequential;
  search::StopSignal stop;
  auto brute = search::make_brute_force(sub, model, stop);
  const search::Outcome outcome = brute->run(UINT64_MAX);
  REQUIRE((outcome == search::Outcome::linearizable || outcome == search::Outcome::not_linearizable));
  return outcome == search::Outcome::linearizable;
}

struct Tally {
  int holds = 0;
  int fails = 0;
  int sat_answers = 0;
  int cores_checked = 0;
};

Tally compare(const std::string& spec, int histories, const testing::RandomHistoryShape& shape, std::uint64_t seed) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  Tally tally;
  const CheckOptions automatic{.consistency = Consistency::sequential, .timeout_seconds = 10, .jobs = 1};
  const CheckOptions sat{.consistency = Consistency::sequential,
                         .engine = Engine::sat,
                         .timeout_seconds = 10,
                         .jobs = 1,
                         .minimal_core = false};
  const CheckOptions brute{.consistency = Consistency::sequential,
                           .engine = Engine::brute,
                           .timeout_seconds = 10,
                           .jobs = 1,
                           .minimal_core = false};
  const CheckOptions linearizable{.timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  for (int i = 0; i < histories; ++i) {
    EventLog log = testing::random_history(spec, shape, rng);
    History h = build_history(log, *model);
    INFO("model ", spec, ", seed ", seed, ", history #", i);
    const CheckResult oracle = check(h, *model, brute);
    const CheckResult answer = check(h, *model, automatic);
    REQUIRE(oracle.verdict != Verdict::unknown);
    REQUIRE(answer.verdict == oracle.verdict);
    const CheckResult by_sat = check(h, *model, sat);
    if (by_sat.verdict != Verdict::unknown) {
      REQUIRE(by_sat.verdict == oracle.verdict);
      ++tally.sat_answers;
    }
    for (const CheckResult* r : {&oracle, &answer, &by_sat}) {
      if (r->verdict != Verdict::linearizable) continue;
      const auto problem = certify::check_linearization(h, *model, r->linearization, Consistency::sequential);
      INFO(r->engine, ": ", problem.value_or(""));
      REQUIRE_FALSE(problem);
    }
    // Linearizable implies sequentially consistent.
    if (check(h, *model, linearizable).verdict == Verdict::linearizable)
      REQUIRE(oracle.verdict == Verdict::linearizable);
    if (oracle.verdict == Verdict::linearizable) {
      ++tally.holds;
      continue;
    }
    ++tally.fails;
    // The core, judged by brute force: its relaxed history fails, and relaxing any
    // one more of its ops makes it hold.
    REQUIRE(answer.core_minimal);
    std::vector<bool> keep(h.ops.size(), false);
    for (std::size_t k = 0; k < h.ops.size(); ++k) {
      keep[k] = std::ranges::binary_search(answer.core, h.ops[k].id);
    }
    REQUIRE_FALSE(relaxed_holds(h, *model, keep));
    for (std::size_t k = 0; k < h.ops.size(); ++k) {
      if (!keep[k]) continue;
      keep[k] = false;
      REQUIRE(relaxed_holds(h, *model, keep));
      keep[k] = true;
    }
    ++tally.cores_checked;
  }
  return tally;
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("sequential consistency: the program-order search and SAT agree with brute force on random histories") {
    const std::uint64_t seed = 20261204;
    MESSAGE("sequential differential test seed: ", seed);
    for (const std::string& spec : testing::random_history_models()) {
      Tally all;
      for (int ops : {3, 5, 7, 9}) {
        testing::RandomHistoryShape shape;
        shape.operations = ops;
        shape.processes = ops <= 5 ? 2 : 3;
        const Tally t = compare(spec, 500, shape, seed + ops);
        all.holds += t.holds;
        all.fails += t.fails;
        all.sat_answers += t.sat_answers;
        all.cores_checked += t.cores_checked;
      }
      MESSAGE(spec, ": ", all.holds, " sequentially consistent, ", all.fails, " not; SAT answered ", all.sat_answers,
              "; ", all.cores_checked, " cores checked minimal by brute force");
      // Both outcomes must be exercised, or the comparison proves little.
      CHECK(all.holds > 0);
      CHECK(all.fails > 0);
    }
  }

  // Removals that returned :empty (issue 49): observations the program-order search
  // places at once where they are legal, as it places reads.
  TEST_CASE("sequential consistency: the same on containers with empty observations") {
    const std::uint64_t seed = 4949;
    for (const std::string spec : {"fifo-queue()", "stack()", "unordered-queue()"}) {
      testing::RandomHistoryShape shape;
      shape.operations = 8;
      shape.processes = 3;
      shape.crash_probability = 0.3;
      shape.empty_probability = 0.35;
      const Tally t = compare(spec, 600, shape, seed);
      MESSAGE(spec, " with empty observations: ", t.holds, " sequentially consistent, ", t.fails, " not; ",
              t.cores_checked, " cores checked minimal by brute force");
      CHECK(t.holds > 0);
      CHECK(t.fails > 0);
    }
  }

  TEST_CASE("sequential consistency: the same on crash-heavy random histories") {
    const std::uint64_t seed = 4343;
    MESSAGE("crash-heavy sequential differential test seed: ", seed);
    for (const std::string& spec : testing::random_history_models()) {
      testing::RandomHistoryShape shape;
      shape.operations = 9;
      shape.processes = 4;
      shape.crash_probability = 0.45;
      shape.fail_probability = 0.05;
      const Tally t = compare(spec, 500, shape, seed);
      MESSAGE(spec, " crash-heavy: ", t.holds, " sequentially consistent, ", t.fails, " not; ", t.cores_checked,
              " cores checked minimal by brute force");
      CHECK(t.holds > 0);
      CHECK(t.fails > 0);
    }
  }
}
