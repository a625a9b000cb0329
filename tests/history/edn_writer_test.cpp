// The EDN op-map writer: what it reads back is what it wrote (events, processes,
// operation names, values, keys and indices), for plain register histories and for
// awkward values, and each event is one line in the documented shape.
#include "history/edn_writer.hpp"

#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <string>

using ariadne::Event;
using ariadne::EventLog;
using ariadne::EventType;
using ariadne::Format;
using ariadne::Value;

namespace {

Event event(Value process, EventType type, std::string f, Value value, Value key = {},
            std::optional<std::int64_t> index = std::nullopt) {
  Event e;
  e.process = std::move(process);
  e.type = type;
  e.f = std::move(f);
  e.value = std::move(value);
  e.key = std::move(key);
  e.index = index;
  return e;
}

// Source positions differ by construction (the written log has none), so they are
// the one field left out of the comparison.
void check_round_trip(const EventLog& log, Format format) {
  const std::string text = ariadne::format_edn_events(log);
  INFO("written:\n", text);
  const EventLog read = ariadne::parse_events(text, "written.edn", format);
  REQUIRE(read.events.size() == log.events.size());
  for (std::size_t i = 0; i < log.events.size(); ++i) {
    CAPTURE(i);
    const Event& want = log.events[i];
    const Event& got = read.events[i];
    CHECK(got.process == want.process);
    CHECK(got.type == want.type);
    CHECK(got.f == want.f);
    CHECK(got.value == want.value);
    CHECK(got.key == want.key);
    CHECK(got.index == want.index);
  }
}

Value num(std::int64_t i) { return Value::integer(i); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("edn writer writes one op map per line in the documented shape") {
    EventLog log;
    log.events.push_back(event(num(0), EventType::invoke, "write", num(3)));
    log.events.push_back(event(num(0), EventType::ok, "write", num(3), {}, 7));
    log.events.push_back(event(num(1), EventType::fail, "cas", Value::vector({num(1), num(2)}), Value::string("k")));
    CHECK(ariadne::format_edn_events(log) ==
          "{:process 0, :type :invoke, :f :write, :value 3}\n"
          "{:process 0, :type :ok, :f :write, :value 3, :index 7}\n"
          "{:process 1, :type :fail, :f :cas, :key \"k\", :value [1 2]}\n");
  }

  TEST_CASE("edn writer round-trips a cas-register history with crashes and a nemesis") {
    EventLog log;
    log.events.push_back(event(num(0), EventType::invoke, "write", num(1)));
    log.events.push_back(event(num(1), EventType::invoke, "read", Value()));
    log.events.push_back(event(Value::keyword("nemesis"), EventType::info, "start", Value::string("partition")));
    log.events.push_back(event(num(0), EventType::info, "write", num(1)));
    log.events.push_back(event(num(1), EventType::ok, "read", num(1)));
    log.events.push_back(event(num(12), EventType::invoke, "cas", Value::vector({num(1), num(2)})));
    log.events.push_back(event(num(12), EventType::fail, "cas", Value::vector({num(1), num(2)})));
    // A nemesis event read without :f has an empty name; the writer must keep it so.
    log.events.push_back(event(Value::keyword("nemesis"), EventType::info, "", Value()));
    check_round_trip(log, Format::edn);
    check_round_trip(log, Format::auto_detect);
  }

  TEST_CASE("edn writer round-trips strings with quotes and newlines and unicode") {
    EventLog log;
    const Value awkward =
        Value::string("say \"hi\"\\ then\nnew line\ttab\r\x01 caf\xC3\xA9 \xE2\x9C\x93 \xF0\x9F\x98\x80");
    log.events.push_back(event(num(0), EventType::invoke, "put", awkward, Value::string("k\"ey\n")));
    log.events.push_back(event(num(0), EventType::ok, "put", awkward, Value::string("k\"ey\n")));
    log.events.push_back(event(Value::string("n1 \"quoted\""), EventType::info, "kill node", Value::string("")));
    check_round_trip(log, Format::edn);
  }

  TEST_CASE("edn writer round-trips names that are not keywords and nested values") {
    EventLog log;
    // Names with a space, a leading digit or a slash are written as strings.
    for (const char* f : {"read all", "2pc", "txn/commit", "é"}) {
      log.events.push_back(event(num(0), EventType::invoke, f, Value()));
      log.events.push_back(event(num(0), EventType::ok, f, Value()));
    }
    const Value nested = Value::map(
        {{Value::keyword("x"), Value::set({num(1), num(2)})},
         {Value::string("y"),
          Value::list({Value::floating(0.1), Value::boolean(true), Value::big_integer("123456789012345678901234")})},
         {Value::keyword("z"), Value::vector({Value::symbol("sym"), Value()})}});
    log.events.push_back(event(num(1), EventType::invoke, "txn", nested, {}, -3));
    log.events.push_back(event(num(1), EventType::info, "txn", nested, {}, 0));
    check_round_trip(log, Format::edn);
  }
}
