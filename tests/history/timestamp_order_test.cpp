// Real time from timestamps (history/timestamp_order.hpp, docs/formats.md
// "Timestamps"): events that carry them are ordered by them, ties in file order, in
// every reader and in build_history; the rules are held at the event that breaks them.
#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ariadne;

namespace {

// A write of 1 that returns (200) before a read of the initial 0 is called (250), but
// whose completion was appended after the read's invocation: in file order the two
// overlap and the read may come first; by the timestamps the read is stale.
const char* const kStaleByTimestampsJson =
    R"([{"process": 0, "type": "invoke", "f": "write", "value": 1, "timestamp": 100},
        {"process": 1, "type": "invoke", "f": "read", "value": null, "timestamp": 250},
        {"process": 0, "type": "ok", "f": "write", "value": 1, "timestamp": 200},
        {"process": 1, "type": "ok", "f": "read", "value": 0, "timestamp": 300}])";

const char* const kStaleByTimestampsEdn =
    "{:process 0, :type :invoke, :f :write, :value 1, :timestamp 100}\n"
    "{:process 1, :type :invoke, :f :read, :value nil, :timestamp 250}\n"
    "{:process 0, :type :ok, :f :write, :value 1, :timestamp 200}\n"
    "{:process 1, :type :ok, :f :read, :value 0, :timestamp 300}\n";

std::string without_timestamps(std::string text) {
  for (const std::string marker : {", \"timestamp\": ", ", :timestamp "}) {
    for (std::size_t at = text.find(marker); at != std::string::npos; at = text.find(marker)) {
      const std::size_t end = text.find_first_of("}", at);
      text.erase(at, end - at);
    }
  }
  return text;
}

std::string error_of(const std::string& text, Format format) {
  auto model = make_model_from_spec("register(0)");
  try {
    parse_history(text, "h", *model, format);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("timestamps are real time: a read that overlaps a write in the file is stale by its timestamps") {
    auto model = make_model_from_spec("register(0)");
    for (const auto& [text, format] :
         {std::pair{kStaleByTimestampsJson, Format::json}, std::pair{kStaleByTimestampsEdn, Format::edn}}) {
      CAPTURE(format_name(format));
      const History timed = parse_history(text, "h", *model, format);
      REQUIRE(timed.ops.size() == 2);
      // Op ids are positions in time order: the write's completion moved before the
      // read's invocation, which is now the third event.
      CHECK(timed.ops[0].id == 0);
      CHECK(timed.ops[0].ret == 1);
      CHECK(timed.ops[1].id == 2);
      CHECK(timed.ops[1].call_pos.line == 2);  // messages still name the file's place
      const CheckResult refuted = check(timed, *model, CheckOptions{.jobs = 1});
      CHECK(refuted.verdict == Verdict::not_linearizable);
      CHECK(refuted.core == std::vector<std::uint32_t>{0, 2});

      const History untimed = parse_history(without_timestamps(text), "h", *model, format);
      CHECK(check(untimed, *model, CheckOptions{.jobs = 1}).verdict == Verdict::linearizable);
    }
  }

  TEST_CASE("every path to a history orders by timestamps the same way") {
    auto model = make_model_from_spec("register(0)");
    const History streamed = parse_history(kStaleByTimestampsJson, "h", *model, Format::json);
    const History built = build_history(parse_events(kStaleByTimestampsJson, "h", Format::json), *model);
    REQUIRE(streamed.ops.size() == built.ops.size());
    for (std::size_t i = 0; i < built.ops.size(); ++i) {
      CHECK(streamed.ops[i].id == built.ops[i].id);
      CHECK(streamed.ops[i].ret == built.ops[i].ret);
    }
    // parse_events hands the events on in time order, timestamps kept.
    const EventLog log = parse_events(kStaleByTimestampsJson, "h", Format::json);
    std::vector<std::int64_t> order;
    for (const Event& event : log.events) order.push_back(event.timestamp.value_or(-1));
    CHECK(order == std::vector<std::int64_t>{100, 200, 250, 300});
  }

  TEST_CASE("equal timestamps keep file order, so an invocation written first overlaps a completion") {
    auto model = make_model_from_spec("register(0)");
    // The read's invocation and the write's completion both at 200: written first, the
    // invocation comes first, the two overlap, and reading 0 is fine.
    const History tie = parse_history(
        "{:process 0, :type :invoke, :f :write, :value 1, :timestamp 100}\n"
        "{:process 1, :type :invoke, :f :read, :value nil, :timestamp 200}\n"
        "{:process 0, :type :ok, :f :write, :value 1, :timestamp 200}\n"
        "{:process 1, :type :ok, :f :read, :value 0, :timestamp 300}\n",
        "h", *model);
    CHECK(check(tie, *model, CheckOptions{.jobs = 1}).verdict == Verdict::linearizable);
  }

  TEST_CASE("an event of a non-client keeps its place after the event before it") {
    auto model = make_model_from_spec("register(0)");
    const EventLog log = parse_events(
        "{:process 0, :type :invoke, :f :write, :value 1, :timestamp 300}\n"
        "{:process :nemesis, :type :info, :f :start, :value nil}\n"
        "{:process 1, :type :invoke, :f :read, :value nil, :timestamp 100}\n"
        "{:process 1, :type :ok, :f :read, :value 0, :timestamp 200}\n"
        "{:process 0, :type :ok, :f :write, :value 1, :timestamp 400}\n",
        "h", Format::edn);
    std::vector<std::uint32_t> lines;
    for (const Event& event : log.events) lines.push_back(event.pos.line);
    CHECK(lines == std::vector<std::uint32_t>{3, 4, 1, 2, 5});
  }

  TEST_CASE("a nemesis event before the first client event waits for it to decide") {
    auto model = make_model_from_spec("register(0)");
    const History history = parse_history(
        "{:process :nemesis, :type :info, :f :start, :value nil}\n"
        "{:process 0, :type :invoke, :f :write, :value 1}\n"
        "{:process 0, :type :ok, :f :write, :value 1}\n",
        "h", *model);
    REQUIRE(history.ops.size() == 1);
    CHECK(history.ops[0].id == 1);
  }

  TEST_CASE("timestamp rules are errors at the event that breaks them") {
    const std::string missing = error_of(
        "{:process 0, :type :invoke, :f :write, :value 1, :timestamp 1}\n"
        "{:process 0, :type :ok, :f :write, :value 1}\n",
        Format::edn);
    CHECK(missing.find("h:2:1: client event without a timestamp, but the first client event (at 1:1) has one") == 0);

    const std::string unexpected = error_of(
        R"([{"process": 0, "type": "invoke", "f": "write", "value": 1},
            {"process": 0, "type": "ok", "f": "write", "value": 1, "timestamp": 5}])",
        Format::json);
    CHECK(unexpected.find("h:2:13: client event with a timestamp, but the first client event (at 1:2) has none") == 0);

    const std::string backwards = error_of(
        "{:process 0, :type :invoke, :f :write, :value 1, :timestamp 100}\n"
        "{:process 1, :type :invoke, :f :read, :value nil, :timestamp 50}\n"
        "{:process 0, :type :ok, :f :write, :value 1, :timestamp 90}\n",
        Format::edn);
    CHECK(backwards.find("h:3:1: timestamp 90 of process 0 goes back from 100, its event's at 1:1") == 0);

    CHECK(error_of("{:process 0, :type :invoke, :f :write, :value 1, :timestamp 1.5}\n", Format::edn)
              .find(":timestamp must be an integer") != std::string::npos);
    CHECK(error_of(R"([{"process": 0, "type": "invoke", "f": "write", "value": 1, "timestamp": "noon"}])", Format::json)
              .find("\"timestamp\" must be an integer") != std::string::npos);
    CHECK(error_of("{:process 0, :type :invoke, :f :write, :value 1, :timestamp 99999999999999999999}\n", Format::edn)
              .find("does not fit in 64 bits") != std::string::npos);
  }

  TEST_CASE("an op completed twice is found in a timestamped history too") {
    CHECK(error_of("{:process 0, :type :invoke, :f :write, :value 1, :timestamp 1}\n"
                   "{:process 0, :type :ok, :f :write, :value 1, :timestamp 2}\n"
                   "{:process 0, :type :ok, :f :write, :value 1, :timestamp 3}\n",
                   Format::edn)
              .find("h:3:1: completion (:ok) for process 0, which has no open invocation") == 0);
  }

  TEST_CASE("a \"time\" that goes back draws no warning when timestamps order the events") {
    auto model = make_model_from_spec("register(0)");
    const History history = parse_history(
        R"([{"process": 0, "type": "invoke", "f": "write", "value": 1, "time": 9, "timestamp": 1},
            {"process": 0, "type": "ok", "f": "write", "value": 1, "time": 3, "timestamp": 2}])",
        "h", *model, Format::json);
    CHECK(history.warnings.empty());
    const History untimed = parse_history(
        R"([{"process": 0, "type": "invoke", "f": "write", "value": 1, "time": 9},
            {"process": 0, "type": "ok", "f": "write", "value": 1, "time": 3}])",
        "h", *model, Format::json);
    CHECK(untimed.warnings.size() == 1);
  }

  TEST_CASE("convert keeps timestamps where the format has room, and their order where it has not") {
    const EventLog log = parse_events(kStaleByTimestampsEdn, "h", Format::edn);
    const std::string json = format_events(log, Format::json);
    CHECK(json.find("\"timestamp\": 250") != std::string::npos);
    const std::string edn = format_events(log, Format::edn);
    CHECK(edn.find(":timestamp 250") != std::string::npos);
    const std::string jepsen = format_events(log, Format::jepsen_log);
    CHECK(jepsen.find("timestamp") == std::string::npos);
    // The completion of the write (process 0's :ok) is the log's second line.
    const std::size_t second = jepsen.find('\n') + 1;
    CHECK(jepsen.substr(second, jepsen.find('\n', second) - second).find("0\t:ok\t:write") != std::string::npos);
    auto model = make_model_from_spec("register(0)");
    for (const std::string& text : {json, edn, jepsen}) {
      CHECK(check(parse_history(text, "converted", *model), *model, CheckOptions{.jobs = 1}).verdict ==
            Verdict::not_linearizable);
    }
  }
}  // TEST_SUITE
