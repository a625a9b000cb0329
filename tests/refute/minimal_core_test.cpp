// Minimal cores against the brute-force oracle: on random small histories of every
// model, each "not linearizable" answer's core must be refuted once relaxed, and each
// of its ops necessary (relaxing it too makes the history linearizable), both decided
// by exhaustive enumeration, which shares nothing with the solver that shrank it.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/minimal_core.hpp"
#include "support/core_oracle.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ariadne;

namespace {

int check_random_cores(const std::string& spec, int histories, std::uint64_t seed, double empty_probability = 0) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1};
  int cores = 0;
  for (int i = 0; i < histories; ++i) {
    testing::RandomHistoryShape shape;
    shape.operations = 4 + i % 5;
    shape.processes = 3;
    shape.crash_probability = i % 3 == 0 ? 0.3 : 0.1;
    shape.empty_probability = empty_probability;
    History h = build_history(testing::random_history(spec, shape, rng), *model);
    const CheckResult result = check(h, *model, CheckOptions{.jobs = 1});
    if (result.verdict != Verdict::not_linearizable) continue;
    INFO("model ", spec, ", seed ", seed, ", history #", i);
    REQUIRE_FALSE(result.core.empty());
    CHECK(result.core_minimal);
    CHECK(std::is_sorted(result.core.begin(), result.core.end()));
    const auto partition = testing::partition_of(h, *model, result.core.front());
    const testing::MinimalityCheck minimal = testing::check_minimality(partition, result.core, *model, brute);
    CHECK(minimal.refuted);
    CHECK(minimal.undecided == 0);
    CHECK(minimal.necessary == static_cast<int>(result.core.size()));
    ++cores;
  }
  return cores;
}

}  // namespace

TEST_CASE("cores are minimal by brute force: register") { CHECK(check_random_cores("register(0)", 300, 1) > 30); }
TEST_CASE("cores are minimal by brute force: cas-register") {
  CHECK(check_random_cores("cas-register(0)", 300, 2) > 30);
}
TEST_CASE("cores are minimal by brute force: etcd") { CHECK(check_random_cores("etcd", 300, 3) > 30); }
TEST_CASE("cores are minimal by brute force: mutex") { CHECK(check_random_cores("mutex()", 300, 4) > 30); }
TEST_CASE("cores are minimal by brute force: queues, stack and set") {
  CHECK(check_random_cores("fifo-queue()", 200, 5) > 20);
  CHECK(check_random_cores("unordered-queue()", 200, 6) > 20);
  CHECK(check_random_cores("stack()", 200, 7) > 20);
  CHECK(check_random_cores("set()", 200, 8) > 20);
}
// Removals that returned :empty (issue 49): a core resting on one must hold the
// removals that could have emptied the container in time, and no more.
TEST_CASE("cores are minimal by brute force: containers with empty observations") {
  CHECK(check_random_cores("fifo-queue()", 300, 11, 0.35) > 60);
  CHECK(check_random_cores("unordered-queue()", 300, 12, 0.35) > 60);
  CHECK(check_random_cores("stack()", 300, 13, 0.35) > 60);
}
TEST_CASE("cores are minimal by brute force: keyed models") {
  CHECK(check_random_cores("multi-register({:x 0 :y 0})", 200, 9) > 20);
  CHECK(check_random_cores("kv", 200, 10) > 20);
}

TEST_CASE("a core search stopped early still returns a core") {
  auto model = make_model_from_spec("register(0)");
  // write 1; write 2; read 1 after both: the read, both writes are the core.
  EventLog log{"script", {}};
  const auto event = [&](std::int64_t p, EventType type, const char* f, Value v) {
    Event e;
    e.process = Value::integer(p);
    e.type = type;
    e.f = f;
    e.value = std::move(v);
    log.events.push_back(e);
  };
  event(0, EventType::invoke, "write", Value::integer(1));
  event(0, EventType::ok, "write", Value::integer(1));
  event(0, EventType::invoke, "write", Value::integer(2));
  event(0, EventType::ok, "write", Value::integer(2));
  event(1, EventType::invoke, "read", {});
  event(1, EventType::ok, "read", Value::integer(1));
  const History h = build_history(log, *model);
  std::vector<const Operation*> ops;
  for (const Operation& op : h.ops) ops.push_back(&op);

  const refute::CoreSearch full = refute::find_minimal_core(ops, *model, std::nullopt, {}, 1ULL << 30);
  CHECK(full.minimal);
  CHECK(full.core == std::vector<std::uint32_t>{0, 1, 2});

  search::StopSignal expired;
  expired.deadline = std::chrono::steady_clock::now();
  const refute::CoreSearch stopped = refute::find_minimal_core(ops, *model, std::nullopt, expired, 1ULL << 30);
  CHECK_FALSE(stopped.minimal);
  CHECK(stopped.core.size() == 3);  // the whole partition: a core, just not shrunk
}
