// Atomic histories: for every model, both verdicts and several seeds, the engines
// agree with the verdict known by construction (brute force on small histories, WGL
// and SAT on medium ones); the same shape gives the same bytes; the shape is what was
// asked for (operations, crashes, unique values); the violation's premises hold in the
// events themselves (its ops one after another in real time; for the mutex, no release
// across them); the register scaling shapes are valid; and impossible shapes are usage
// errors.
#include "generators/atomic_history.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/model.hpp>

#include "support/core_oracle.hpp"

#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>

using namespace ariadne;
using generators::AtomicShape;
using generators::generate_atomic_history;

namespace {

// One spec per built-in model, with and without an initial state given.
const std::vector<std::string> kModelSpecs = {
    "register(0)",
    "cas-register(0)",
    "etcd",
    "multi-register",
    "mutex",
    "set",
    "unordered-queue",
    "fifo-queue",
    "stack",
    "kv",
    "priority-queue",
    "max-priority-queue",
};

bool has_values(const std::string& spec) { return spec != "mutex"; }

// The engine's answer; a history it cannot decide within a minute answers unknown,
// which fails the comparison instead of hanging the suite.
CheckResult check_result(const generators::GeneratedHistory& generated, Engine engine) {
  const auto model = make_model_from_spec(generated.model_spec);
  const History history = build_history(generated.log, *model);
  const CheckOptions options{.engine = engine, .timeout_seconds = 60, .jobs = 1, .minimal_core = false};
  return check(history, *model, options);
}

Verdict check_with(const generators::GeneratedHistory& generated, Engine engine) {
  return check_result(generated, engine).verdict;
}

std::string as_text(const generators::GeneratedHistory& generated) {
  return generators::format_generated_file(generated, "test");
}

// Every model, both verdicts, seeds 1..seeds of `shape` (values unique and, where the
// model has values, from a domain of two), each decided by every engine in `engines`.
// An engine may decline a history it has no encoding for (SAT on kv strings that
// repeated appends can build in more than 64 ways); it must never contradict.
void check_every_model(AtomicShape shape, std::uint64_t seeds, std::initializer_list<Engine> engines) {
  std::size_t declined = 0;
  for (const std::string& spec : kModelSpecs) {
    shape.model_spec = spec;
    for (const bool violation : {false, true}) {
      shape.violation = violation;
      for (shape.seed = 1; shape.seed <= seeds; ++shape.seed) {
        shape.values = has_values(spec) && shape.seed % 2 == 0 ? 2 : generators::kUniqueValues;
        const auto generated = generate_atomic_history(shape);
        for (const Engine engine : engines) {
          const CheckResult result = check_result(generated, engine);
          INFO(spec, " seed ", shape.seed, std::string(violation ? " with a violation" : ""), " values ",
               generators::value_domain_text(shape.values), ", engine ", engine_name(engine), ": ", result.reason);
          if (result.verdict == Verdict::unknown && result.reason.find("unsupported") != std::string::npos) {
            ++declined;
            continue;
          }
          CHECK(verdict_name(result.verdict) == verdict_name(generated.expected));
        }
      }
    }
  }
  MESSAGE(declined, " histories declined as unsupported by an engine");
}

// The op ids (invocation positions) the violation's note names, in order of mention.
std::vector<std::size_t> violation_op_ids(const generators::GeneratedHistory& generated) {
  const std::string& note = generated.notes.back();
  std::vector<std::size_t> ids;
  const std::regex op_id("op ([0-9]+)");
  for (auto it = std::sregex_iterator(note.begin(), note.end(), op_id); it != std::sregex_iterator(); ++it) {
    const std::size_t id = std::stoul((*it)[1].str());
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  return ids;
}

// Each op's invocation and completion positions; no completion: the end of time.
struct Interval {
  std::size_t call = 0;
  std::size_t ret = SIZE_MAX;
  std::string f;
  EventType completion = EventType::info;
};

std::map<std::size_t, Interval> intervals(const EventLog& log) {
  std::map<std::size_t, Interval> result;
  std::map<std::int64_t, std::size_t> open;  // process -> its open invocation
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    const Event& event = log.events[i];
    const std::int64_t process = event.process.as_integer();
    if (event.type == EventType::invoke) {
      open[process] = i;
      result[i] = {i, SIZE_MAX, event.f, EventType::info};
    } else {
      Interval& interval = result[open.at(process)];
      interval.completion = event.type;
      if (event.type != EventType::info) interval.ret = i;
    }
  }
  return result;
}

}  // namespace

TEST_SUITE("generators") {
  TEST_CASE("atomic: brute force agrees with the verdict by construction for every model on small histories") {
    check_every_model({.model_spec = "", .operations = 12, .processes = 3, .crash_rate = 0.2}, 20, {Engine::brute});
  }

  TEST_CASE("atomic: the same shape and seed give byte-identical files, another seed another file") {
    for (const std::string& spec : kModelSpecs) {
      for (const bool violation : {false, true}) {
        CAPTURE(spec);
        CAPTURE(violation);
        const AtomicShape shape{.model_spec = spec, .operations = 80, .violation = violation, .seed = 42};
        CHECK(as_text(generate_atomic_history(shape)) == as_text(generate_atomic_history(shape)));
        AtomicShape other = shape;
        other.seed = 43;
        CHECK(as_text(generate_atomic_history(shape)) != as_text(generate_atomic_history(other)));
      }
    }
  }

  TEST_CASE("atomic: the history has its operations, processes and crashes, and the canonical spec") {
    for (const std::string& spec : kModelSpecs) {
      CAPTURE(spec);
      const AtomicShape shape{.model_spec = spec, .operations = 300, .processes = 5, .crash_rate = 0.2, .seed = 9};
      const auto generated = generate_atomic_history(shape);
      CHECK(generated.model_spec == make_model_from_spec(spec)->spec());
      std::size_t invocations = 0;
      std::size_t infos = 0;
      std::set<std::int64_t> processes;
      for (const Event& event : generated.log.events) {
        invocations += event.type == EventType::invoke;
        infos += event.type == EventType::info;
        processes.insert(event.process.as_integer());
      }
      CHECK(invocations == shape.operations);
      // About 60 crashes; a crashed client continues as a new process.
      CHECK(infos > 30);
      CHECK(infos < 100);
      CHECK(processes.size() > shape.processes + infos / 2);
      CHECK(generated.max_open_operations >= infos);
    }
    const AtomicShape calm{.model_spec = "stack", .operations = 100, .crash_rate = 0};
    for (const Event& event : generate_atomic_history(calm).log.events) CHECK(event.type != EventType::info);
  }

  // corpus/regressions/README.md: a crashed cas that took effect after its :info, and
  // failed, had its completion rewritten to :fail, claiming the op never happened. Each
  // process's ops are one after another, so a crashed op is its process's last, and its
  // completion must be the :info the notes count.
  TEST_CASE("atomic: a crashed op keeps its :info even when it takes effect later, and failed") {
    for (const std::string& spec : kModelSpecs) {
      for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        CAPTURE(spec);
        CAPTURE(seed);
        const AtomicShape shape{.model_spec = spec, .operations = 120, .processes = 4, .crash_rate = 0.3, .seed = seed};
        const auto generated = generate_atomic_history(shape);
        std::size_t infos = 0;
        for (const Event& event : generated.log.events) infos += event.type == EventType::info;
        bool noted = false;
        for (const std::string& note : generated.notes) {
          std::smatch match;
          if (std::regex_search(note, match, std::regex("\\((\\d+) with :info"))) {
            CHECK(std::stoul(match[1]) == infos);
            noted = true;
          }
        }
        CHECK(noted);
      }
    }
  }

  TEST_CASE("atomic: with --values unique no value is written or inserted twice; with K they lie in 0..K-1") {
    for (const std::string spec : {"register(0)", "cas-register(0)", "set", "fifo-queue", "unordered-queue"}) {
      CAPTURE(spec);
      AtomicShape shape{.model_spec = spec, .operations = 400, .violation = true, .seed = 5};
      std::set<Value> written;
      for (const Event& event : generate_atomic_history(shape).log.events) {
        if (event.type != EventType::invoke || event.value.is_nil() || event.f == "read") continue;
        const Value value = event.f == "cas" ? event.value.elements()[1] : event.value;
        CHECK_MESSAGE(written.insert(value).second, "written twice: ", value.to_edn());
      }
      CHECK(written.size() > 50);
      shape.values = 3;
      shape.violation = false;
      for (const Event& event : generate_atomic_history(shape).log.events) {
        if (event.type != EventType::invoke || event.value.is_nil() || event.f == "read") continue;
        const Value value = event.f == "cas" ? event.value.elements()[1] : event.value;
        CHECK(value.as_integer() >= 0);
        CHECK(value.as_integer() < 3);
      }
    }
  }

  // The pattern's removals were given the pattern's elements, and another client's
  // removal used to take one of them too: a value removed twice, a second violation of
  // two ops that every 2,000-op queue and stack with --violation carried, and the core
  // ariadne found instead of the planted pattern. Only the pattern removes them now (the
  // unordered queue's pattern is its one element removed twice, by its two dequeues).
  TEST_CASE("atomic: in a collection's violation no value is removed twice but by the pattern") {
    for (const std::string spec : {"fifo-queue", "stack", "unordered-queue"}) {
      for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        CAPTURE(spec);
        CAPTURE(seed);
        const auto generated = generate_atomic_history({.model_spec = spec,
                                                        .operations = 400,
                                                        .processes = 10,
                                                        .crash_rate = 0.01,
                                                        .violation = true,
                                                        .seed = seed});
        std::map<Value, int> removals;
        for (const Event& event : generated.log.events) {
          if (event.type == EventType::ok && (event.f == "dequeue" || event.f == "pop")) ++removals[event.value];
        }
        int twice = 0;
        for (const auto& [value, count] : removals) {
          CHECK_MESSAGE(count <= 2, "removed ", count, " times: ", value.to_edn());
          twice += count == 2 ? 1 : 0;
        }
        CHECK(twice == (spec == "unordered-queue" ? 1 : 0));
        CHECK(removals.size() > 50);
      }
    }
  }

  TEST_CASE("atomic: the violation's operations run one after another in real time") {
    const std::map<std::string, std::size_t> pattern_sizes = {{"register(0)", 3},
                                                              {"cas-register(0)", 3},
                                                              {"etcd", 3},
                                                              {"multi-register", 3},
                                                              {"mutex", 2},
                                                              {"set", 2},
                                                              {"unordered-queue", 3},
                                                              {"fifo-queue", 4},
                                                              {"stack", 4},
                                                              {"kv", 3},
                                                              {"priority-queue", 4},
                                                              {"max-priority-queue", 4}};
    for (const auto& [spec, size] : pattern_sizes) {
      for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        CAPTURE(spec);
        CAPTURE(seed);
        const auto generated = generate_atomic_history(
            {.model_spec = spec, .operations = 60, .processes = 5, .crash_rate = 0.3, .violation = true, .seed = seed});
        const std::vector<std::size_t> ids = violation_op_ids(generated);
        REQUIRE(ids.size() == size);
        const auto ops = intervals(generated.log);
        for (std::size_t i = 0; i < ids.size(); ++i) {
          const Interval& op = ops.at(ids[i]);
          CHECK(op.completion == EventType::ok);
          if (i > 0) CHECK(ops.at(ids[i - 1]).ret < op.call);
        }
      }
    }
  }

  // The claim every violation's note makes, "whatever the other operations did", is the
  // contract of a core (include/ariadne/check.hpp): with every other op relaxed into a
  // crashed op invoked before everything, which may take effect anywhere or never, the
  // pattern alone is still not linearizable. And it is minimal: relaxing any one of its
  // ops too gives an order. Three models differ. The unordered queue's enqueue may be
  // relaxed as well, since a relaxed enqueue still enqueues only once: its core is the
  // two dequeues. Likewise the priority queues' first insert, of the element polled out
  // of turn: relaxed, it may still take effect just before that poll, which the
  // element ahead of it forbids all the same. And no set of acquires alone refutes a
  // mutex, since one relaxed release could always be ordered between two acquires: the
  // mutex's core is its two acquires together with every release, each of which real
  // time keeps out of the gap.
  TEST_CASE("atomic: the violation's operations alone refute the history, a minimal core") {
    for (const std::string& spec : kModelSpecs) {
      for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        CAPTURE(spec);
        CAPTURE(seed);
        const auto generated = generate_atomic_history(
            {.model_spec = spec, .operations = 12, .processes = 3, .crash_rate = 0.2, .violation = true, .seed = seed});
        const auto model = make_model_from_spec(generated.model_spec);
        const History history = build_history(generated.log, *model);
        std::vector<std::uint32_t> core;
        for (const std::size_t id : violation_op_ids(generated)) core.push_back(static_cast<std::uint32_t>(id));
        const bool priority_queue = spec.ends_with("priority-queue");
        if (spec == "unordered-queue" || priority_queue) core.erase(core.begin());
        if (spec == "mutex") {
          for (const Operation& op : history.ops) {
            if (op.f == "release") core.push_back(op.id);
          }
        }
        const auto partition = testing::partition_of(history, *model, core.front());
        const auto minimality = testing::check_minimality(
            partition, core, *model, CheckOptions{.engine = Engine::sat, .timeout_seconds = 60, .jobs = 1});
        CHECK(minimality.refuted);
        CHECK(minimality.necessary == static_cast<int>(core.size()));
        CHECK(minimality.undecided == 0);
      }
    }
  }

  TEST_CASE("atomic: no mutex release can be ordered between the violation's two acquires") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      CAPTURE(seed);
      const auto generated = generate_atomic_history({.model_spec = "mutex",
                                                      .operations = 60,
                                                      .processes = 4,
                                                      .crash_rate = 0.5,
                                                      .violation = true,
                                                      .seed = seed});
      const std::vector<std::size_t> ids = violation_op_ids(generated);
      REQUIRE(ids.size() == 2);
      const auto ops = intervals(generated.log);
      const Interval& first = ops.at(ids[0]);
      const Interval& second = ops.at(ids[1]);
      for (const auto& [id, op] : ops) {
        if (op.f != "release") continue;
        CAPTURE(id);
        CHECK((op.ret < first.call || op.call > second.ret));
      }
    }
  }

  TEST_CASE("atomic: register scaling shapes, unique values and two values, are valid at 2000 operations") {
    for (const std::uint64_t values : {generators::kUniqueValues, std::uint64_t{2}}) {
      CAPTURE(values);
      const auto generated =
          generate_atomic_history({.model_spec = "register(0)", .operations = 2000, .processes = 16, .values = values});
      const auto model = make_model_from_spec(generated.model_spec);
      const History history = build_history(generated.log, *model);
      CHECK(history.ops.size() == 2000);
      CHECK(generated.max_open_operations >= 16);
    }
  }

  TEST_CASE("atomic: initial states are kept and fresh values avoid them") {
    // A fresh value equal to an initial element would be a second copy of it.
    const auto queue = generate_atomic_history(
        {.model_spec = "unordered-queue([1 2 3])", .operations = 12, .violation = true, .seed = 3});
    CHECK(queue.model_spec == "unordered-queue([1 2 3])");
    CHECK(check_with(queue, Engine::brute) == Verdict::not_linearizable);
    const auto kv = generate_atomic_history({.model_spec = "kv({\"a\" \"v1 \"})", .operations = 30, .seed = 2});
    for (const Event& event : kv.log.events) CHECK(event.key == Value::string("a"));
    CHECK(check_with(kv, Engine::wgl) == Verdict::linearizable);
    const auto registers =
        generate_atomic_history({.model_spec = "multi-register({:a 5 :b 6})", .operations = 30, .seed = 2});
    CHECK(check_with(registers, Engine::wgl) == Verdict::linearizable);
  }

  TEST_CASE("atomic: impossible shapes are usage errors that say what is wrong") {
    auto message = [](const AtomicShape& shape) {
      try {
        generate_atomic_history(shape);
      } catch (const UsageError& error) {
        return std::string(error.what());
      }
      return std::string("no error");
    };
    CHECK(message({.model_spec = "no-such-model"}).find("unknown model") != std::string::npos);
    CHECK(message({.model_spec = "register", .operations = 0}).find("--ops") != std::string::npos);
    CHECK(message({.model_spec = "register", .processes = 0}).find("--processes") != std::string::npos);
    CHECK(message({.model_spec = "register", .crash_rate = 1.5}).find("--crash-rate") != std::string::npos);
    CHECK(message({.model_spec = "register", .crash_rate = -0.1}).find("--crash-rate") != std::string::npos);
    CHECK(message({.model_spec = "mutex", .values = 3}).find("mutex") != std::string::npos);
    CHECK(message({.model_spec = "fifo-queue", .operations = 3, .violation = true}).find("at least 4") !=
          std::string::npos);
    CHECK_THROWS_AS(generators::parse_value_domain("0"), UsageError);
    CHECK_THROWS_AS(generators::parse_value_domain("-2"), UsageError);
    CHECK_THROWS_AS(generators::parse_value_domain("two"), UsageError);
    CHECK_THROWS_AS(generators::parse_value_domain("1000000001"), UsageError);
    CHECK(generators::parse_value_domain("unique") == generators::kUniqueValues);
    CHECK(generators::parse_value_domain("7") == 7);
    // Every operation crashing is odd but possible; a violation still has its pattern.
    const auto all_crashed =
        generate_atomic_history({.model_spec = "set", .operations = 12, .crash_rate = 1, .violation = true, .seed = 4});
    CHECK(check_with(all_crashed, Engine::wgl) == Verdict::not_linearizable);
    // The smallest violation is the pattern alone.
    const auto bare = generate_atomic_history({.model_spec = "stack", .operations = 4, .violation = true});
    CHECK(check_with(bare, Engine::brute) == Verdict::not_linearizable);
  }
}

TEST_SUITE("slow") {
  // Fewer crashes than the default: every crashed enqueue or push of a fresh value may
  // take effect anywhere after its invocation, or never, and a backtracking search (WGL)
  // must refute each placement separately, so a refuted fifo-queue or stack history of
  // a hundred operations with ten such crashes can take WGL minutes (SAT: a tenth of a
  // second). Five percent keeps every model within a second or two per history.
  TEST_CASE("atomic: WGL and SAT agree with the verdict by construction for every model on medium histories") {
    check_every_model({.model_spec = "", .operations = 80, .processes = 4, .crash_rate = 0.05}, 4,
                      {Engine::wgl, Engine::sat});
  }
}
