// WGL, WGL trying required ops first (make_wgl_required_first, for relaxed histories)
// and JIT against the brute-force oracle on thousands of random small histories per
// model.
// Every linearizable answer of either engine is also replayed by the certificate
// checker inside check(), which throws on a bad witness.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "search/search_engine.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;

namespace {

// WGL with required ops first, run directly (check() has no engine for it): its
// verdict, and a witness it finds must replay. Unpartitioned models only, where the
// whole history is one search.
Verdict required_first_verdict(const History& h, const Model& model) {
  search::SubHistory sub;
  for (const Operation& op : h.ops) sub.ops.push_back(&op);
  search::MemoryBudget memory(1ULL << 30);
  search::StopSignal stop;
  auto engine = search::make_wgl_required_first(sub, model, memory, stop);
  const search::Outcome outcome = engine->run(UINT64_MAX);
  if (outcome == search::Outcome::linearizable) {
    std::vector<std::uint32_t> order;
    for (const std::uint32_t local : engine->linearization()) order.push_back(sub.ops[local]->id);
    const auto problem = verify_linearization(h, model, order);
    INFO(problem.value_or(""));
    REQUIRE_FALSE(problem);
    return Verdict::linearizable;
  }
  return outcome == search::Outcome::not_linearizable ? Verdict::not_linearizable : Verdict::unknown;
}

struct Tally {
  int linearizable = 0;
  int not_linearizable = 0;
};

Tally compare_engines(const std::string& spec, int histories, const testing::RandomHistoryShape& shape,
                      std::uint64_t seed) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  Tally tally;
  CheckOptions wgl{.engine = Engine::wgl, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  CheckOptions jit{.engine = Engine::jit, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1, .minimal_core = false};
  for (int i = 0; i < histories; ++i) {
    EventLog log = testing::random_history(spec, shape, rng);
    History h = build_history(log, *model);
    CheckResult a = check(h, *model, wgl);
    CheckResult b = check(h, *model, brute);
    CheckResult c = check(h, *model, jit);
    INFO("model ", spec, ", seed ", seed, ", history #", i);
    REQUIRE(a.verdict != Verdict::unknown);
    REQUIRE(b.verdict != Verdict::unknown);
    REQUIRE(c.verdict != Verdict::unknown);
    REQUIRE(verdict_name(a.verdict) == verdict_name(b.verdict));
    REQUIRE(verdict_name(c.verdict) == verdict_name(b.verdict));
    if (!model->is_partitioned()) REQUIRE(verdict_name(required_first_verdict(h, *model)) == verdict_name(b.verdict));
    (a.verdict == Verdict::linearizable ? tally.linearizable : tally.not_linearizable)++;
  }
  return tally;
}

}  // namespace

TEST_SUITE("slow") {
  TEST_CASE("WGL and JIT agree with brute force on random histories of every model") {
    const std::uint64_t seed = 20261130;
    MESSAGE("differential test seed: ", seed);
    for (const std::string& spec : testing::random_history_models()) {
      for (int ops : {3, 5, 7, 9}) {
        testing::RandomHistoryShape shape;
        shape.operations = ops;
        shape.processes = ops <= 5 ? 3 : 4;
        Tally t = compare_engines(spec, 600, shape, seed + ops);
        MESSAGE(spec, " with ", ops, " ops: ", t.linearizable, " linearizable, ", t.not_linearizable, " not");
        // Both outcomes must be exercised, or the comparison proves little.
        CHECK(t.linearizable > 0);
        CHECK(t.not_linearizable > 0);
      }
    }
  }

  // Crashed ops are where WGL's refinements (subsumption, symmetry, no-op skipping)
  // act, so histories dense with them get a run of their own.
  TEST_CASE("WGL and JIT agree with brute force on crash-heavy random histories") {
    const std::uint64_t seed = 4242;
    MESSAGE("crash-heavy differential test seed: ", seed);
    for (const std::string& spec : testing::random_history_models()) {
      testing::RandomHistoryShape shape;
      shape.operations = 8;
      shape.processes = 6;
      shape.crash_probability = 0.45;
      shape.fail_probability = 0.05;
      Tally t = compare_engines(spec, 500, shape, seed);
      MESSAGE(spec, " crash-heavy: ", t.linearizable, " linearizable, ", t.not_linearizable, " not");
      CHECK(t.linearizable > 0);
      CHECK(t.not_linearizable > 0);
    }
  }
}
