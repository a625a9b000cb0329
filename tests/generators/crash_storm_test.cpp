// Crash storms: the same shape gives the same bytes; the history has the promised
// shape (operation count, crashed writes reported by :info and spread out, retired
// processes, many operations open at once, reads that saw crashed writes); the
// stale-read variant differs in exactly one read; and the WGL engine agrees with the
// verdict known by construction.
#include "generators/crash_storm.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace ariadne;
using generators::CrashStormShape;
using generators::generate_crash_storm;

namespace {

// The shape of a generated log, measured from its events alone rather than taken
// from the generator's own bookkeeping.
struct MeasuredShape {
  std::size_t invocations = 0;
  std::size_t infos = 0;
  std::size_t max_open = 0;                      // invoked and not yet :ok or :fail; crashed ops stay open
  std::vector<std::size_t> crashed_invocations;  // positions among the invocations
  std::size_t reads_of_crashed_values = 0;
  std::set<std::int64_t> crashed_values_read;
  bool process_reused_after_crash = false;
};

MeasuredShape measure(const EventLog& log) {
  MeasuredShape shape;
  std::map<std::int64_t, std::size_t> open_invocation;  // process -> its invocation number
  std::set<std::int64_t> retired;
  std::set<std::int64_t> crashed_values;
  std::size_t open = 0;
  for (const Event& event : log.events) {
    const std::int64_t process = event.process.as_integer();
    if (retired.count(process)) shape.process_reused_after_crash = true;
    switch (event.type) {
      case EventType::invoke:
        open_invocation[process] = shape.invocations++;
        shape.max_open = std::max(shape.max_open, ++open);
        break;
      case EventType::info:
        ++shape.infos;
        shape.crashed_invocations.push_back(open_invocation[process]);
        crashed_values.insert(event.value.as_integer());
        retired.insert(process);
        break;
      case EventType::ok:
      case EventType::fail:
        --open;
        if (event.type == EventType::ok && event.f == "read" && crashed_values.count(event.value.as_integer())) {
          ++shape.reads_of_crashed_values;
          shape.crashed_values_read.insert(event.value.as_integer());
        }
        break;
    }
  }
  return shape;
}

std::string as_text(const generators::GeneratedHistory& generated) {
  return generators::format_generated_file(generated, "test");
}

Verdict check_with_wgl(const generators::GeneratedHistory& generated) {
  const auto model = make_model_from_spec(generated.model_spec);
  const History history = build_history(generated.log, *model);
  CheckOptions options;
  options.engine = Engine::wgl;
  options.jobs = 1;
  return check(history, *model, options).verdict;
}

// Seeds 1..seeds of `shape`, with and without a stale read, each checked by WGL.
void check_verdicts_with_wgl(CrashStormShape shape, std::uint64_t seeds) {
  for (shape.seed = 1; shape.seed <= seeds; ++shape.seed) {
    for (const bool stale : {false, true}) {
      shape.stale_read = stale;
      const auto generated = generate_crash_storm(shape);
      INFO("seed ", shape.seed, stale ? " with a stale read" : "");
      CHECK(check_with_wgl(generated) == generated.expected);
    }
  }
}

}  // namespace

TEST_SUITE("generators") {
  TEST_CASE("crash storm: the same shape and seed give byte-identical files") {
    for (const bool stale : {false, true}) {
      const CrashStormShape shape{
          .operations = 300, .crashed_writes = 12, .clients = 5, .stale_read = stale, .seed = 42};
      CAPTURE(stale);
      CHECK(as_text(generate_crash_storm(shape)) == as_text(generate_crash_storm(shape)));
      CrashStormShape other = shape;
      other.seed = 43;
      CHECK(as_text(generate_crash_storm(shape)) != as_text(generate_crash_storm(other)));
    }
  }

  TEST_CASE("crash storm: the default shape has its operations and crashes and many ops open late") {
    const CrashStormShape shape;  // 2000 operations, 50 crashed writes, 12 clients
    const auto generated = generate_crash_storm(shape);
    CHECK(generated.model_spec == "cas-register(0)");
    CHECK(generated.expected == Verdict::linearizable);
    const MeasuredShape measured = measure(generated.log);
    CHECK(measured.invocations == shape.operations);
    CHECK(measured.infos == shape.crashed_writes);
    CHECK(generated.log.events.size() == 2 * shape.operations);  // everything completes, crashes with :info
    CHECK(measured.max_open == generated.max_open_operations);
    // Every crashed write stays open, and the clients add at most one op each.
    CHECK(generated.max_open_operations >= shape.crashed_writes);
    CHECK(generated.max_open_operations <= shape.crashed_writes + shape.clients);
    CHECK_FALSE(measured.process_reused_after_crash);
    // Reads must see crashed writes, or a checker could simply drop them all.
    CHECK(measured.crashed_values_read.size() >= shape.crashed_writes / 5);
    MESSAGE("max open ", generated.max_open_operations, ", reads of crashed values ", measured.reads_of_crashed_values,
            " (", measured.crashed_values_read.size(), " distinct crashed writes)");
  }

  TEST_CASE("crash storm: crashed writes are spread over the whole history") {
    const CrashStormShape shape{.operations = 1000, .crashed_writes = 20, .clients = 8, .stale_read = false, .seed = 3};
    const MeasuredShape measured = measure(generate_crash_storm(shape).log);
    REQUIRE(measured.crashed_invocations.size() == 20);
    std::vector<std::size_t> positions = measured.crashed_invocations;
    std::sort(positions.begin(), positions.end());
    // One per stratum of 50 invocations.
    for (std::size_t i = 0; i < positions.size(); ++i) {
      CAPTURE(i);
      CHECK(positions[i] >= i * 50);
      CHECK(positions[i] < (i + 1) * 50);
    }
  }

  TEST_CASE("crash storm: the stale-read variant changes exactly one read in the middle-to-late part") {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      CAPTURE(seed);
      CrashStormShape shape{.operations = 400, .crashed_writes = 10, .clients = 6, .stale_read = false, .seed = seed};
      const auto clean = generate_crash_storm(shape);
      shape.stale_read = true;
      const auto stale = generate_crash_storm(shape);
      CHECK(stale.expected == Verdict::not_linearizable);
      REQUIRE(stale.log.events.size() == clean.log.events.size());
      std::vector<std::size_t> changed;
      for (std::size_t i = 0; i < clean.log.events.size(); ++i) {
        const Event& a = clean.log.events[i];
        const Event& b = stale.log.events[i];
        CHECK(a.process == b.process);
        CHECK(a.type == b.type);
        CHECK(a.f == b.f);
        if (a.value != b.value) changed.push_back(i);
      }
      REQUIRE(changed.size() == 1);
      const Event& read = stale.log.events[changed[0]];
      CHECK(read.f == "read");
      CHECK(read.type == EventType::ok);
      CHECK(changed[0] > stale.log.events.size() * 2 / 5);
      CHECK(changed[0] < stale.log.events.size() * 19 / 20);
    }
  }

  TEST_CASE("crash storm: impossible shapes are usage errors") {
    CHECK_THROWS_AS(generate_crash_storm({.operations = 0}), UsageError);
    CHECK_THROWS_AS(generate_crash_storm({.operations = 10, .crashed_writes = 0, .clients = 0}), UsageError);
    CHECK_THROWS_AS(generate_crash_storm({.operations = 10, .crashed_writes = 11}), UsageError);
    // A single write cannot be made stale: there is no read.
    CHECK_THROWS_AS(generate_crash_storm({.operations = 1, .crashed_writes = 1, .clients = 1, .stale_read = true}),
                    UsageError);
    // Every operation crashing is odd but possible.
    const auto all_crashed = generate_crash_storm({.operations = 30, .crashed_writes = 30, .clients = 3});
    CHECK(measure(all_crashed.log).infos == 30);
  }

  TEST_CASE("crash storm: WGL agrees with the verdict by construction on small storms") {
    check_verdicts_with_wgl({.operations = 60, .crashed_writes = 4, .clients = 4}, 150);
  }
}

TEST_SUITE("slow") {
  TEST_CASE("crash storm: WGL agrees with the verdict by construction on medium storms") {
    check_verdicts_with_wgl({.operations = 400, .crashed_writes = 10, .clients = 6}, 20);
  }
}
