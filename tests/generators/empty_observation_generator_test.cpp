// The simulated queues and stack with ContainerOptions::empty_observations
// (generators/atomic_containers.hpp): removals on an empty container complete :ok
// :empty, the verdict by construction holds (brute force and WGL agree with it), and
// the violation rests on its empty observation: the observation and the insert of
// its element are in the minimal core.
#include "generators/atomic_containers.hpp"
#include "generators/atomic_history.hpp"
#include "generators/atomic_simulation.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "support/core_oracle.hpp"

#include <doctest/doctest.h>

using namespace ariadne;

namespace {

struct Generated {
  EventLog log;
  std::vector<std::size_t> pattern_ids;  // the pattern's op ids (invocation positions), in step order
};

Generated generate(const Model& model, std::uint64_t seed, bool violation, std::size_t operations) {
  generators::SeededRandom random(seed);
  generators::ValueSource values(generators::kUniqueValues, {});
  const generators::ObjectContext context{model, Value(), 3, random, values, 0};
  const auto object = generators::make_container_object(context, {.empty_observations = true});
  generators::SimulatedRun run = generators::simulate({operations, 3, 0.15, violation}, *object, random);
  if (violation) (void)object->break_pattern(run.pattern_ops());
  Generated out;
  out.log = run.event_log("atomic-" + model.name());
  for (const std::size_t i : run.pattern) out.pattern_ids.push_back(run.ops[i].invoke_event);
  return out;
}

int empty_observations(const EventLog& log) {
  int count = 0;
  for (const Event& e : log.events) count += e.type == EventType::ok && e.value == Value::keyword("empty") ? 1 : 0;
  return count;
}

}  // namespace

TEST_SUITE("generators") {
  TEST_CASE("atomic containers with empty observations: the verdict by construction holds") {
    for (const std::string spec : {"fifo-queue", "stack", "unordered-queue"}) {
      const auto model = make_model_from_spec(spec);
      int observations = 0;
      for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        for (const bool violation : {false, true}) {
          const Generated g = generate(*model, seed, violation, 9);
          observations += empty_observations(g.log);
          const History history = build_history(g.log, *model);
          INFO(spec, " seed ", seed, std::string(violation ? " with a violation" : ""));
          const Verdict expected = violation ? Verdict::not_linearizable : Verdict::linearizable;
          CHECK(check(history, *model, CheckOptions{.engine = Engine::brute, .jobs = 1}).verdict == expected);
          CHECK(check(history, *model, CheckOptions{.engine = Engine::wgl, .jobs = 1}).verdict == expected);
          // An empty removal is :ok now; only a removal that finds nothing but the
          // pattern's element where it would take one still fails.
          if (!violation) {
            for (const Event& e : g.log.events) CHECK(e.type != EventType::fail);
          }
        }
      }
      MESSAGE(spec, ": ", observations, " empty observations in 80 histories");
      CHECK(observations > 40);
    }
  }

  TEST_CASE("atomic containers with empty observations: the unordered queue's violation is its observation") {
    const auto model = make_model_from_spec("unordered-queue");
    int patterns_alone = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const Generated g = generate(*model, seed, true, 10);
      const History history = build_history(g.log, *model);
      const CheckResult r = check(history, *model, CheckOptions{.jobs = 1});
      INFO("seed ", seed, ": ", r.why);
      REQUIRE(r.verdict == Verdict::not_linearizable);
      std::vector<std::uint32_t> core = r.core;
      std::ranges::sort(core);
      // The observation is in it; and when the pattern started on an empty queue (it
      // waits for one, unless the history would end first), the core is insert a, the
      // observation and the removal of a: the pattern alone.
      CHECK(std::ranges::count(core, static_cast<std::uint32_t>(g.pattern_ids[1])) == 1);
      const std::vector<std::uint32_t> pattern(g.pattern_ids.begin(), g.pattern_ids.end());
      patterns_alone += core == pattern ? 1 : 0;
      std::vector<const Operation*> partition;
      for (const Operation& op : history.ops) partition.push_back(&op);
      const testing::MinimalityCheck minimal =
          testing::check_minimality(partition, r.core, *model, CheckOptions{.engine = Engine::brute, .jobs = 1});
      CHECK(minimal.refuted);
      CHECK(minimal.necessary == static_cast<int>(core.size()));
    }
    CHECK(patterns_alone >= 15);
  }

  TEST_CASE("atomic containers without the option still fail an empty removal") {
    const auto model = make_model_from_spec("fifo-queue");
    generators::SeededRandom random(7);
    generators::ValueSource values(generators::kUniqueValues, {});
    const generators::ObjectContext context{*model, Value(), 3, random, values, 0};
    const auto object = generators::make_container_object(context, {});
    const generators::SimulatedRun run = generators::simulate({30, 3, 0.1, false}, *object, random);
    const EventLog log = run.event_log("atomic-fifo-queue");
    CHECK(empty_observations(log) == 0);
  }
}
