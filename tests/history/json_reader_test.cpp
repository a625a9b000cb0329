// ariadne's JSON format: the strict JSON parser (values and errors) and the event
// rules on top of it.
#include <ariadne/history.hpp>

#include "history/event_sink.hpp"

#include <doctest/doctest.h>

#include <string>

using ariadne::EventType;
using ariadne::Format;
using ariadne::InputError;
using ariadne::Value;

namespace {

Value json(const std::string& text) { return ariadne::parse_json_value(text, "v.json"); }
ariadne::EventLog events(const std::string& text) { return ariadne::parse_events(text, "h.json", Format::json); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("json maps literals and numbers onto values") {
    CHECK(json("null").is_nil());
    CHECK(json("true") == Value::boolean(true));
    CHECK(json(" false ") == Value::boolean(false));
    CHECK(json("0") == Value::integer(0));
    CHECK(json("-12") == Value::integer(-12));
    CHECK(json("9223372036854775807") == Value::integer(INT64_MAX));
    CHECK(json("-9223372036854775808") == Value::integer(INT64_MIN));
    CHECK(json("18446744073709551616") == Value::big_integer("18446744073709551616"));
    CHECK(json("-18446744073709551616") == Value::big_integer("-18446744073709551616"));
    CHECK(json("1.5") == Value::floating(1.5));
    CHECK(json("-0.25e2") == Value::floating(-25.0));
    CHECK(json("1E+2") == Value::floating(100.0));
    CHECK(json("2e-1") == Value::floating(0.2));
  }

  TEST_CASE("json strings decode every escape and keep UTF-8") {
    CHECK(json(R"("a\"b\\c\/d")") == Value::string("a\"b\\c/d"));
    CHECK(json(R"("\b\f\n\r\t")") == Value::string("\b\f\n\r\t"));
    CHECK(json(R"("\u00e9\uD83D\uDE00")") == Value::string("\xC3\xA9\xF0\x9F\x98\x80"));
    CHECK(json("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"") == Value::string("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));
  }

  TEST_CASE("json arrays become vectors and objects maps with string keys") {
    CHECK(json("[]") == Value::vector({}));
    CHECK(json("[1, [2], {}]") ==
          Value::vector({Value::integer(1), Value::vector({Value::integer(2)}), Value::map({})}));
    const Value object = json(R"({"a": 1, "b": [true, null]})");
    REQUIRE(object.is_map());
    CHECK(*object.find(Value::string("a")) == Value::integer(1));
    CHECK(*object.find(Value::string("b")) == Value::vector({Value::boolean(true), Value()}));
  }

  TEST_CASE("json reads back what Value::to_json prints") {
    const Value v = json(R"({"k": [1, -2.5, "s\"q\n", null, false, {"x": 18446744073709551616}]})");
    CHECK(json(v.to_json()) == v);
  }

  TEST_CASE("json reports syntax errors with line and column") {
    CHECK_THROWS_WITH_AS(json(""), "v.json:1:1: expected a JSON value, found end of input", InputError);
    CHECK_THROWS_WITH_AS(json("[1,\n 2"),
                         "v.json:2:3: unterminated array: expected ']' before end of input (opened at 1:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(json("{\"a\": 1"),
                         "v.json:1:8: unterminated object: expected '}' before end of input (opened at 1:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(json("[1, 2,]"),
                         "v.json:1:7: expected a value after ',', found ']' (JSON does not allow a trailing comma)",
                         InputError);
    CHECK_THROWS_WITH_AS(json("[1 2]"),
                         "v.json:1:4: expected ',' or ']' after an array element (the array opened at 1:1), found '2'",
                         InputError);
    CHECK_THROWS_WITH_AS(json("{\"a\" 1}"), "v.json:1:6: expected ':' after the key, found '1'", InputError);
    CHECK_THROWS_WITH_AS(json("{a: 1}"), "v.json:1:2: expected a string key, found 'a'", InputError);
    CHECK_THROWS_WITH_AS(
        json("{\"a\": 1 \"b\": 2}"),
        "v.json:1:9: expected ',' or '}' after an object member (the object opened at 1:1), found '\"'", InputError);
    CHECK_THROWS_WITH_AS(json("nul"), "v.json:1:1: expected a JSON value, found 'nul'", InputError);
    CHECK_THROWS_WITH_AS(json("'a'"), "v.json:1:1: expected a JSON value, found '''", InputError);
    CHECK_THROWS_WITH_AS(json("1 2"), "v.json:1:3: expected end of input after the JSON value, found '2'", InputError);
  }

  TEST_CASE("json rejects numbers outside the JSON grammar") {
    CHECK_THROWS_WITH_AS(json("01"), "v.json:1:1: invalid number '01'", InputError);
    CHECK_THROWS_WITH_AS(json("[1.]"), "v.json:1:2: invalid number '1.'", InputError);
    CHECK_THROWS_WITH_AS(json("-"), "v.json:1:1: invalid number '-'", InputError);
    CHECK_THROWS_WITH_AS(json("1e"), "v.json:1:1: invalid number '1e'", InputError);
    CHECK_THROWS_WITH_AS(json("+1"), "v.json:1:1: expected a JSON value, found '+1'", InputError);
    CHECK_THROWS_WITH_AS(json("12x"), "v.json:1:1: invalid number '12x'", InputError);
    CHECK_THROWS_WITH_AS(json("1e400"), "v.json:1:1: invalid number '1e400': out of range for a double", InputError);
  }

  TEST_CASE("json rejects malformed strings") {
    CHECK_THROWS_WITH_AS(json("\"abc"),
                         "v.json:1:5: unterminated string: expected '\"' before end of input (opened at 1:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(json("\"a\nb\""),
                         "v.json:1:3: unterminated string: a line break must be written \\n (opened at 1:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(json("\"a\tb\""), "v.json:1:3: control character in string; write it as a \\u escape",
                         InputError);
    CHECK_THROWS_WITH_AS(
        json(R"("\x")"),
        R"(v.json:1:2: invalid escape '\' followed by 'x' in string (JSON allows \" \\ \/ \b \f \n \r \t and \uXXXX))",
        InputError);
    CHECK_THROWS_WITH_AS(json(R"("\uD800")"), R"(v.json:1:2: unpaired surrogate in \u escape in string)", InputError);
    CHECK_THROWS_WITH_AS(json(R"("\u00G0")"), R"(v.json:1:2: invalid \u escape: expected four hex digits in string)",
                         InputError);
    CHECK_THROWS_WITH_AS(json("\"a\xFF\""), "v.json:1:3: invalid UTF-8 in string", InputError);
    CHECK_THROWS_WITH_AS(json("\"\xC0\x80\""), "v.json:1:2: invalid UTF-8 in string", InputError);
    CHECK_THROWS_WITH_AS(json("\"\xED\xA0\x80\""), "v.json:1:2: invalid UTF-8 in string", InputError);
  }

  TEST_CASE("json stops at the nesting limit without overflowing the stack") {
    CHECK_THROWS_WITH_AS(json(std::string(2000, '[')), "v.json:1:1001: nesting deeper than 1000 levels", InputError);
    CHECK_THROWS_AS(json(std::string(1000000, '[')), InputError);
  }

  TEST_CASE("json history reads a top-level array of events, each at its opening brace") {
    const auto log = events(R"([
  {"process": 0, "type": "invoke", "f": "write", "value": 1, "time": 17},
  {"process": 0, "type": "ok", "f": "write", "value": 1, "index": 4},
  {"process": 1, "type": "fail", "f": "cas", "value": [1, 2], "key": "x"},
  {"process": 2, "type": "info", "f": "read", "value": null, "index": null},
  {"process": "nemesis", "type": "info", "value": {"cut": ["n1"]}}
])");
    REQUIRE(log.events.size() == 5);
    CHECK(log.source == "h.json");
    CHECK(log.events[0].process == Value::integer(0));
    CHECK(log.events[0].type == EventType::invoke);
    CHECK(log.events[0].f == "write");
    CHECK(log.events[0].value == Value::integer(1));
    CHECK(log.events[0].pos.line == 2);
    CHECK(log.events[0].pos.column == 3);
    CHECK(log.events[1].index == 4);
    CHECK(log.events[2].type == EventType::fail);
    CHECK(log.events[2].key == Value::string("x"));
    CHECK(log.events[3].type == EventType::info);
    CHECK_FALSE(log.events[3].index.has_value());
    CHECK(log.events[4].process == Value::string("nemesis"));
    CHECK(log.events[4].f.empty());
  }

  TEST_CASE("json history reads an object with an events array and ignores other members") {
    const auto log =
        events(R"({"model": "register", "events": [{"process": 0, "type": "invoke", "f": "read"}], "note": [1]})");
    REQUIRE(log.events.size() == 1);
    CHECK(log.events[0].pos.column == 34);
    CHECK(events(R"({"events": []})").events.empty());
    CHECK(events("[]").events.empty());
  }

  TEST_CASE("json history reports bad documents and events at their position") {
    CHECK_THROWS_WITH_AS(events("3"),
                         "h.json:1:1: expected a JSON array of events or an object with an \"events\" array, found '3'",
                         InputError);
    CHECK_THROWS_WITH_AS(events(R"({"ops": []})"),
                         "h.json:1:1: expected an \"events\" member holding the array of events", InputError);
    CHECK_THROWS_WITH_AS(events(R"({"events": {}})"),
                         "h.json:1:12: \"events\" must be an array of event objects, found '{'", InputError);
    CHECK_THROWS_WITH_AS(events(R"({"events": [], "events": []})"),
                         "h.json:1:16: duplicate member \"events\" (first at 1:2): an object may name a member once",
                         InputError);
    CHECK_THROWS_WITH_AS(events("[]\n[]"), "h.json:2:1: expected end of input after the JSON document, found '['",
                         InputError);
    CHECK_THROWS_WITH_AS(events("[{\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"},\n 7]"),
                         "h.json:2:2: expected an event object such as {\"process\": 0, \"type\": \"invoke\", \"f\": "
                         "\"read\"}, found '7'",
                         InputError);
  }

  TEST_CASE("json history reports bad event fields at the event's brace") {
    CHECK_THROWS_WITH_AS(events(R"([{"type": "invoke", "f": "read"}])"), "h.json:1:2: event has no \"process\"",
                         InputError);
    CHECK_THROWS_WITH_AS(events(R"([{"process": 1, "f": "read"}])"), "h.json:1:2: event has no \"type\"", InputError);
    CHECK_THROWS_WITH_AS(events(R"([{"process": 1, "type": "done", "f": "read"}])"),
                         "h.json:1:2: unknown \"type\" \"done\", expected \"invoke\", \"ok\", \"fail\" or \"info\"",
                         InputError);
    CHECK_THROWS_WITH_AS(events(R"([{"process": 1, "type": 2, "f": "read"}])"),
                         "h.json:1:2: \"type\" must be a string (\"invoke\", \"ok\", \"fail\" or \"info\"), found 2",
                         InputError);
    CHECK_THROWS_WITH_AS(events(R"([{"process": 1, "type": "invoke"}])"),
                         "h.json:1:2: event of client process 1 has no \"f\"", InputError);
    CHECK_THROWS_WITH_AS(events(R"([{"process": 1, "type": "invoke", "f": ["read"]}])"),
                         "h.json:1:2: \"f\" must be a string, found [\"read\"]", InputError);
    CHECK_THROWS_WITH_AS(events(R"([{"process": 1, "type": "invoke", "f": "read", "index": 1.5}])"),
                         "h.json:1:2: \"index\" must be an integer, found 1.5", InputError);
  }

  TEST_CASE("json lines: event objects one after another, one a line") {
    const auto log = events(
        "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 1}\n"
        "{\"type\": \"ok\", \"process\": 0, \"f\": \"write\", \"value\": 1}\n"
        "\n"
        "{\"process\": \"nemesis\", \"type\": \"info\", \"f\": \"start\", \"value\": {\"a\": [1]}}\n");
    REQUIRE(log.events.size() == 3);
    CHECK(log.events[1].type == ariadne::EventType::ok);
    CHECK(log.events[2].pos.line == 4);
    CHECK(ariadne::detect_format("{\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"}\n", nullptr) == Format::json);
    // A broken object in the middle is an error where it is.
    CHECK_THROWS_WITH_AS(
        events("{\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"}\n{\"process\": 0, \"type\": }\n"),
        "h.json:2:24: expected a JSON value, found '}'", InputError);
    // An object with the "events" array stays one document, whatever its first member.
    const auto wrapped =
        events(R"({"type": "history", "events": [{"process": 0, "type": "invoke", "f": "read", "value": null}]})");
    CHECK(wrapped.events.size() == 1);
  }

}  // TEST_SUITE
