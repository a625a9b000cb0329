// The Redis WAIT designs: Knossos' model fails as the Knossos article reports, within
// its budget (4 x 10,000 random fifteen-step trajectories) and in the exhaustive search
// to depth 15, with a shortest counterexample of 11 steps that check() refutes; the
// fenced variant fails in neither; and the searches are deterministic.
#include "systems/redis_wait.hpp"
#include "explore/design_explorer.hpp"
#include "systems/redis_wait_fenced.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

using namespace ariadne;
using explore::DesignExplorer;
using systems::RedisWait;
using systems::RedisWaitFenced;

namespace {

explore::RandomOptions seed_budget(std::uint64_t seed, unsigned jobs = 2) {
  explore::RandomOptions options;
  options.depth = 15;
  options.trajectories = 40000;
  options.seed = seed;
  options.jobs = jobs;
  return options;
}

Verdict full_check(const explore::Trace& trace) {
  const auto model = make_model_from_spec("register(nil)");
  const History history = build_history(trace.history, *model);
  return check(history, *model, CheckOptions{}).verdict;
}

}  // namespace

TEST_CASE("redis-wait: the seed's random budget finds a counterexample, shrunk to a proven-shortest 11 steps") {
  const DesignExplorer<RedisWait> explorer(RedisWait{});
  const explore::RandomReport report = explorer.random(seed_budget(0), {}, {});
  CHECK(report.trajectories == 40000);
  REQUIRE(report.first_failing_trajectory.has_value());
  const explore::ShrinkReport shrunk = explorer.shrink(report.first_counterexample, {});
  CHECK(shrunk.proven_shortest);
  CHECK(shrunk.actions.size() == 11);
  const explore::Trace trace = explorer.replay(shrunk.actions);
  REQUIRE(trace.failing_step.has_value());
  CHECK(*trace.failing_step == 10);
  CHECK(full_check(trace) == Verdict::not_linearizable);
  // The Knossos story's shape: the failover is in it, and a read is what fails.
  CHECK(std::count(trace.step_names.begin(), trace.step_names.end(), "coord failover-2-select") == 1);
  CHECK(trace.step_names.back().ends_with(" read"));
}

TEST_CASE("redis-wait: the exhaustive search to depth 15 finds a counterexample") {
  const DesignExplorer<RedisWait> explorer(RedisWait{});
  const explore::ExhaustiveReport report = explorer.exhaustive(15, true, {}, {});
  REQUIRE(report.counterexample.has_value());
  CHECK(full_check(explorer.replay(*report.counterexample)) == Verdict::not_linearizable);
  // Below 11 steps there is none: the whole space to depth 10 is clean.
  const explore::ExhaustiveReport shallow = explorer.exhaustive(10, true, {}, {});
  CHECK(shallow.complete);
  CHECK_FALSE(shallow.counterexample.has_value());
}

TEST_CASE("redis-wait: the first counterexample does not depend on the number of threads") {
  const DesignExplorer<RedisWait> explorer(RedisWait{});
  const explore::RandomReport one = explorer.random(seed_budget(3, 1), {}, {});
  const explore::RandomReport two = explorer.random(seed_budget(3, 2), {}, {});
  CHECK(one.counterexamples == two.counterexamples);
  CHECK(one.steps == two.steps);
  REQUIRE(one.first_failing_trajectory.has_value());
  CHECK(one.first_failing_trajectory == two.first_failing_trajectory);
  CHECK(one.first_counterexample == two.first_counterexample);
}

TEST_CASE("redis-wait-fenced: no counterexample in the random budget or the exhaustive search to depth 15") {
  const DesignExplorer<RedisWaitFenced> explorer(RedisWaitFenced{});
  const explore::RandomReport random = explorer.random(seed_budget(0), {}, {});
  CHECK(random.trajectories == 40000);
  CHECK(random.counterexamples == 0);
  const explore::ExhaustiveReport exhaustive = explorer.exhaustive(15, false, {}, {});
  CHECK(exhaustive.complete);
  CHECK_FALSE(exhaustive.counterexample.has_value());
  MESSAGE("fenced, depth 15: " << exhaustive.states << " states, " << exhaustive.transitions << " transitions, "
                               << exhaustive.seconds << " s");
}

TEST_CASE("redis-wait-fenced: failover happens and writes still complete in its trajectories") {
  // A design that could never fail over, or never complete a write, would pass the
  // test above vacuously: show that the interesting steps are reachable. c1's write
  // reaches n2 and completes; n1 fails over to n2 (offset 1 beats n3's 0), which opens
  // term 2 with a no-op; once n3 holds and acknowledges that no-op, c1 reads 1 from n2.
  const RedisWaitFenced design;
  const std::vector<std::string> steps = {
      "c1 write",
      "n2 replicate-from-primary",
      "n2 ack-offset-to-primary",
      "c1 write completes",
      "coord failover-1-isolate",
      "coord failover-2-select",
      "coord failover-3-inform-nodes",
      "n3 replicate-from-primary",
      "n3 ack-offset-to-primary",
      "coord failover-4-inform-clients",
      "c1 read",
  };
  std::vector<systems::Action> actions;
  RedisWaitFenced::State state = design.initial();
  for (const std::string& name : steps) {
    std::vector<systems::Successor<RedisWaitFenced::State>> next;
    design.successors(state, next);
    const auto chosen = std::find_if(next.begin(), next.end(),
                                     [&](const auto& s) { return design.action_name(s.step.action) == name; });
    REQUIRE_MESSAGE(chosen != next.end(), name << " is not enabled");
    actions.push_back(chosen->step.action);
    state = chosen->state;
  }
  const explore::Trace trace = DesignExplorer<RedisWaitFenced>(design).replay(actions);
  CHECK_FALSE(trace.failing_step.has_value());
  const Event& last = trace.history.events.back();
  CHECK(last.f == "read");
  CHECK(last.value == Value::integer(1));
  CHECK(full_check(trace) == Verdict::linearizable);
}

TEST_CASE("redis-wait-fenced: a read waits until the new primary's term is on a majority") {
  const RedisWaitFenced design;
  RedisWaitFenced::State state = design.initial();
  const auto enabled = [&](const std::string& name) {
    std::vector<systems::Successor<RedisWaitFenced::State>> next;
    design.successors(state, next);
    for (const auto& s : next)
      if (design.action_name(s.step.action) == name) return true;
    return false;
  };
  const auto take = [&](const std::string& name) {
    std::vector<systems::Successor<RedisWaitFenced::State>> next;
    design.successors(state, next);
    for (const auto& s : next)
      if (design.action_name(s.step.action) == name) {
        state = s.state;
        return;
      }
    FAIL("not enabled: " << name);
  };
  CHECK(enabled("c1 read"));  // nothing written yet: all (nothing) is acknowledged
  take("c1 write");
  CHECK_FALSE(enabled("c2 read"));  // the write is on n1 alone
  for (const char* step : {"coord failover-1-isolate", "coord failover-2-select", "coord failover-3-inform-nodes",
                           "coord failover-4-inform-clients"})
    take(step);
  CHECK_FALSE(enabled("c2 read"));  // n3's term-2 no-op is not yet on a majority
  take("c1 gives up on its write (another term)");
  take("n2 replicate-from-primary");
  take("n2 ack-offset-to-primary");
  CHECK(enabled("c2 read"));
}
