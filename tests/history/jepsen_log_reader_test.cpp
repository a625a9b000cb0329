// Jepsen text logs: prefixed (Porcupine's etcd data) and bare (old Knossos logs),
// trailing annotations, nemesis lines, and errors with their line:column.
#include <ariadne/history.hpp>

#include "history/jepsen_log_reader.hpp"

#include <doctest/doctest.h>

#include <string>

using ariadne::EventType;
using ariadne::Format;
using ariadne::InputError;
using ariadne::Value;

namespace {

ariadne::EventLog log_of(const std::string& text) { return ariadne::parse_events(text, "j.log", Format::jepsen_log); }

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("jepsen log strips the log prefix and splits on tabs") {
    const auto log = log_of(
        "INFO  jepsen.util - 0\t:invoke\t:read\tnil\n"
        "INFO  jepsen.util - 17\t:invoke\t:cas\t[4 4]\n"
        "INFO  jepsen.util - 0\t:ok\t:read\t3\n"
        "INFO  jepsen.util - 13\t:info\t:cas\t:timed-out\n");
    REQUIRE(log.events.size() == 4);
    CHECK(log.source == "j.log");
    CHECK(log.events[0].process == Value::integer(0));
    CHECK(log.events[0].type == EventType::invoke);
    CHECK(log.events[0].f == "read");
    CHECK(log.events[0].value.is_nil());
    CHECK(log.events[0].pos.line == 1);
    CHECK(log.events[0].pos.column == 21);
    CHECK(log.events[1].value == Value::vector({Value::integer(4), Value::integer(4)}));
    CHECK(log.events[2].value == Value::integer(3));
    CHECK(log.events[3].type == EventType::info);
    CHECK(log.events[3].value == Value::keyword("timed-out"));
    CHECK(log.events[3].pos.line == 4);
  }

  TEST_CASE("jepsen log reads the later layout, the thread before the logger") {
    const auto log = log_of(
        "INFO [2018-02-02 13:04:31,017] jepsen test runner - jepsen.core Running test\n"
        "INFO [2018-02-02 13:04:33,100] jepsen worker 0 - jepsen.util 0\t:invoke\t:write\t1\n"
        "INFO [2018-02-02 13:04:33,200] jepsen worker 0 - jepsen.util 0\t:ok\t:write\t1\n"
        "INFO [2018-02-02 13:04:34,000] jepsen nemesis - jepsen.util :nemesis\t:info\t:start\tnil\n"
        "INFO [2018-02-02 13:04:35,397] jepsen test runner - jepsen.core Run complete, writing\n");
    REQUIRE(log.events.size() == 3);
    CHECK(log.events[0].process == Value::integer(0));
    CHECK(log.events[0].f == "write");
    CHECK(log.events[0].pos.line == 2);
    CHECK(log.events[0].pos.column == 62);
    CHECK(log.events[1].type == EventType::ok);
    CHECK(log.events[2].process == Value::keyword("nemesis"));
    REQUIRE(log.warnings.size() == 1);  // the jepsen.core lines
    CHECK(log.warnings[0].pos.line == 1);
  }

  TEST_CASE("jepsen log splits on any run of spaces") {
    const auto log = log_of(
        "INFO  jepsen.util - 4   :invoke :cas    [1 2]\n"
        "INFO  jepsen.util - 5   :fail   :read   :timed-out\n");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[0].f == "cas");
    CHECK(log.events[1].type == EventType::fail);
    CHECK(log.events[1].value == Value::keyword("timed-out"));
  }

  TEST_CASE("jepsen log reads bare lines and ignores text after the value") {
    const auto log = log_of(
        "94  :invoke :write  0\n"
        "94  :fail :write  0 :conn-not-ready\n"
        "9 :fail :read nil [:psql-exception ERROR: no replica node addresses available via gossip]\n"
        "7 :fail :read nil :timeout\n");
    REQUIRE(log.events.size() == 4);
    CHECK(log.events[0].pos.column == 1);
    CHECK(log.events[1].value == Value::integer(0));
    CHECK(log.events[2].value.is_nil());
    CHECK(log.events[3].value.is_nil());
  }

  TEST_CASE("jepsen log keeps nemesis lines as events, with any EDN value") {
    const auto log = log_of(
        ":nemesis  :info :start2 {\"n1\" \"986\", \"n2\" :started}\n"
        ":nemesis  :info :stop1  nil\n"
        ":nemesis  :info :stop2  [nil {\"n1\" :started}]\n"
        ":nemesis :info :start \"cut n1 - n2\"\n"
        ":nemesis :info\n");
    REQUIRE(log.events.size() == 5);
    CHECK(log.events[0].process == Value::keyword("nemesis"));
    CHECK(log.events[0].f == "start2");
    CHECK(log.events[0].value.is_map());
    CHECK(log.events[2].value.is_sequential());
    // A " - " inside the value is not a log prefix.
    CHECK(log.events[3].value == Value::string("cut n1 - n2"));
    CHECK(log.events[4].f.empty());
  }

  TEST_CASE("jepsen log skips blank and comment lines but counts them, and accepts CRLF") {
    const auto log = log_of("\n; recorded by hand\n   \n1 :invoke :write 3\r\n\r\n1 :ok :write 3\r\n");
    REQUIRE(log.events.size() == 2);
    CHECK(log.events[0].pos.line == 4);
    CHECK(log.events[1].pos.line == 6);
    CHECK(log.events[1].value == Value::integer(3));
  }

  TEST_CASE("jepsen log without a final newline reads its last line") {
    CHECK(log_of("1 :invoke :read nil").events.size() == 1);
  }

  TEST_CASE("jepsen log event shape is recognised without a prefix") {
    using ariadne::looks_like_jepsen_log_event;
    CHECK(looks_like_jepsen_log_event("94  :invoke :write  0"));
    CHECK(looks_like_jepsen_log_event(":nemesis\t:info\t:start"));
    CHECK(looks_like_jepsen_log_event("3 :ok"));
    CHECK_FALSE(looks_like_jepsen_log_event("INFO  jepsen.util - 3 :ok :read 1"));
    CHECK_FALSE(looks_like_jepsen_log_event("{:type :invoke :process 0 :f :read}"));
    CHECK_FALSE(looks_like_jepsen_log_event("[:a :ok]"));
    CHECK_FALSE(looks_like_jepsen_log_event("3 :okay :read"));
    CHECK_FALSE(looks_like_jepsen_log_event("3:ok :read"));
    CHECK_FALSE(looks_like_jepsen_log_event(""));
  }

  TEST_CASE("jepsen log reports a bad :type at its column") {
    CHECK_THROWS_WITH_AS(log_of("1 :invoke :read nil\n2 :foo :read nil\n"),
                         "j.log:2:3: unknown :type :foo, expected :invoke, :ok, :fail or :info", InputError);
    CHECK_THROWS_WITH_AS(log_of("INFO  jepsen.util - 2\tok\t:read\tnil\n"),
                         "j.log:1:23: :type must be a keyword (:invoke, :ok, :fail or :info), found a symbol ok",
                         InputError);
  }

  TEST_CASE("jepsen log reports lines that end too early") {
    CHECK_THROWS_WITH_AS(log_of("INFO  jepsen.util - \n"),
                         "j.log:1:21: expected an event '<process> :<type> :<f> <value>', found end of line",
                         InputError);
    CHECK_THROWS_WITH_AS(
        log_of("3\n"), "j.log:1:2: expected :type (:invoke, :ok, :fail or :info) after the process, found end of line",
        InputError);
    CHECK_THROWS_WITH_AS(log_of("3 :invoke\n"), "j.log:1:10: expected the operation :f after :type, found end of line",
                         InputError);
  }

  TEST_CASE("jepsen log reports malformed values within their line") {
    CHECK_THROWS_WITH_AS(log_of("1 :invoke :cas [1 2\n1 :ok :cas [1 2]\n"),
                         "j.log:1:20: unterminated vector: expected ']' before end of line (opened at 1:16)",
                         InputError);
    CHECK_THROWS_WITH_AS(log_of("INFO  jepsen.util - 1\t:invoke\t:write\t12x\n"), "j.log:1:38: invalid number '12x'",
                         InputError);
    CHECK_THROWS_WITH_AS(log_of("1 :invoke 5 nil\n"), "j.log:1:11: :f must be a keyword or string, found an integer 5",
                         InputError);
  }

}  // TEST_SUITE

TEST_SUITE("history") {
  // What `lein test` prints for a Jepsen test (the console log Horn and Kroening's
  // checker reads): setup lines of other loggers, the history as jepsen.util lines
  // with nemesis notes among them, and the analysis at the end. Detected as a Jepsen
  // log, its history lines read, the others skipped and counted in one warning.
  TEST_CASE("jepsen log: a raw console log gives its history lines and one warning for the rest") {
    const std::string text =
        "$ lein test :only jepsen.system.etcd-test\n"
        "\n"
        "lein test jepsen.system.etcd-test\n"
        "INFO  jepsen.os.debian - :n5 setting up debian\n"
        "INFO  jepsen.system.etcd - Running nodes: {:n1 false, :n2 false, :n3 false}\n"
        "INFO  jepsen.core - Worker 0 starting\n"
        "INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
        "INFO  jepsen.util - 0\t:ok\t:write\t1\n"
        "INFO  jepsen.util - :nemesis\t:info\t:start\t\"Cut off {:n1 #{:n2}, :n2 #{:n1}}\"\n"
        "INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\n"
        "INFO  jepsen.util - 1\t:info\t:cas\t:timed-out\n"
        "INFO  jepsen.util - :nemesis\t:info\t:stop\tnil\n"
        "INFO  jepsen.core - Worker 0 done\n"
        "INFO  jepsen.core - Run complete, writing\n"
        "Not linearizable. Linearizable prefix was:\n"
        "0\t:invoke\t:write\t1\n"
        "{:valid? true,\n"
        " :configs ({:model {:value 1}, :pending []}),\n"
        " :final-paths ()}\n"
        "\n"
        "Ran 1 tests containing 1 assertions.\n"
        "0 failures, 0 errors.\n";
    const ariadne::EventLog log = ariadne::parse_events(text, "jepsen.log");  // auto-detected
    REQUIRE(log.events.size() == 6);
    CHECK(log.events[0].pos.line == 7);
    CHECK(log.events[2].process == Value::keyword("nemesis"));
    CHECK(log.events[4].type == EventType::info);
    CHECK(log.events[5].pos.line == 12);
    REQUIRE(log.warnings.size() == 1);
    CHECK(log.warnings[0].pos.line == 1);
    // The analysis repeats events as bare lines, and clojure.test's "0 failures, 0
    // errors." starts with an integer: in a console log only jepsen.util lines count.
    CHECK_MESSAGE(log.warnings[0].message.starts_with("14 lines are not history lines"), log.warnings[0].message);
  }

  // Horn and Kroening's etcd_095.log: the test died before its first operation, so the
  // log has no history line; Porcupine's copy of it is empty, and linearizable.
  TEST_CASE("jepsen log: a console log without history lines is an empty history, with the warning") {
    const ariadne::EventLog log = ariadne::parse_events(
        "\nlein test jepsen.system.etcd-test\n\nERROR in (register-test) (FutureTask.java:122)\n"
        "Uncaught exception, not in assertion.\n\nRan 1 tests containing 1 assertions.\n0 failures, 1 errors.\n",
        "jepsen.log");
    CHECK(log.events.empty());
    REQUIRE(log.warnings.size() == 1);
    CHECK(log.warnings[0].pos.line == 2);
    CHECK(log.warnings[0].message.starts_with("5 lines are not history lines"));
  }

  TEST_CASE("jepsen log: a jepsen.util line that does not parse is an error, not a skipped line") {
    CHECK_THROWS_WITH_AS(log_of("lein test x\nINFO  jepsen.util - 0\t:invok\t:read\tnil\n"),
                         "j.log:2:23: unknown :type :invok, expected :invoke, :ok, :fail or :info", InputError);
  }

}  // TEST_SUITE
