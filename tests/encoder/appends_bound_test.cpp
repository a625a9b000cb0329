// The kv encoding's search for the ways a read's value combines appends is bounded
// (encoder/registers.cpp): with few values (Jepsen's kv draws tokens from a handful),
// the appends of equal text combine in exponentially many ways, nearly all ruled out.
// The search used to spend the whole --timeout there and past it, polling nothing
// (`--engine sat` on a one-key kv history of 1,000 ops gave up at 15 s under
// --timeout 10, found by scripts/bench_frontier.py). Now it polls the limits and
// gives the encoding up as unsupported once it has met far more ways than it keeps.
#include "generators/atomic_history.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

using namespace ariadne;

namespace {

// `generate atomic --model kv --keys 1 --values 3 --processes 5 --ops 1000
// --crash-rate 0 --violation --seed 1`: a stale read of "v3 " among 1,000 ops on one
// key whose puts and appends draw from three tokens.
History one_key_kv_stale_read(const Model& model) {
  generators::AtomicShape shape;
  shape.model_spec = "kv";
  shape.keys = 1;
  shape.values = 3;
  shape.processes = 5;
  shape.operations = 1000;
  shape.crash_rate = 0;
  shape.violation = true;
  shape.seed = 1;
  return build_history(generators::generate_atomic_history(shape).log, model);
}

}  // namespace

TEST_SUITE("encoder") {
  TEST_CASE("the ways of combining appends are searched within a bound, not for the whole timeout") {
    const auto model = make_model_from_spec("kv");
    const History history = one_key_kv_stale_read(*model);
    for (const Engine engine : {Engine::sat, Engine::smt}) {
      CAPTURE(engine_name(engine));
      // A timeout no run of the suite reaches: the engine must stop on its own.
      const CheckResult result =
          check(history, *model, {.engine = engine, .timeout_seconds = 600, .jobs = 1, .minimal_core = false});
      CHECK(result.verdict == Verdict::unknown);
      CHECK(result.limit == Limit::none);
      CHECK(result.reason.find("ways of combining appends") != std::string::npos);
    }
  }
}

TEST_SUITE("refute") {
  // The same kind of history by the default check: its violation is a stale read (a
  // put of "v3 ", a put of "v4 " after it, a get of "v3 " after both). Its core used
  // to be the whole 1,000-op key, not minimal after 2 s: every question the core
  // search asked encoded each kept read's ways of combining appends, and the first
  // unsupported one sent every later question to the search. Now relaxed reads are
  // left out of the formula, the reads-from seed knows kv's texts, and the solver is
  // asked again once a question keeps half as many ops.
  TEST_CASE("a one-key kv stale read with few values has its three-op core") {
    const auto model = make_model_from_spec("kv");
    const History history = one_key_kv_stale_read(*model);
    const CheckResult result = check(history, *model, {.timeout_seconds = 600, .jobs = 1});
    REQUIRE(result.verdict == Verdict::not_linearizable);
    CHECK(result.core_minimal);
    CHECK(result.core.size() == 3);
  }
}
