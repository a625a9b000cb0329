// EDN histories: the three layouts Knossos files use, the op-map fields, and the
// errors that name an op's position.
#include <ariadne/history.hpp>

#include <doctest/doctest.h>

#include <string>

using ariadne::EventType;
using ariadne::Format;
using ariadne::InputError;
using ariadne::Value;

namespace {

ariadne::EventLog history(const std::string& text) { return ariadne::parse_events(text, "h.edn", Format::edn); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("edn history reads a vector of op maps, each event at its opening brace") {
    const auto log = history(
        "; a comment\n"
        "[{:process 0, :type :invoke, :f :write, :value 1}\n"
        " {:process 0, :type :ok, :f :write, :value 1}]\n");
    CHECK(log.source == "h.edn");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[0].process == Value::integer(0));
    CHECK(log.events[0].type == EventType::invoke);
    CHECK(log.events[0].f == "write");
    CHECK(log.events[0].value == Value::integer(1));
    CHECK(log.events[0].pos.line == 2);
    CHECK(log.events[0].pos.column == 2);
    CHECK(log.events[1].type == EventType::ok);
    CHECK(log.events[1].pos.line == 3);
    CHECK(log.events[1].pos.column == 2);
  }

  TEST_CASE("edn history reads a list of op maps") {
    const auto log =
        history("({:type :invoke, :f :read, :value nil, :process 1}\n {:type :ok, :f :read, :value 3, :process 1})");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[1].value == Value::integer(3));
    CHECK(log.events[1].process == Value::integer(1));
  }

  TEST_CASE("edn history reads a run of top-level op maps") {
    const auto log = history(
        "{:process 0 :type :invoke :f :read}\n"
        "{:process 0\n :type :ok\n :f :read\n :value 2}\n");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[0].value.is_nil());
    CHECK(log.events[1].value == Value::integer(2));
    CHECK(log.events[1].pos.line == 2);
    CHECK(log.events[1].pos.column == 1);
  }

  TEST_CASE("edn history with one op map, no ops, or only comments") {
    CHECK(history("{:process 0, :type :invoke, :f :read}").events.size() == 1);
    CHECK(history("[]").events.empty());
    CHECK(history("()").events.empty());
    CHECK(history("").events.empty());
    CHECK(history("; nothing here\n").events.empty());
  }

  TEST_CASE("edn history keeps every type, key, index and non-client process") {
    const auto log = history(R"([
    {:process 3, :type :invoke, :f "put", :key "k", :value [1 2], :index 10, :time 5}
    {:process 3, :type :fail, :f :put, :key "k", :value [1 2], :index 11, :error :nope}
    {:process 4, :type :invoke, :f :read, :index nil}
    {:process 4, :type :info, :f :read}
    {:process :nemesis, :type :info, :f :start, :value "partition"}
    {:process :nemesis, :type :info}
    {:process "node-1", :type :info, :f 7}])");
    REQUIRE(log.events.size() == 7);
    CHECK(log.events[0].f == "put");
    CHECK(log.events[0].key == Value::string("k"));
    CHECK(log.events[0].value == Value::vector({Value::integer(1), Value::integer(2)}));
    CHECK(log.events[0].index == 10);
    CHECK(log.events[1].type == EventType::fail);
    CHECK(log.events[1].index == 11);
    CHECK_FALSE(log.events[2].index.has_value());
    CHECK(log.events[2].key.is_nil());
    CHECK(log.events[3].type == EventType::info);
    CHECK(log.events[4].process == Value::keyword("nemesis"));
    CHECK(log.events[4].f == "start");
    CHECK(log.events[5].f.empty());
    CHECK(log.events[6].process == Value::string("node-1"));
    CHECK(log.events[6].f == "7");
  }

  TEST_CASE("edn history lets a repeated key keep its last value, as a map would") {
    const auto log = history("[{:process 0, :type :invoke, :f :read, :value 1, :value 2}]");
    CHECK(log.events.at(0).value == Value::integer(2));
  }

  TEST_CASE("edn history tolerates tags and discards around op maps") {
    const auto log = history("[#_{:process 9} #jepsen/op {:process 0, :type :invoke, :f :read} #_ 3]");
    REQUIRE(log.events.size() == 1);
    CHECK(log.events[0].pos.column == 17);  // a tagged op map starts at its tag
  }

  TEST_CASE("edn history rejects an unknown :type at the op's position") {
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type :invoke, :f :read}\n {:process 0, :type :foo, :f :read}]"),
                         "h.edn:2:2: unknown :type :foo, expected :invoke, :ok, :fail or :info", InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type \"ok\", :f :read}]"),
                         "h.edn:1:2: :type must be a keyword (:invoke, :ok, :fail or :info), found a string \"ok\"",
                         InputError);
  }

  TEST_CASE("edn history rejects missing required fields") {
    CHECK_THROWS_WITH_AS(history("[{:type :invoke, :f :read}]"), "h.edn:1:2: op map has no :process", InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 1, :f :read}]"), "h.edn:1:2: op map has no :type", InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 1, :type :invoke}]"), "h.edn:1:2: op map of client process 1 has no :f",
                         InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 1, :type :invoke, :f 3}]"),
                         "h.edn:1:2: :f must be a keyword or string, found an integer 3", InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 1, :type :invoke, :f :read, :index 1.5}]"),
                         "h.edn:1:2: :index must be an integer, found a float 1.5", InputError);
  }

  TEST_CASE("edn history rejects elements that are not op maps, naming their position") {
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type :invoke, :f :read}\n  [1 2]]"),
                         "h.edn:2:3: expected an op map such as {:process 0, :type :invoke, :f :read, :value nil}, "
                         "found a vector [1 2]",
                         InputError);
    CHECK_THROWS_WITH_AS(history("{:process 0, :type :invoke, :f :read} :ok"),
                         "h.edn:1:39: expected an op map such as {:process 0, :type :invoke, :f :read, :value nil}, "
                         "found a keyword :ok",
                         InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type :invoke, :f :read}] {:process 0, :type :ok, :f :read}"),
                         "h.edn:1:1: expected an op map, found a vector: a history is one vector or list of op maps, "
                         "or op maps only",
                         InputError);
  }

  TEST_CASE("edn history reports malformed op maps") {
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type}]"), "h.edn:1:2: map literal has an odd number of forms",
                         InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type :invoke, :f :read}"),
                         "h.edn:1:39: unterminated vector: expected ']' before end of input (opened at 1:1)",
                         InputError);
    CHECK_THROWS_WITH_AS(history("[{:process 0, :type :invoke, :f :read)]"),
                         "h.edn:1:38: expected '}' to close the map opened at 1:2, found ')'", InputError);
  }

}  // TEST_SUITE
