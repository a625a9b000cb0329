// check() of independent(MODEL) histories (portfolio/independent.cpp): generated
// jepsen.independent histories of several models, one with a violation planted on
// one key and its all-good twin (same seed, no violation), give the right verdict,
// one KeyResult per key with the right verdict each, a core that lies within the
// failing key and is minimal there (checked from the outside, tests/support/
// core_oracle.hpp), and a linearization of the whole history in original op ids.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "generators/atomic_history.hpp"
#include "generators/crash_storm.hpp"
#include "models/independent.hpp"
#include "portfolio/independent.hpp"
#include "support/core_oracle.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <set>
#include <sstream>

using namespace ariadne;

namespace {

History generated(const std::string& inner, std::size_t keys, std::uint64_t seed, bool violation, const Model& model) {
  generators::AtomicShape shape;
  shape.model_spec = "independent(" + inner + ")";
  shape.operations = 240;
  shape.processes = 6;
  shape.keys = keys;
  shape.crash_rate = 0.05;
  shape.violation = violation;
  shape.seed = seed;
  return build_history(generators::generate_atomic_history(shape).log, model);
}

std::set<Value> keys_in(const History& history) {
  std::set<Value> keys;
  for (const Operation& op : history.ops) keys.insert(independent_key(op));
  return keys;
}

}  // namespace

TEST_SUITE("portfolio") {
  TEST_CASE("independent histories: the verdict, one answer per key, and a minimal core within the failing key") {
    const CheckOptions options{.timeout_seconds = 30, .jobs = 2};
    int refuted = 0;
    for (const std::string inner : {"cas-register(0)", "register(0)", "etcd", "fifo-queue", "set", "mutex", "kv"}) {
      const auto model = make_model_from_spec("independent(" + inner + ")");
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        for (const bool violation : {false, true}) {
          CAPTURE(inner);
          CAPTURE(seed);
          CAPTURE(violation);
          const History history = generated(inner, 6, seed, violation, *model);
          const CheckResult r = check(history, *model, options);
          REQUIRE(r.verdict == (violation ? Verdict::not_linearizable : Verdict::linearizable));

          // One answer per key, each key's own verdict.
          const std::set<Value> keys = keys_in(history);
          REQUIRE(r.keys.size() == keys.size());
          std::set<Value> answered;
          std::size_t operations = 0;
          int keys_refuted = 0;
          for (const KeyResult& k : r.keys) {
            answered.insert(k.key);
            operations += k.operations;
            if (k.verdict == Verdict::not_linearizable) {
              ++keys_refuted;
              CHECK(k.key.to_edn() == r.failing_key);
            } else {
              CHECK(k.verdict == Verdict::linearizable);
            }
          }
          CHECK(answered == keys);
          CHECK(operations == history.ops.size());
          CHECK(keys_refuted == (violation ? 1 : 0));

          if (!violation) {
            // Every completed op once, in original ids (check() certified the order);
            // a crashed op only if it took effect.
            const std::set<std::uint32_t> ordered(r.linearization.begin(), r.linearization.end());
            CHECK(ordered.size() == r.linearization.size());
            for (const Operation& op : history.ops) {
              if (op.status == OpStatus::ok) CHECK(ordered.count(op.id) == 1);
            }
            CHECK(r.failing_key.empty());
            continue;
          }
          ++refuted;
          REQUIRE(!r.core.empty());
          CHECK(r.core_minimal);
          for (const std::uint32_t id : r.core) {
            const auto op =
                std::find_if(history.ops.begin(), history.ops.end(), [&](const Operation& o) { return o.id == id; });
            REQUIRE(op != history.ops.end());
            CHECK(independent_key(*op).to_edn() == r.failing_key);
          }
          const auto partition = testing::partition_of(history, *model, r.core.front());
          const testing::MinimalityCheck minimal = testing::check_minimality(partition, r.core, *model, options);
          CHECK(minimal.refuted);
          CHECK(minimal.necessary == static_cast<int>(r.core.size()));
        }
      }
    }
    CHECK(refuted == 21);
  }

  TEST_CASE("independent histories: several refuted keys name the first, and the others in the explanation") {
    // Two generated histories on disjoint keys, their events interleaved: both keys of
    // their violations refuted, the first in order of appearance reported in full.
    const auto model = make_model_from_spec("independent(cas-register(0))");
    History history = generated("cas-register(0)", 3, 7, true, *model);
    const CheckResult one = check(history, *model, {.jobs = 2});
    REQUIRE(one.verdict == Verdict::not_linearizable);
    // A copy of every op of the refuted key, under key 100, with ids past the end:
    // a second refuted key, after the first in order of appearance.
    const std::uint32_t shift = static_cast<std::uint32_t>(history.event_count);
    std::vector<Operation> copies;
    for (const Operation& op : history.ops) {
      if (independent_key(op).to_edn() != one.failing_key) continue;
      Operation copy = op;
      copy.id += shift;
      copy.call += shift;
      if (copy.ret != kNever) copy.ret += shift;
      copy.invoke_value = Value::vector({Value::integer(100), op.invoke_value.elements()[1]});
      if (copy.value.is_sequential() && copy.value.elements().size() == 2) {
        copy.value = Value::vector({Value::integer(100), op.value.elements()[1]});
      }
      copies.push_back(std::move(copy));
    }
    history.ops.insert(history.ops.end(), copies.begin(), copies.end());
    history.event_count *= 2;
    const CheckResult two = check(history, *model, {.jobs = 2});
    REQUIRE(two.verdict == Verdict::not_linearizable);
    CHECK(two.failing_key == one.failing_key);
    CHECK(two.core == one.core);
    CHECK(two.explanation.find("so are 1 more of the 4 keys (100)") != std::string::npos);
  }

  TEST_CASE("independent histories: undecided keys make the answer unknown, each key saying why") {
    // Key 0: a crash storm every engine needs seconds for (3,000 ops, 300 crashed
    // writes, and one write of a value written before, so the unique-value test
    // declines, as in tests/cli/check_interrupt_test.cpp); key 1: a write and a read.
    generators::CrashStormShape storm;
    storm.operations = 3000;
    storm.crashed_writes = 300;
    EventLog log = generators::generate_crash_storm(storm).log;
    const auto event = [](std::int64_t process, EventType type, const char* f, Value value) {
      Event e;
      e.process = Value::integer(process);
      e.type = type;
      e.f = f;
      e.value = std::move(value);
      return e;
    };
    log.events.push_back(event(100000, EventType::invoke, "write", Value::integer(2)));
    log.events.push_back(event(100000, EventType::ok, "write", Value::integer(2)));
    for (Event& e : log.events) e.value = Value::vector({Value::integer(0), e.value});
    log.events.push_back(
        event(100001, EventType::invoke, "write", Value::vector({Value::integer(1), Value::integer(5)})));
    log.events.push_back(event(100001, EventType::ok, "write", Value::vector({Value::integer(1), Value::integer(5)})));
    const auto model = make_model_from_spec("independent(cas-register(0))");
    const History history = build_history(log, *model);

    // Cancelled from the start: the storm is unknown; the small key may be decided
    // before its engine first polls the flag.
    const std::atomic<bool> cancelled{true};
    const CheckResult r = check(history, *model, {.jobs = 2, .cancel = &cancelled});
    CHECK(r.verdict == Verdict::unknown);
    CHECK(r.engine.empty());
    CHECK_MESSAGE(r.reason.starts_with("key 0: cancelled"), r.reason);
    REQUIRE(r.keys.size() == 2);
    CHECK(r.keys[0].verdict == Verdict::unknown);
    CHECK(!r.keys[0].reason.empty());
    CHECK(r.keys[1].verdict != Verdict::not_linearizable);
    CHECK(r.linearization.empty());
  }

  TEST_CASE("a history of tuples is checked key by key, where one register of tuples refutes it") {
    // corpus/regressions/independent-tuples-read-as-one-register.edn
    const std::string file =
        std::string(ARIADNE_SOURCE_DIR) + "/corpus/regressions/independent-tuples-read-as-one-register.edn";
    std::ifstream in(file);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const auto independent = make_model_from_spec("independent(cas-register)");
    const History h = parse_history(text.str(), file, *independent);
    const CheckResult r = check(h, *independent, {});
    CHECK(r.verdict == Verdict::linearizable);
    CHECK(r.keys.size() == 2);
    const auto one_register = make_model_from_spec("cas-register");
    CHECK(check(parse_history(text.str(), file, *one_register), *one_register, {}).verdict ==
          Verdict::not_linearizable);
  }

  TEST_CASE("split_by_key keeps original op ids and times, in order of first appearance") {
    const auto model = make_model_from_spec("independent(register(0))");
    const History history = generated("register(0)", 4, 2, false, *model);
    const auto keys = portfolio::split_by_key(history);
    std::size_t total = 0;
    std::vector<Value> first_seen;
    for (const Operation& op : history.ops) {
      const Value key = independent_key(op);
      if (std::find(first_seen.begin(), first_seen.end(), key) == first_seen.end()) first_seen.push_back(key);
    }
    REQUIRE(keys.size() == first_seen.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      CHECK(keys[i].key == first_seen[i]);
      total += keys[i].history.ops.size();
      for (const Operation& op : keys[i].history.ops) {
        const auto original =
            std::find_if(history.ops.begin(), history.ops.end(), [&](const Operation& o) { return o.id == op.id; });
        REQUIRE(original != history.ops.end());
        CHECK(independent_key(*original) == keys[i].key);
        CHECK(op.call == original->call);
        CHECK(op.ret == original->ret);
        CHECK(op.invoke_value == original->invoke_value.elements()[1]);
      }
    }
    CHECK(total == history.ops.size());
  }

  TEST_CASE("independent(MODEL) refuses values that are not [key value] tuples") {
    const auto model = make_model_from_spec("independent(cas-register)");
    CHECK_THROWS_WITH_AS(parse_history("{:process 0, :type :invoke, :f :write, :value 3}\n"
                                       "{:process 0, :type :ok, :f :write, :value 3}\n",
                                       "bad.edn", *model),
                         doctest::Contains("expected a [key value] tuple"), InputError);
    CHECK_THROWS_WITH_AS(parse_history("{:process 0, :type :invoke, :f :write, :value [1 3]}\n"
                                       "{:process 0, :type :ok, :f :write, :value [2 3]}\n",
                                       "bad.edn", *model),
                         doctest::Contains("the completion names key 2 but its invocation named key 1"), InputError);
  }

}  // TEST_SUITE
