// Lagging followers: over many seeds and shapes the checker gives the verdicts the
// generator knows by construction under both conditions (sequential consistency
// holds and linearizability fails; with --violation both fail); small ones are also
// checked by brute force; the same shape gives the same bytes; the header carries
// both verdicts; and impossible shapes are usage errors.
#include "generators/lagging_follower.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

using namespace ariadne;
using generators::generate_lagging_follower;
using generators::LaggingFollowerShape;

namespace {

Verdict verdict_of(const generators::GeneratedHistory& g, Consistency consistency, Engine engine = Engine::automatic) {
  auto model = make_model_from_spec(g.model_spec);
  const History h = build_history(g.log, *model);
  const CheckResult r =
      check(h, *model, CheckOptions{.consistency = consistency, .engine = engine, .timeout_seconds = 60, .jobs = 1});
  if (r.verdict == Verdict::not_linearizable) CHECK_FALSE(r.core.empty());
  return r.verdict;
}

}  // namespace

TEST_CASE("lagging followers: sequentially consistent and not linearizable, or with a violation neither") {
  int histories = 0;
  for (const std::size_t ops : {60, 300, 2000}) {
    for (std::uint64_t seed = 1; seed <= (ops == 2000 ? 3u : 20u); ++seed) {
      for (const bool violation : {false, true}) {
        LaggingFollowerShape shape{
            .operations = ops, .max_lag = ops < 300 ? 4u : 20u, .violation = violation, .seed = seed};
        INFO("ops ", ops, ", seed ", seed, violation ? ", violation" : "");
        generators::GeneratedHistory g;
        try {
          g = generate_lagging_follower(shape);
        } catch (const UsageError&) {
          continue;  // no certainly stale read at this size and seed: said, not faked
        }
        ++histories;
        CHECK(g.expected == Verdict::not_linearizable);
        REQUIRE(g.expected_sequential.has_value());
        CHECK(*g.expected_sequential == (violation ? Verdict::not_linearizable : Verdict::linearizable));
        CHECK(verdict_of(g, Consistency::linearizable) == g.expected);
        CHECK(verdict_of(g, Consistency::sequential) == *g.expected_sequential);
      }
    }
  }
  CHECK(histories >= 70);
}

TEST_CASE("lagging followers: tiny ones agree with brute force") {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (const bool violation : {false, true}) {
      LaggingFollowerShape shape{.operations = 12,
                                 .writers = 2,
                                 .readers = 2,
                                 .followers = 2,
                                 .max_lag = 3,
                                 .violation = violation,
                                 .seed = seed};
      generators::GeneratedHistory g;
      try {
        g = generate_lagging_follower(shape);
      } catch (const UsageError&) {
        continue;
      }
      INFO("seed ", seed, violation ? ", violation" : "");
      CHECK(verdict_of(g, Consistency::sequential, Engine::brute) == *g.expected_sequential);
      CHECK(verdict_of(g, Consistency::linearizable, Engine::brute) == g.expected);
      ++checked;
    }
  }
  CHECK(checked >= 20);
}

TEST_CASE("lagging followers: the same shape gives the same bytes, with both verdicts in the header") {
  const LaggingFollowerShape shape{.operations = 500, .violation = true, .seed = 9};
  const std::string a = generators::format_generated_file(generate_lagging_follower(shape), "cmd");
  const std::string b = generators::format_generated_file(generate_lagging_follower(shape), "cmd");
  CHECK(a == b);
  CHECK(a.find("; expected: not-linearizable\n") != std::string::npos);
  CHECK(a.find("; expected-sequential: not-sequentially-consistent\n") != std::string::npos);
  CHECK_THROWS_AS(generate_lagging_follower(LaggingFollowerShape{.operations = 0}), UsageError);
  CHECK_THROWS_AS(generate_lagging_follower(LaggingFollowerShape{.readers = 0}), UsageError);
  // With no lag at all no read is stale: the generator says so instead of lying.
  CHECK_THROWS_AS(generate_lagging_follower(LaggingFollowerShape{.operations = 500, .max_lag = 0}), UsageError);
}
