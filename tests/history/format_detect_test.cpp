// Format names, auto-detection of each format from content, and reading files.
#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <string>

using ariadne::EventType;
using ariadne::Format;
using ariadne::InputError;
using ariadne::Value;

namespace {

ariadne::EventLog detect(const std::string& text) { return ariadne::parse_events(text, "a.txt"); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("format names round-trip and unknown names are rejected") {
    for (const Format f : {Format::auto_detect, Format::edn, Format::jepsen_log, Format::porcupine_kv, Format::json,
                           Format::violin_log, Format::fastlin}) {
      CHECK(ariadne::parse_format(ariadne::format_name(f)) == f);
    }
    CHECK(ariadne::format_name(Format::auto_detect) == "auto");
    CHECK(ariadne::format_name(Format::jepsen_log) == "jepsen-log");
    CHECK(ariadne::format_name(Format::porcupine_kv) == "porcupine-kv");
    CHECK_FALSE(ariadne::parse_format("yaml").has_value());
    CHECK_FALSE(ariadne::parse_format("").has_value());
  }

  TEST_CASE("auto-detection reads empty and whitespace-only text as an empty history") {
    CHECK(detect("").events.empty());
    CHECK(detect(" \n\t\r\n").events.empty());
    CHECK(detect("").source == "a.txt");
  }

  TEST_CASE("auto-detection recognises a prefixed Jepsen log") {
    // As EDN this would be a run of symbols, which is no history at all.
    const auto log = detect("INFO  jepsen.util - 0\t:invoke\t:read\tnil\nINFO  jepsen.util - 0\t:ok\t:read\t2\n");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[1].value == Value::integer(2));
  }

  TEST_CASE("auto-detection recognises a bare Jepsen log, even after blank and comment lines") {
    const auto log = detect("\n; memstress\n94  :invoke :write  0\n:nemesis  :info :start2 nil\n");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[1].process == Value::keyword("nemesis"));
  }

  TEST_CASE("auto-detection recognises JSON arrays and event objects") {
    CHECK(detect("[{\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"}]").events.size() == 1);
    CHECK(detect("  [\n  {\n    \"process\":0,\"type\":\"ok\",\"f\":\"read\"}]").events.at(0).type == EventType::ok);
    CHECK(detect("{\"events\": []}").events.empty());
  }

  TEST_CASE("auto-detection recognises Porcupine kv by one map per line with :key") {
    const std::string kv =
        "{:process 0, :type :invoke, :f :get, :key \"1\", :value nil}\n"
        "{:process 0, :type :ok, :f :get, :key \"1\", :value \"x\"}\n";
    const auto log = detect(kv);
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[1].key == Value::string("1"));
    // Only the kv reader insists on one op map per line, which shows it was chosen.
    CHECK_THROWS_WITH_AS(
        detect(kv + "{:process 1, :type :invoke, :f :get, :key \"2\"} {:process 2, :type :invoke, :f :get}\n"),
        "a.txt:3:48: expected one op map per line, found '{' after the op map on this line", InputError);
  }

  TEST_CASE("auto-detection falls back to EDN for vectors and multi-line maps") {
    CHECK(detect("[{:process 0, :type :invoke, :f :read}]").events.size() == 1);
    CHECK(detect("; comment\n[{:process 0,\n  :type :invoke,\n  :f :read}]").events.size() == 1);
    // Not a log line, although its second token is :invoke.
    CHECK(detect("{:type :invoke :process 0 :f :read}\n{:type :ok :process 0 :f :read}").events.size() == 2);
    // A string followed by a keyword is EDN, not a JSON key.
    CHECK(detect("[{\"a\" :b, :process 0, :type :invoke, :f :read}]").events.size() == 1);
    // Maps one per line without :key are EDN; two per line are fine there.
    CHECK(detect("{:process 0, :type :invoke, :f :read} {:process 0, :type :ok, :f :read}").events.size() == 2);
  }

  TEST_CASE("auto-detection and every reader skip a byte-order mark") {
    const std::string bom = "\xEF\xBB\xBF";
    CHECK(detect(bom).events.empty());
    CHECK(detect(bom + "[{\"process\": 0, \"type\": \"invoke\", \"f\": \"read\"}]").events.at(0).pos.column == 2);
    CHECK(detect(bom + "0 :invoke :read nil\n").events.at(0).pos.column == 1);
    CHECK(detect(bom + "{:process 0, :type :invoke, :f :get, :key \"1\"}\n").events.at(0).key == Value::string("1"));
    CHECK(detect(bom + "[{:process 0, :type :invoke, :f :read}]").events.at(0).pos.column == 2);
  }

  TEST_CASE("an explicit format overrides detection") {
    CHECK_THROWS_AS(ariadne::parse_events("[{\"process\": 0}]", "x", Format::edn), InputError);
    CHECK_THROWS_AS(ariadne::parse_events("[{:process 0, :type :invoke, :f :read}]", "x", Format::json), InputError);
  }

  TEST_CASE("reading a missing file is an input error without a position") {
    const std::string path = "/nonexistent/ariadne/history.edn";
    try {
      ariadne::read_events(path);
      FAIL("expected an InputError");
    } catch (const InputError& e) {
      CHECK(e.source() == path);
      CHECK(e.pos().line == 0);
      CHECK(e.pos().column == 0);
      CHECK(e.message() == "cannot open file: No such file or directory");
    }
  }

  TEST_CASE("reading a directory is an input error") {
    CHECK_THROWS_AS(ariadne::read_events(ARIADNE_SOURCE_DIR), InputError);
  }

}  // TEST_SUITE
