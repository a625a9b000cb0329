// A stale read among crashed ops under --engine auto, before the race. A cas-register
// history of 5,000 ops with 5% crashed ops and one stale read was unknown after 60 s
// of the race (issue 42's frontier: every engine kept searching the crashed ops'
// placements). The stale-read test, run once the opening search has had its 100 ms
// (EngineRow::make_before_race), refuted it; since WGL's lookahead runs once from the
// root, the opening search itself refutes it, at its first dead end. Either way the
// answer comes before the race, and the core is the stale read's three ops.
#include "generators/atomic_history.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

using namespace ariadne;

namespace {

// `generate atomic --model cas-register --values 5 --processes 5 --crash-rate 0.05
// --ops 5000 --violation --seed 1`, or its kv twin on one key.
History frontier_stale_read(const std::string& spec, std::size_t keys, const Model& model) {
  const generators::AtomicShape shape{.model_spec = spec,
                                      .operations = 5000,
                                      .processes = 5,
                                      .keys = keys,
                                      .values = 5,
                                      .crash_rate = 0.05,
                                      .violation = true,
                                      .seed = 1};
  return build_history(generators::generate_atomic_history(shape).log, model);
}

}  // namespace

TEST_SUITE("portfolio") {
  TEST_CASE("a stale read among thousands of crashed-op placements is refuted before the race, its core minimal") {
    for (const auto& [spec, keys] : {std::pair<std::string, std::size_t>{"cas-register(nil)", 0}, {"kv", 1}}) {
      CAPTURE(spec);
      const auto model = make_model_from_spec(spec);
      const History history = frontier_stale_read(spec, keys, *model);
      // A timeout no run of the suite reaches: without the test, the check would
      // run into it.
      const CheckResult result = check(history, *model, {.timeout_seconds = 600, .jobs = 2});
      REQUIRE(result.verdict == Verdict::not_linearizable);
      CHECK((result.engine == "wgl" || result.engine == "unique"));
      CHECK(result.core_minimal);
      CHECK(result.core.size() == 3);
      CHECK(result.limit == Limit::none);
    }
  }
}
