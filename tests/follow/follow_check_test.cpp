// check --follow (follow/follow_check.hpp): the prefix argument on random histories,
// and the follow itself on files written by a thread of the test while it reads them.
#include "follow/follow_check.hpp"
#include "certify/witness_checker.hpp"
#include "follow/windowed_check.hpp"
#include "generators/atomic_history.hpp"
#include "history/history_builder.hpp"
#include "support/temp_dir.hpp"

#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/limits.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace ariadne;

namespace {

namespace fs = std::filesystem;

using Scratch = test::TempDir;

std::string lines_of(const EventLog& log, std::size_t first, std::size_t last) {
  std::string text;
  for (std::size_t i = first; i < last && i < log.events.size(); ++i) {
    EventLog one;
    one.events.push_back(log.events[i]);
    text += format_events(one, Format::edn);
  }
  return text;
}

EventLog prefix_of(const EventLog& log, std::size_t events) {
  EventLog prefix;
  prefix.source = log.source;
  prefix.events.assign(log.events.begin(), log.events.begin() + static_cast<std::ptrdiff_t>(events));
  return prefix;
}

CheckResult offline(const fs::path& path, const Model& model) {
  return check(read_history(path.string(), model), model, {});
}

// The whole certificate of a linearization: membership, real time, and every
// partition's legality.
std::optional<std::string> certify_order(const History& history, const Model& model,
                                         const std::vector<std::uint32_t>& order) {
  return certify::check_linearization(history, model, order);
}

struct Followed {
  follow::FollowAnswer answer;
  bool violation_reported = false;
  std::size_t lines_written_at_report = 0;
};

}  // namespace

TEST_SUITE("follow") {
  TEST_CASE(
      "a prefix refuted, pending ops read as crashed, refutes the whole history; the first refuted prefix ends "
      "at the failing op's completion") {
    const char* const specs[] = {"register(0)", "cas-register(0)", "kv",     "fifo-queue", "set",
                                 "stack",       "unordered-queue", "mutex()"};
    int refuted_histories = 0;
    int at_failing_op = 0;  // refuted histories whose first refuted prefix ends at the failing op's completion
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
      for (const char* spec : specs) {
        generators::AtomicShape shape;
        shape.model_spec = spec;
        shape.operations = 14 + seed % 10;
        shape.processes = 3;
        shape.crash_rate = 0.25;
        shape.values = seed % 2 == 0 ? 3 : generators::kUniqueValues;
        shape.violation = seed % 3 != 0;
        shape.seed = seed;
        if (std::string(spec) == "mutex()") shape.values = generators::kUniqueValues;
        const generators::GeneratedHistory generated = generators::generate_atomic_history(shape);
        const auto model = make_model_from_spec(generated.model_spec);
        const History whole = build_history(generated.log, *model);
        const CheckResult whole_result = check(whole, *model, {.minimal_core = false});
        CAPTURE(spec);
        CAPTURE(seed);
        REQUIRE(whole_result.verdict == generated.expected);
        std::optional<std::size_t> first_refuted;
        for (std::size_t events = 1; events <= generated.log.events.size(); ++events) {
          const EventLog prefix = prefix_of(generated.log, events);
          const History history = build_history(prefix, *model);
          const CheckResult result = check(history, *model, {.minimal_core = false});
          REQUIRE(result.verdict != Verdict::unknown);
          if (result.verdict == Verdict::not_linearizable && !first_refuted) first_refuted = events;
          // Once refuted, every longer prefix is: the argument of follow_check.cpp.
          if (first_refuted) REQUIRE(result.verdict == Verdict::not_linearizable);
        }
        if (whole_result.verdict == Verdict::linearizable) {
          REQUIRE_FALSE(first_refuted);
          continue;
        }
        ++refuted_histories;
        REQUIRE(first_refuted);
        REQUIRE(whole_result.failing_op);
        // No prefix is refuted before the failing op's completion (the first event
        // after which the whole history has no order). A prefix may be refuted only
        // later: there a pending op still counts as crashed that the whole history
        // knows failed, or returned a value that rules it out.
        const Operation* failing = nullptr;
        for (const Operation& op : whole.ops) {
          if (op.id == *whole_result.failing_op) failing = &op;
        }
        REQUIRE(failing != nullptr);
        CHECK(failing->ret + 1 <= *first_refuted);
        at_failing_op += failing->ret + 1 == *first_refuted ? 1 : 0;
      }
    }
    CHECK(refuted_histories > 100);
    // Mostly at once.
    CHECK(at_failing_op * 10 > refuted_histories * 9);
  }

  TEST_CASE("a violation is reported while the file is still written; the answer at the end is the offline one") {
    Scratch scratch;
    generators::AtomicShape shape;
    shape.model_spec = "cas-register(0)";
    shape.operations = 300;
    shape.processes = 5;
    shape.violation = true;
    shape.seed = 5;
    const generators::GeneratedHistory generated = generators::generate_atomic_history(shape);
    const auto model = make_model_from_spec(generated.model_spec);
    const std::size_t events = generated.log.events.size();
    std::ofstream(scratch.path() / "whole.edn") << lines_of(generated.log, 0, events);
    const CheckResult expected = offline(scratch.path() / "whole.edn", *model);
    REQUIRE(expected.verdict == Verdict::not_linearizable);
    REQUIRE(expected.failing_op);
    const History whole = read_history((scratch.path() / "whole.edn").string(), *model);
    std::uint64_t failing_completion = 0;
    for (const Operation& op : whole.ops) {
      if (op.id == *expected.failing_op) failing_completion = op.ret;
    }
    REQUIRE(failing_completion + 1 < events);

    // A FIFO: the writer's close ends the follow, so no idle time is waited out.
    const fs::path path = scratch.path() / "live.fifo";
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    std::atomic<bool> reported{false};
    std::atomic<std::size_t> written{0};
    std::thread writer([&] {
      std::ofstream out(path);
      for (std::size_t i = 0; i < events; ++i) {
        out << lines_of(generated.log, i, i + 1) << std::flush;
        written = i + 1;
        // Up to the failing op's completion, then the report must come before the
        // rest is written: it must not need the rest of the file.
        if (i == failing_completion) {
          for (int waited = 0; waited < 300 && !reported; ++waited) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
        }
      }
    });
    const Limits limits;
    CheckOptions options;
    options.limits = &limits;
    follow::FollowRequest request;
    request.path = path.string();
    std::size_t written_at_report = 0;
    request.on_violation = [&](const CheckResult& result, const History&, std::uint64_t) {
      CHECK(result.verdict == Verdict::not_linearizable);
      CHECK_FALSE(result.core.empty());
      written_at_report = written;
      reported = true;
    };
    const follow::FollowAnswer answer = follow::follow_check(request, *model, options);
    writer.join();
    CHECK(reported);
    CHECK(written_at_report == failing_completion + 1);
    CHECK(answer.end == follow::FollowEnd::closed);
    CHECK_FALSE(answer.stopped_early);
    CHECK(answer.result.verdict == expected.verdict);
    CHECK(answer.result.failing_op == expected.failing_op);
    CHECK(answer.result.core == expected.core);
    CHECK(answer.history.ops.size() == whole.ops.size());
  }

  TEST_CASE("a keyed history refuted while followed lists no key verdicts it does not have") {
    // The refutation is certified on the refuted key's ops alone: the answer used to
    // list that key as the only one ("1 key, 0 linearizable, 1 not"), on a history of
    // many. It now counts the keys the windows saw, and names the failing one.
    Scratch scratch;
    const generators::GeneratedHistory generated =
        generators::generate_atomic_history({.model_spec = "independent(cas-register(0))",
                                             .operations = 300,
                                             .processes = 4,
                                             .keys = 6,
                                             .violation = true,
                                             .seed = 3});
    const auto model = make_model_from_spec(generated.model_spec);
    const fs::path path = scratch.path() / "keyed.edn";
    std::ofstream(path) << lines_of(generated.log, 0, generated.log.events.size());
    const CheckResult expected = offline(path, *model);
    REQUIRE(expected.verdict == Verdict::not_linearizable);
    REQUIRE(expected.keys.size() == 6);
    const Limits limits;
    CheckOptions options;
    options.limits = &limits;
    follow::FollowRequest request;
    request.path = path.string();
    request.settings.idle_seconds = 0.2;
    const follow::FollowAnswer answer = follow::follow_check(request, *model, options);
    CHECK(answer.result.verdict == Verdict::not_linearizable);
    CHECK(answer.result.failing_key == expected.failing_key);
    CHECK(answer.result.failing_op == expected.failing_op);
    CHECK(answer.result.keys.empty());
    CHECK(answer.result.partitions == 6);
    CHECK(answer.result.why == expected.why);
  }

  TEST_CASE("--fail-fast answers with the prefix; a linearizable history holds to the end") {
    Scratch scratch;
    for (const bool violation : {true, false}) {
      CAPTURE(violation);
      generators::AtomicShape shape;
      shape.model_spec = "register(0)";
      shape.operations = 200;
      shape.violation = violation;
      shape.seed = 9;
      const generators::GeneratedHistory generated = generators::generate_atomic_history(shape);
      const auto model = make_model_from_spec(generated.model_spec);
      const fs::path path = scratch.path() / (violation ? "bad.edn" : "good.edn");
      // All of it at once, then the file stays as it is: idle ends the follow.
      std::ofstream(path) << lines_of(generated.log, 0, generated.log.events.size());
      const Limits limits;
      CheckOptions options;
      options.limits = &limits;
      follow::FollowRequest request;
      request.path = path.string();
      request.settings.idle_seconds = 0.3;
      request.fail_fast = true;
      bool reported = false;
      request.on_violation = [&](const CheckResult&, const History&, std::uint64_t) { reported = true; };
      const follow::FollowAnswer answer = follow::follow_check(request, *model, options);
      CHECK(reported == violation);
      CHECK(answer.stopped_early == violation);
      CHECK(answer.result.verdict == generated.expected);
      if (!violation) {
        CHECK(answer.result.linearization.size() == offline(path, *model).linearization.size());
      }
    }
  }

  TEST_CASE("JSON lines, a Jepsen log ended by its 'Run complete' line, and a last line without a line break") {
    Scratch scratch;
    const auto model = make_model_from_spec("register(0)");
    const Limits limits;
    CheckOptions options;
    options.limits = &limits;

    const fs::path json = scratch.path() / "events.jsonl";
    std::ofstream(json) << R"({"process": 0, "type": "invoke", "f": "write", "value": 1})"
                           "\n"
                        << R"({"process": 0, "type": "ok", "f": "write", "value": 1})"
                           "\n"
                        << R"({"process": 1, "type": "invoke", "f": "read", "value": null})"
                           "\n"
                        << R"({"process": 1, "type": "ok", "f": "read", "value": 0})";  // stale, no line break
    follow::FollowRequest request;
    request.path = json.string();
    request.settings.idle_seconds = 0.2;
    follow::FollowAnswer answer = follow::follow_check(request, *model, options);
    // A file that stopped growing without a final line break: its last line is whole.
    CHECK(answer.history.ops.size() == 2);
    CHECK(answer.result.verdict == Verdict::not_linearizable);
    CHECK(answer.result.verdict == offline(json, *model).verdict);

    const fs::path cut = scratch.path() / "cut.edn";
    std::ofstream(cut) << "{:process 0, :type :invoke, :f :write, :value 1}\n{:process 0, :type :ok, :f :wri";
    request.path = cut.string();
    answer = follow::follow_check(request, *model, options);
    // Checked as they passed: the ops are counted, not held.
    REQUIRE(answer.passed_ops);
    CHECK(answer.passed_ops->ops == 1);
    CHECK(answer.history.ops.empty());
    CHECK(answer.result.verdict == Verdict::linearizable);
    REQUIRE(answer.history.warnings.size() == 1);
    CHECK(answer.history.warnings[0].message.find("no line break") != std::string::npos);

    const fs::path log = scratch.path() / "jepsen.log";
    std::ofstream(log) << "INFO [2018-02-02 13:04:35,100] jepsen worker 0 - jepsen.util 0\t:invoke\t:write\t1\n"
                       << "INFO [2018-02-02 13:04:35,200] jepsen worker 0 - jepsen.util 0\t:ok\t:write\t1\n"
                       << "INFO [2018-02-02 13:04:35,397] jepsen test runner - jepsen.core Run complete, writing\n";
    request.path = log.string();
    request.settings.idle_seconds = 0;  // only the log's own line can end it
    answer = follow::follow_check(request, *model, options);
    CHECK(answer.end == follow::FollowEnd::test_ended);
    CHECK(answer.result.verdict == Verdict::linearizable);
  }

  TEST_CASE(
      "a timestamped history, or one checked for sequential consistency, is decided at the end; an empty one "
      "is refused") {
    Scratch scratch;
    const auto model = make_model_from_spec("register(0)");
    const Limits limits;
    CheckOptions options;
    options.limits = &limits;
    // By the timestamps the read (called at 250) follows the write's return (200): stale.
    const fs::path path = scratch.path() / "timed.edn";
    std::ofstream(path) << "{:process 0, :type :invoke, :f :write, :value 1, :timestamp 100}\n"
                        << "{:process 1, :type :invoke, :f :read, :value nil, :timestamp 250}\n"
                        << "{:process 0, :type :ok, :f :write, :value 1, :timestamp 200}\n"
                        << "{:process 1, :type :ok, :f :read, :value 0, :timestamp 300}\n";
    follow::FollowRequest request;
    request.path = path.string();
    request.settings.idle_seconds = 0.2;
    bool reported = false;
    request.on_violation = [&](const CheckResult&, const History&, std::uint64_t) { reported = true; };
    const follow::FollowAnswer answer = follow::follow_check(request, *model, options);
    CHECK_FALSE(reported);
    CHECK(answer.result.verdict == Verdict::not_linearizable);

    // Sequential consistency is not local in time: a read of 1 before any write of it
    // is refuted as a prefix, yet the whole history is sequentially consistent once
    // another process writes 1 (it may be ordered first). Decided at the end only.
    const fs::path sequential = scratch.path() / "sequential.edn";
    std::ofstream(sequential) << "{:process 0, :type :invoke, :f :read, :value nil}\n"
                              << "{:process 0, :type :ok, :f :read, :value 1}\n"
                              << "{:process 1, :type :invoke, :f :write, :value 1}\n"
                              << "{:process 1, :type :ok, :f :write, :value 1}\n";
    request.path = sequential.string();
    CheckOptions sequential_options = options;
    sequential_options.consistency = Consistency::sequential;
    const follow::FollowAnswer consistent = follow::follow_check(request, *model, sequential_options);
    CHECK_FALSE(reported);
    CHECK(consistent.result.verdict == Verdict::linearizable);  // reads "sequentially consistent"
    CHECK(follow::follow_check(request, *model, options).result.verdict == Verdict::not_linearizable);

    const fs::path empty = scratch.path() / "empty.edn";
    std::ofstream(empty) << "; nothing yet\n";
    request.path = empty.string();
    CHECK_THROWS_AS(follow::follow_check(request, *model, options), InputError);
  }
}

TEST_SUITE("follow") {
  TEST_CASE("the windowed check, its windows checked and settled at random moments, agrees with the offline check") {
    // Generated histories of the models that settle (register, cas-register, kv,
    // independent) and one that does not (fifo-queue), crashed ops included, streamed
    // event by event; after each event the windows are checked with a coin deciding
    // whether the reader is caught up.
    struct Case {
      const char* spec;
      std::size_t keys;
    };
    const Case cases[] = {{"register(0)", 0},
                          {"cas-register(0)", 0},
                          {"kv", 1},
                          {"kv", 7},
                          {"kv", 40},
                          {"fifo-queue", 0},
                          {"independent(cas-register(0))", 5}};
    int refuted = 0;
    int linearizable = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      for (const Case& c : cases) {
        generators::AtomicShape shape;
        shape.model_spec = c.spec;
        shape.keys = c.keys;
        shape.operations = 30 + seed * 5;
        shape.processes = 2 + seed % 5;
        shape.crash_rate = seed % 4 == 0 ? 0.0 : 0.05 * static_cast<double>(seed % 4);
        shape.values = seed % 3 == 0 ? 3 : generators::kUniqueValues;
        shape.violation = seed % 2 == 0;
        shape.seed = seed;
        CAPTURE(c.spec);
        CAPTURE(c.keys);
        CAPTURE(seed);
        const generators::GeneratedHistory generated = generators::generate_atomic_history(shape);
        const auto model = make_model_from_spec(generated.model_spec);
        const CheckResult expected = check(build_history(generated.log, *model), *model, {.minimal_core = false});
        REQUIRE(expected.verdict != Verdict::unknown);

        const Limits limits;
        CheckOptions options;
        options.limits = &limits;
        follow::WindowedCheck windows("generated", *model, options);
        HistoryBuilder builder("generated", *model);
        builder.hand_on([&](const Operation& op) { windows.called(op); },
                        [&](Operation&& op) { windows.ended(std::move(op)); });
        std::uint64_t coin = seed * 0x9e3779b97f4a7c15ULL;
        bool refuted_early = false;
        for (const Event& event : generated.log.events) {
          builder.add(Event(event));
          coin = coin * 6364136223846793005ULL + 1442695040888963407ULL;
          if ((coin >> 60) < 6) refuted_early = windows.check_windows((coin >> 59) & 1) || refuted_early;
        }
        // A refutation of a prefix stands for the whole history.
        if (refuted_early) REQUIRE(expected.verdict == Verdict::not_linearizable);
        const CheckResult result = windows.finish();
        CHECK(result.verdict == expected.verdict);
        if (expected.verdict == Verdict::linearizable) {
          ++linearizable;
          const History whole = build_history(generated.log, *model);
          CHECK(certify_order(whole, *model, result.linearization) == std::nullopt);
        } else {
          ++refuted;
        }
      }
    }
    CHECK(refuted > 50);
    CHECK(linearizable > 50);
  }
}
