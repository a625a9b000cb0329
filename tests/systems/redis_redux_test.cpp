// Jepsen's Redis redux design [Kingsbury13b]: the article's scenario, replayed step by
// step, loses the write n3 acknowledged, and a read shows it once c1 has read its own
// timed-out write before that write began, or once Redis unstable's offset reset lets
// n1 win without writing at all; the random search finds a counterexample
// and shrinks it; with a scripted nemesis the share of acknowledged writes lost is 0
// for a tiny partition and grows with the partition's length; the parameters are
// checked; and the exhaustive search finds the shortest counterexample, of 8 steps.
#include "systems/redis_redux.hpp"
#include "explore/design_explorer.hpp"
#include "systems/canonical_key.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <utility>

using namespace ariadne;
using explore::DesignExplorer;
using systems::DesignParameter;
using systems::RedisRedux;

namespace {

RedisRedux redux(const std::vector<DesignParameter>& params) { return RedisRedux(params); }

// A trajectory built by action name, keeping the state so tests can look at it.
struct Scenario {
  explicit Scenario(RedisRedux d = RedisRedux{}) : design(std::move(d)), state(design.initial()) {}
  bool enabled(const std::string& name) const {
    std::vector<systems::Successor<RedisRedux::State>> next;
    design.successors(state, next);
    return std::any_of(next.begin(), next.end(),
                       [&](const auto& s) { return design.action_name(s.step.action) == name; });
  }
  void take(const std::string& name) {
    std::vector<systems::Successor<RedisRedux::State>> next;
    design.successors(state, next);
    for (const auto& s : next)
      if (design.action_name(s.step.action) == name) {
        actions.push_back(s.step.action);
        state = s.state;
        return;
      }
    std::string enabled_names;
    for (const auto& s : next) enabled_names += "\n  " + design.action_name(s.step.action);
    FAIL("not enabled: " << name << "; enabled:" << enabled_names);
  }
  void take_all(std::initializer_list<const char*> names) {
    for (const char* name : names) take(name);
  }
  std::map<std::string, std::uint64_t> tally() const {
    systems::Tally counters;
    design.tally(state, counters);
    return {counters.counters().begin(), counters.counters().end()};
  }
  explore::Trace replay() const { return DesignExplorer<RedisRedux>(design).replay(actions); }

  RedisRedux design;
  RedisRedux::State state;
  std::vector<systems::Action> actions;
};

Verdict full_check(const explore::Trace& trace) {
  const auto model = make_model_from_spec("register(nil)");
  const History history = build_history(trace.history, *model);
  return check(history, *model, CheckOptions{}).verdict;
}

// The article's scenario up to the partition's election: the nemesis cuts {n1 n2}
// off, and the coordinator promotes n3 (n3-n5 are level, the tie goes to n3).
void partition_and_elect_n3(Scenario& run) { run.take_all({"nemesis partition {n1 n2} {n3 n4 n5}", "coord elect n3"}); }

// c2's write to n3 reaches n4 and n5, they acknowledge it, and WAIT 2 returns.
void c2_write_acknowledged_by_majority(Scenario& run) {
  run.take_all({"c2 write to n3", "n4 resync-from-primary n3", "n5 resync-from-primary n3",
                "n4 ack-offset-to-primary n3", "n5 ack-offset-to-primary n3", "c2 write completes"});
}

// The heal, the election that keeps n1 (its offset is higher), and n3's full resync.
void heal_and_keep_n1(Scenario& run) { run.take_all({"nemesis heal", "coord elect n1", "n3 resync-from-primary n1"}); }

// Mean share of acknowledged writes lost, in percent, over a scripted run.
double lost_percent(const std::vector<DesignParameter>& params, std::uint64_t trajectories = 1500) {
  const DesignExplorer<RedisRedux> explorer{RedisRedux(params)};
  explore::RandomOptions options;
  options.depth = 100;
  options.trajectories = trajectories;
  options.jobs = 2;
  const explore::RandomReport report = explorer.random(options, {}, {});
  CHECK(report.counterexamples == 0);
  CHECK(report.dead_ends == 0);
  std::map<std::string, std::uint64_t> counters(report.tally.counters().begin(), report.tally.counters().end());
  REQUIRE(counters["acknowledged writes"] > 0);
  return 100.0 * static_cast<double>(counters["acknowledged writes lost"]) /
         static_cast<double>(counters["acknowledged writes"]);
}

}  // namespace

TEST_SUITE("redis-redux") {
  TEST_CASE("redis-redux: Jepsen's scenario loses the write n3 acknowledged when the heal keeps n1") {
    Scenario run;
    partition_and_elect_n3(run);
    c2_write_acknowledged_by_majority(run);
    // c1's writes to n1 cannot reach three nodes: they time out, but n1 keeps them.
    CHECK_FALSE(run.enabled("c1 write completes"));
    run.take_all({"c1 write to n1", "c1 write times out", "c1 write to n1", "c1 write times out"});
    CHECK(run.state.nodes[0].offset == 2);
    CHECK(run.state.nodes[2].offset == 1);
    heal_and_keep_n1(run);
    CHECK(run.state.coordinator_primary == 0);
    CHECK(run.tally() == std::map<std::string, std::uint64_t>{{"acknowledged writes", 1},
                                                              {"acknowledged writes lost", 1},
                                                              {"heal elections", 1},
                                                              {"heal elections that demoted the primary", 1}});
    // n3 now holds n1's log: the value c2 was told is safe is gone from both, and n4
    // and n5 will drop it at their next resync from n1.
    const systems::Val acknowledged = 1;  // c2's was the first value minted
    CHECK_FALSE(run.state.nodes[0].data.has(acknowledged));
    CHECK_FALSE(run.state.nodes[2].data.has(acknowledged));
    CHECK(run.state.nodes[3].primary == 0);
    CHECK(run.state.nodes[4].primary == 0);
    // Timed-out writes come back under new process numbers (client index + 1 + 3 * timeouts).
    const explore::Trace trace = run.replay();
    std::vector<std::int64_t> c1_processes;
    for (const Event& event : trace.history.events)
      if (event.type == EventType::invoke && event.f == "write" && event.value != Value::integer(acknowledged))
        c1_processes.push_back(event.process.as_integer());
    CHECK(c1_processes == std::vector<std::int64_t>{1, 4});
    CHECK_FALSE(trace.failing_step.has_value());

    // A register checker cannot see this loss from a read of n1 alone: the read returns
    // c1's last timed-out write, which may take effect at any time after it began,
    // so after c2's write as well.
    run.take("c2 read from n1");
    const explore::Trace read = run.replay();
    CHECK_FALSE(read.failing_step.has_value());
    CHECK(read.history.events.back().value == Value::integer(3));
    CHECK(full_check(read) == Verdict::linearizable);
  }

  TEST_CASE("redis-redux: the loss is not linearizable once c1 has read its write before n3's began") {
    // The same scenario, except that c1 reads its second timed-out write back from n1
    // before c2 writes: that pins the write before c2's, so a read of it after c2's
    // acknowledged write has no explanation.
    Scenario run;
    partition_and_elect_n3(run);
    run.take_all({"c1 write to n1", "c1 write times out", "c1 write to n1", "c1 write times out", "c1 read from n1"});
    c2_write_acknowledged_by_majority(run);
    heal_and_keep_n1(run);
    CHECK(run.tally()["acknowledged writes lost"] == 1);
    CHECK_FALSE(run.replay().failing_step.has_value());
    run.take("c2 read from n1");
    const explore::Trace trace = run.replay();
    REQUIRE(trace.failing_step.has_value());
    CHECK(*trace.failing_step == run.actions.size() - 1);
    CHECK(full_check(trace) == Verdict::not_linearizable);
  }

  TEST_CASE("redis-redux: with the offset reset of Redis unstable, n1 wins without writing during the partition") {
    // n3's offset restarts at 0 when it is promoted, so after c2's write it is at 1 and
    // n1, which holds c1's earlier write, ties at 1 and wins. A read after the heal
    // then returns the value c2's acknowledged write replaced.
    Scenario run(redux({{"reset-offset-on-promotion", "true"}}));
    run.take_all({"c1 write to n1", "n2 resync-from-primary n1", "n3 resync-from-primary n1",
                  "n2 ack-offset-to-primary n1", "n3 ack-offset-to-primary n1", "c1 write completes"});
    partition_and_elect_n3(run);
    CHECK(run.state.nodes[2].offset == 0);
    c2_write_acknowledged_by_majority(run);
    run.take_all({"nemesis heal", "coord elect n1", "c2 read from n1"});
    CHECK(run.tally()["acknowledged writes lost"] == 1);
    const explore::Trace trace = run.replay();
    REQUIRE(trace.failing_step.has_value());
    CHECK(full_check(trace) == Verdict::not_linearizable);
  }

  TEST_CASE("redis-redux: the random search finds a counterexample and shrinks it") {
    const DesignExplorer<RedisRedux> explorer{RedisRedux{}};
    explore::RandomOptions options;
    options.depth = 30;
    options.trajectories = 2000;
    options.jobs = 2;
    const explore::RandomReport report = explorer.random(options, {}, {});
    REQUIRE(report.first_failing_trajectory.has_value());
    explore::ExploreLimits limits;
    limits.timeout_seconds = 1;
    const explore::ShrinkReport shrunk = explorer.shrink(report.first_counterexample, limits);
    // The exhaustive search below shows that 8 steps is the shortest there is.
    CHECK(shrunk.actions.size() <= shrunk.original_steps);
    CHECK(shrunk.actions.size() >= 8);
    CHECK(shrunk.actions.size() <= 12);
    const explore::Trace trace = explorer.replay(shrunk.actions);
    REQUIRE(trace.failing_step.has_value());
    CHECK(*trace.failing_step + 1 == shrunk.actions.size());
    CHECK(full_check(trace) == Verdict::not_linearizable);
    // Every counterexample needs an election: before one, every read sees n1's log.
    CHECK(std::any_of(trace.step_names.begin(), trace.step_names.end(),
                      [](const std::string& name) { return name.starts_with("coord elect"); }));
    MESSAGE("shrunk from " << shrunk.original_steps << " to " << shrunk.actions.size() << " steps");
  }

  TEST_CASE("redis-redux: a scripted partition loses nothing when tiny and more the longer it lasts") {
    const auto lost = [](const char* fraction) {
      return lost_percent({{"partition-fraction", fraction}, {"measure-only", "true"}});
    };
    const double tiny = lost("0.02");
    const double short_ = lost("0.3");
    const double half = lost("0.6");
    const double most = lost("0.9");
    MESSAGE("lost: " << tiny << "% at 0.02, " << short_ << "% at 0.3, " << half << "% at 0.6, " << most << "% at 0.9");
    CHECK(tiny == 0);
    CHECK(short_ > 0);
    CHECK(half > short_);
    CHECK(most > half);
    // Redis unstable's offset reset makes the old primary win more elections.
    const double reset =
        lost_percent({{"partition-fraction", "0.3"}, {"measure-only", "true"}, {"reset-offset-on-promotion", "true"}});
    CHECK(reset > short_);
  }

  TEST_CASE("redis-redux: the scripted nemesis partitions, elects, heals and elects at its steps") {
    // 20 steps and F = 0.5: partition at step round(0.25 * 20) = 5, heal 10 steps later.
    const RedisRedux design = redux({{"partition-fraction", "0.5"}, {"run-steps", "20"}});
    CHECK(design.partition_step() == 5);
    CHECK(design.heal_step() == 15);
    const DesignExplorer<RedisRedux> explorer(design);
    explore::RandomOptions options;
    options.depth = 20;
    options.trajectories = 50;
    options.jobs = 1;
    const explore::RandomReport report = explorer.random(options, {}, {});
    CHECK(report.dead_ends == 0);
    // Replay one checked trajectory of the full length and look at its steps.
    Scenario run(design);
    for (int step = 0; step < 20; ++step) {
      std::vector<systems::Successor<RedisRedux::State>> next;
      design.successors(run.state, next);
      REQUIRE_FALSE(next.empty());
      if (step == 5 || step == 6 || step == 15 || step == 16) CHECK(next.size() == 1);
      run.take(design.action_name(next.back().step.action));
    }
    const explore::Trace trace = run.replay();
    CHECK(trace.step_names[5] == "nemesis partition {n1 n2} {n3 n4 n5}");
    CHECK(trace.step_names[6].starts_with("coord elect n"));
    CHECK(trace.step_names[15] == "nemesis heal");
    CHECK(trace.step_names[16].starts_with("coord elect"));
    for (std::size_t s = 0; s < trace.step_names.size(); ++s)
      if (s != 5 && s != 15) CHECK(trace.step_names[s].find("nemesis partition") == std::string::npos);
  }

  TEST_CASE("redis-redux: unknown parameters and bad values are usage errors") {
    const auto refused = [](std::vector<DesignParameter> params) {
      CHECK_THROWS_AS(redux(params), UsageError);
      CHECK_THROWS_AS(explore::make_explorer("redis-redux", params), UsageError);
    };
    refused({{"partition-fractions", "0.5"}});
    refused({{"partition-fraction", "1"}});
    refused({{"partition-fraction", "0"}});
    refused({{"partition-fraction", "half"}});
    refused({{"partition-fraction", "0.5x"}});
    refused({{"run-steps", "0"}});
    refused({{"run-steps", "251"}});
    refused({{"reset-offset-on-promotion", "yes"}});
    refused({{"measure-only", "1"}});
    refused({{"max-timeouts", "13"}});
    refused({{"max-timeouts", "4"}, {"max-timeouts", "5"}});
    CHECK_THROWS_WITH_AS(redux({{"nodes", "7"}}), doctest::Contains("design 'redis-redux' has no such parameter"),
                         UsageError);
    CHECK_NOTHROW(explore::make_explorer("redis-redux", {{"partition-fraction", "0.45"}, {"run-steps", "100"}}));
    // The catalogue lists the design with its parameters.
    const auto catalogue = explore::design_catalogue();
    const auto entry = std::find_if(catalogue.begin(), catalogue.end(),
                                    [](const explore::DesignInfo& info) { return info.name == "redis-redux"; });
    REQUIRE(entry != catalogue.end());
    CHECK(entry->parameters.find("--param partition-fraction=F") != std::string::npos);
    CHECK(std::any_of(catalogue.begin(), catalogue.end(),
                      [](const explore::DesignInfo& info) { return info.name == "redis-wait"; }));
  }

  TEST_CASE("redis-redux: the exhaustive search is clean to depth 7 and fails at 8; renamed states are equal") {
    const DesignExplorer<RedisRedux> explorer{RedisRedux{}};
    const explore::ExhaustiveReport clean = explorer.exhaustive(7, false, {}, {});
    CHECK(clean.complete);
    CHECK(clean.states > 1000);
    CHECK_FALSE(clean.counterexample.has_value());
    MESSAGE("depth 7: " << clean.states << " states, " << clean.transitions << " transitions, " << clean.seconds
                        << " s");
    const explore::ExhaustiveReport failing = explorer.exhaustive(8, true, {}, {});
    REQUIRE(failing.counterexample.has_value());
    CHECK(failing.counterexample->size() == 8);
    CHECK(full_check(explorer.replay(*failing.counterexample)) == Verdict::not_linearizable);

    // The same write of value 1 or of value 50 gives the same key.
    const RedisRedux design;
    RedisRedux::State fresh = design.initial();
    RedisRedux::State later = design.initial();
    later.next_value = 50;
    const auto key_after_write = [&](const RedisRedux::State& from) {
      std::vector<systems::Successor<RedisRedux::State>> next;
      design.successors(from, next);
      systems::CanonicalKey key;
      design.canonical(next.front().state, key);
      return key.words();
    };
    CHECK(key_after_write(fresh) == key_after_write(later));
  }
}
