// Porcupine kv histories: one op map per line, with :key.
#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <string>

using ariadne::EventType;
using ariadne::Format;
using ariadne::InputError;
using ariadne::Value;

namespace {

ariadne::EventLog kv(const std::string& text) { return ariadne::parse_events(text, "c.txt", Format::porcupine_kv); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("porcupine kv reads one op map per line with its key") {
    const auto log =
        kv("{:process 9, :type :invoke, :f :append, :key \"0\", :value \"x 9 0 y\"}\n"
           "{:process 1, :type :invoke, :f :get, :key \"9\", :value nil}\n"
           "{:process 1, :type :ok, :f :get, :key \"9\", :value \"\"}\n");
    REQUIRE(log.events.size() == 3);
    CHECK(log.source == "c.txt");
    CHECK(log.events[0].process == Value::integer(9));
    CHECK(log.events[0].f == "append");
    CHECK(log.events[0].key == Value::string("0"));
    CHECK(log.events[0].value == Value::string("x 9 0 y"));
    CHECK(log.events[1].value.is_nil());
    CHECK(log.events[2].type == EventType::ok);
    CHECK(log.events[2].value == Value::string(""));
    CHECK(log.events[2].pos.line == 3);
    CHECK(log.events[2].pos.column == 1);
  }

  TEST_CASE("porcupine kv skips blank lines and reads a last line without newline") {
    const auto log =
        kv("\n{:process 0, :type :invoke, :f :get, :key \"1\", :value nil}\n\n"
           "{:process 0, :type :ok, :f :get, :key \"1\", :value \"a\"}");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[0].pos.line == 2);
    CHECK(log.events[1].pos.line == 4);
  }

  TEST_CASE("porcupine kv rejects two op maps on one line") {
    CHECK_THROWS_WITH_AS(kv("{:process 0, :type :invoke, :f :get, :key \"1\"} {:process 1, :type :invoke, :f :get}\n"),
                         "c.txt:1:48: expected one op map per line, found '{' after the op map on this line",
                         InputError);
  }

  TEST_CASE("porcupine kv reports a line that is not an op map, or a bad field") {
    CHECK_THROWS_WITH_AS(kv("{:process 0, :type :invoke, :f :get, :key \"1\"}\n:oops\n"),
                         "c.txt:2:1: expected an op map such as {:process 0, :type :invoke, :f :read, :value nil}, "
                         "found a keyword :oops",
                         InputError);
    CHECK_THROWS_WITH_AS(kv("{:process 0, :type :done, :f :get, :key \"1\"}\n"),
                         "c.txt:1:1: unknown :type :done, expected :invoke, :ok, :fail or :info", InputError);
    CHECK_THROWS_WITH_AS(kv("{:process 0, :type :ok, :f :get, :key \"1, :value nil}\n"),
                         "c.txt:2:1: unterminated string: expected '\"' before end of input (opened at 1:39)",
                         InputError);
  }

}  // TEST_SUITE
