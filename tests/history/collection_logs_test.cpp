// The research checkers' collection histories, read as their tools write them: Violin
// and LiMo logs (`# @object queue`, `[id] call add(1)`) and fastlin's line format
// (`# stack`, `push 1 1 2`). Each file here is written by the test itself; the
// published files are read by collection_corpus_test.cpp.
#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>
#include <ariadne/model.hpp>

#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ariadne;

namespace {

// An event as the tests compare it: where it was read is left out, since a round
// trip writes other lines.
struct Seen {
  std::string process;
  EventType type;
  std::string f;
  std::string value;
  bool operator==(const Seen&) const = default;
};

std::vector<Seen> seen(const EventLog& log) {
  std::vector<Seen> events;
  for (const Event& event : log.events) {
    events.push_back({event.process.to_edn(), event.type, event.f, event.value.to_edn()});
  }
  return events;
}

const EventType invoke = EventType::invoke;
const EventType ok = EventType::ok;

// The message of the InputError reading `text` throws, as "line:column: message".
std::string read_error(const std::string& text, Format format = Format::auto_detect) {
  try {
    parse_events(text, "h.log", format);
  } catch (const InputError& error) {
    return std::to_string(error.pos().line) + ":" + std::to_string(error.pos().column) + ": " + error.message();
  }
  return "no error";
}

std::string write_error(const EventLog& log, Format format) {
  try {
    format_events(log, format);
  } catch (const InputError& error) {
    return error.message();
  }
  return "no error";
}

Verdict verdict_of(const std::string& text, const std::string& model_spec) {
  const auto model = make_model_from_spec(model_spec);
  return check(parse_history(text, "h.log", *model), *model, CheckOptions{}).verdict;
}

const std::string kViolinQueue =
    "# from a Violin run\n"
    "# @object queue\n"
    "\n"
    "[1] call add(1)\n"
    "    [2] call remove\n"
    "[1] return\n"
    "    [2] return 1   # a comment after an event\n"
    "[3] call remove\n"
    "[3] return empty\n"
    "[4] call add(a)\n"
    "[4] ret\n"
    "[5] call remove\n";

const std::string kLimoStack =
    "# @object atomic-stack\n"
    "[0] call push(?<0,0>)\n"
    "[1] call push 7\n"
    "[0] return\n"
    "[1] return\n"
    "[0] call pop(?<0,0>)\n"
    "[0] return\n"
    "[1] call pop()\n"
    "[1] return 7\n"
    "[1] call pop\n"
    "[1] return\n";

const std::string kFastlinQueue =
    "# queue\n"
    "enq 1 1 2\n"
    "deq 1 2 5\n"
    "enq 2 3 4\n"
    "# a comment\n"
    "\n"
    "deq -1 6 7\n";

}  // namespace

TEST_SUITE("history") {
  TEST_CASE("a Violin log reads as its tools read it, from a file the test writes") {
    const test::TempDir dir;
    const EventLog log = read_events(dir.write("violin.log", kViolinQueue));
    CHECK(log.model_hint == "fifo-queue");
    const std::vector<Seen> expected = {
        {"1", invoke, "enqueue", "1"},     {"2", invoke, "dequeue", "nil"}, {"1", ok, "enqueue", "1"},
        {"2", ok, "dequeue", "1"},         {"3", invoke, "dequeue", "nil"}, {"3", ok, "dequeue", ":empty"},
        {"4", invoke, "enqueue", "\"a\""}, {"4", ok, "enqueue", "\"a\""},   {"5", invoke, "dequeue", "nil"},
    };
    CHECK(seen(log) == expected);
    CHECK(log.events[1].pos.line == 5);
    CHECK(log.events[1].pos.column == 5);
    // The call never returned: a crashed operation.
    const auto model = make_model_from_spec("fifo-queue");
    const History history = build_history(log, *model);
    REQUIRE(history.ops.size() == 5);
    CHECK(history.ops.back().status == OpStatus::crashed);
  }

  TEST_CASE("a LiMo log: thread ids, values in a pop's call, ?<t,i> values and bare returns") {
    const test::TempDir dir;
    const EventLog log = read_events(dir.write("limo.hist", kLimoStack));
    CHECK(log.model_hint == "stack");
    const std::vector<Seen> expected = {
        {"0", invoke, "push", "\"?<0,0>\""}, {"1", invoke, "push", "7"},
        {"0", ok, "push", "\"?<0,0>\""},     {"1", ok, "push", "7"},
        {"0", invoke, "pop", "nil"},         {"0", ok, "pop", "\"?<0,0>\""},
        {"1", invoke, "pop", "nil"},         {"1", ok, "pop", "7"},
        {"1", invoke, "pop", "nil"},         {"1", ok, "pop", ":empty"},
    };
    CHECK(seen(log) == expected);
  }

  TEST_CASE("the Violin objects and methods ariadne reads, and those it refuses by name") {
    CHECK(parse_events("# @object queue \n[1] call enq(1)\n[1] return\n", "h").model_hint == "fifo-queue");
    // White space at a line's end, and Windows line ends, are no part of an event.
    CHECK(parse_events("# @object queue\r\n[1] call add(1)  \r\n[1] return \r\n[2] call remove\t\r\n", "h")
              .events.size() == 3);
    CHECK(parse_events("# @object atomic-queue\n[1] call Deq\n[1] return Empty\n", "h").events[1].value ==
          Value::keyword("empty"));
    CHECK(parse_events("#   @object stack\n[1] call add(1)\n", "h").events[0].f == "push");
    CHECK(parse_events("# @object stack\n[1] call remove\n", "h").events[0].f == "pop");
    CHECK(read_error("# @object register\n[1] call write(1)\n") ==
          "1:1: Violin's 'register' object is no collection ariadne reads from a Violin log: expected queue, "
          "stack, atomic-queue or atomic-stack");
    CHECK(read_error("# @object deque\n[1] call add(1)\n") ==
          "1:1: unknown object 'deque': expected queue, stack, atomic-queue or atomic-stack");
    CHECK(read_error("# @object queue\n[1] call push(1)\n") ==
          "2:10: unknown method 'push' of a queue: expected add, enq or enqueue, or remove, deq or dequeue");
  }

  TEST_CASE("bad Violin and LiMo logs are errors at their line and column") {
    const std::string header = "# @object queue\n";
    CHECK(read_error(header + "[1] return\n") == "2:1: [1] returns without a call pending");
    CHECK(read_error(header + "[1] call add(1)\n[1] call remove\n") ==
          "3:1: [1] calls again while its call on line 2 has not returned: an id's operations are sequential (a "
          "LiMo thread's, or a Violin operation's one)");
    CHECK(read_error(header + "[1] cal add(1)\n") == "2:5: expected 'call' or 'return' after [1], found 'cal'");
    CHECK(read_error(header + "[x] call add(1)\n") ==
          "2:2: expected an operation or thread id (digits), found 'x] call add(1)'");
    CHECK(read_error(header + "[1] call add(1\n") == "2:15: expected ')', found the end of the line");
    CHECK(read_error(header + "[1] call add(1, 2)\n") ==
          "2:15: expected ')' (a collection's operations take one value), found ', 2)'");
    CHECK(read_error(header + "[1] call add\n") ==
          "2:13: expected the value add adds, as add(1), found the end of the line");
    CHECK(read_error(header + "[1] call add(empty)\n") ==
          "2:14: 'empty' marks an empty remove's result; it is no value to add");
    CHECK(read_error(header + "[1] call add(1)\n[1] return 1\n") ==
          "3:12: an add returns no value (its call on line 2 names what it adds)");
    CHECK(read_error(header + "[1] call remove(3)\n[1] return 4\n") ==
          "3:12: the return names another value than the remove's call on line 2 (3)");
    CHECK(read_error(header + "[1] call add(99999999999999999999)\n") ==
          "2:14: expected an integer of 64 bits, found '99999999999999999999'");
    CHECK(read_error("[1] call add(1)\n", Format::violin_log) ==
          "1:1: expected a '# @object queue' (or stack, atomic-queue, atomic-stack) header before the first call: a "
          "Violin or LiMo log names its object");
    CHECK(read_error(header + "[1] call add(1)\n# @object stack\n") ==
          "3:1: a second @object header (the first is on line 1): a log records one object");
  }

  TEST_CASE("a fastlin history: fastlin's order of equal times, -1 as empty, one process an operation") {
    const test::TempDir dir;
    const EventLog log = read_events(dir.write("queue.log", kFastlinQueue));
    CHECK(log.model_hint == "fifo-queue");
    // At time 2 the first enq ends and the first deq starts: the end comes first.
    const std::vector<Seen> expected = {
        {"0", invoke, "enqueue", "1"},   {"0", ok, "enqueue", "1"},      {"1", invoke, "dequeue", "nil"},
        {"2", invoke, "enqueue", "2"},   {"2", ok, "enqueue", "2"},      {"1", ok, "dequeue", "1"},
        {"3", invoke, "dequeue", "nil"}, {"3", ok, "dequeue", ":empty"},
    };
    CHECK(seen(log) == expected);
    CHECK(log.events[1].pos.line == 2);
    CHECK(log.events[1].pos.column == 9);  // the end time
    const auto model = make_model_from_spec("fifo-queue");
    const History history = build_history(log, *model);
    CHECK(history.ops[0].precedes(history.ops[1]));
  }

  TEST_CASE("fastlin: events at one time keep the file's order, completions before invocations") {
    const EventLog log = parse_events("# stack\npush 2 5 9\npush 1 5 8\npop 2 10 11\npop 1 9 12\n", "h");
    CHECK(log.model_hint == "stack");
    const std::vector<Seen> expected = {
        {"0", invoke, "push", "2"},  {"1", invoke, "push", "1"},  {"1", ok, "push", "1"}, {"0", ok, "push", "2"},
        {"2", invoke, "pop", "nil"}, {"3", invoke, "pop", "nil"}, {"3", ok, "pop", "2"},  {"2", ok, "pop", "1"},
    };
    CHECK(seen(log) == expected);
  }

  TEST_CASE("fastlin's priority queue reads as a max priority queue's insert, poll and peek") {
    const EventLog log =
        parse_events("# priorityqueue\ninsert 3 1 2\ninsert 5 3 4\npeek 5 5 6\npoll 5 7 8\npoll -1 9 10\n", "h");
    CHECK(log.model_hint == "max-priority-queue");
    REQUIRE(log.events.size() == 10);
    CHECK(log.events[4].f == "peek");
    CHECK(log.events[5].value == Value::integer(5));
    CHECK(log.events[7].f == "poll");
    CHECK(log.events[9].value == Value::keyword("empty"));
  }

  TEST_CASE("bad fastlin histories are errors at their line and column") {
    CHECK(read_error("# set\ninsert 1 1 2\n") ==
          "1:1: fastlin's set (insert, remove, contains_true, contains_false of single elements) does not fit "
          "ariadne's set model, which only grows and reads the whole set");
    CHECK(read_error("# deque\npush_front 1 1 2\n") ==
          "1:1: unknown fastlin object 'deque': expected queue, stack or priorityqueue");
    CHECK(read_error("enq 1 1 2\n", Format::fastlin) ==
          "1:1: expected fastlin's header '# queue' (or stack, priorityqueue) on the first line");
    CHECK(read_error("# queue\nenq 1 1 2\npush 2 3 4\n") ==
          "3:1: unknown method 'push' of a fastlin queue: expected enq, deq, peek");
    CHECK(read_error("# queue\nenq 1 2 2\n") == "2:9: the operation must end after it starts (start 2, end 2)");
    CHECK(read_error("# queue\nenq 1 3 2\n") == "2:9: the operation must end after it starts (start 3, end 2)");
    CHECK(read_error("# queue\nenq 1 1\n") ==
          "2:8: expected the end time, an integer of 0 or more, found the end of the line");
    CHECK(read_error("# queue\nenq x 1 2\n") == "2:5: expected the value, an integer, found 'x'");
    CHECK(read_error("# queue\nenq 1 -1 2\n") == "2:7: expected the start time, an integer of 0 or more, found '-1'");
    CHECK(read_error("# queue\nenq 1 1 2 3\n") ==
          "2:11: expected the end of the line (method value start end), found '3'");
    CHECK(read_error("# queue\nenq -1 1 2\n") ==
          "2:5: fastlin reads -1 as 'the container was empty' in every operation, so it cannot be added");
  }

  TEST_CASE("detection tells the collection formats from the others") {
    CHECK(parse_events(kViolinQueue, "h").events.size() ==
          parse_events(kViolinQueue, "h", Format::violin_log).events.size());
    CHECK(read_error("[1] call add(1)\n") ==
          "1:1: expected a '# @object queue' (or stack, atomic-queue, atomic-stack) header before the first call: a "
          "Violin or LiMo log names its object");
    CHECK(parse_events(kFastlinQueue, "h").model_hint == "fifo-queue");
    CHECK(parse_format("violin-log") == Format::violin_log);
    CHECK(parse_format("fastlin") == Format::fastlin);
    CHECK(format_name(Format::violin_log) == "violin-log");
    // Formats that name no object have no hint.
    CHECK_FALSE(parse_events("{:process 0, :type :invoke, :f :read, :value nil}\n", "h").model_hint.has_value());
    CHECK(parse_model_hint(kLimoStack, "h") == "stack");
  }

  TEST_CASE("a round trip through each collection format gives the same events") {
    for (const auto& [text, format] :
         {std::pair{kViolinQueue, Format::violin_log}, std::pair{kLimoStack, Format::violin_log},
          std::pair{kFastlinQueue, Format::fastlin}}) {
      CAPTURE(text);
      const EventLog first = parse_events(text, "h");
      const std::string written = format_events(first, format);
      const EventLog second = parse_events(written, "written");
      CHECK(seen(second) == seen(first));
      CHECK(second.model_hint == first.model_hint);
      // And the other way: each collection format through the other and through EDN.
      const EventLog through_edn = parse_events(format_events(first, Format::edn), "edn");
      CHECK(seen(through_edn) == seen(first));
    }
    // A fastlin history written as a Violin log and back: the same events.
    const EventLog fastlin = parse_events(kFastlinQueue, "h");
    CHECK(seen(parse_events(format_events(fastlin, Format::violin_log), "v")) == seen(fastlin));
  }

  TEST_CASE("what the collection formats cannot hold is an error at the event") {
    const EventLog failed = parse_events(
        "{:process 0, :type :invoke, :f :enqueue, :value 1}\n{:process 0, :type :fail, :f :enqueue, :value 1}\n", "h");
    CHECK(write_error(failed, Format::violin_log) == "violin-log has no failed operations (:fail)");
    CHECK(write_error(failed, Format::fastlin) == "fastlin's operations all complete: it has no place for a :fail");
    const EventLog keyword_value = parse_events(
        "{:process 0, :type :invoke, :f :enqueue, :value :x}\n{:process 0, :type :ok, :f :enqueue, :value :x}\n", "h");
    CHECK(write_error(keyword_value, Format::violin_log) ==
          "violin-log values are integers of 0 or more and symbols (a, b), not :x");
    CHECK(write_error(keyword_value, Format::fastlin) == "fastlin values are integers, not :x");
    const EventLog crashed = parse_events(kViolinQueue, "h");
    CHECK(write_error(crashed, Format::fastlin) == "fastlin values are integers, not \"a\"");
    const EventLog pending = parse_events("# @object queue\n[1] call add(1)\n", "h");
    CHECK(write_error(pending, Format::fastlin) == "fastlin's operations all complete: this one never does");
    const EventLog registers = parse_events(
        "{:process 0, :type :invoke, :f :read, :value nil}\n{:process 0, :type :ok, :f :read, :value 1}\n", "h");
    CHECK(write_error(registers, Format::violin_log) ==
          "violin-log holds a queue's :enqueue and :dequeue or a stack's :push and :pop operations");
    // An :info completion is a call that never returns; invoking again after it is not.
    const EventLog info = parse_events(
        "{:process 0, :type :invoke, :f :push, :value 1}\n{:process 0, :type :info, :f :push, :value 1}\n"
        "{:process 0, :type :invoke, :f :push, :value 2}\n",
        "h");
    CHECK(write_error(info, Format::violin_log).starts_with("process 0 invokes again after it crashed"));
  }

  TEST_CASE("the collection formats' histories get the verdicts of their semantics") {
    CHECK(verdict_of("# @object queue\n[1] call add(1)\n[1] return\n[2] call add(2)\n[2] return\n"
                     "[3] call remove\n[3] return 2\n",
                     "fifo-queue") == Verdict::not_linearizable);
    CHECK(verdict_of("# @object queue\n[1] call add(1)\n[2] call add(2)\n[1] return\n[2] return\n"
                     "[3] call remove\n[3] return 2\n",
                     "fifo-queue") == Verdict::linearizable);
    // fastlin's ties: the push ends at 2 as the pop starts, so the pop comes after it.
    CHECK(verdict_of("# stack\npush 1 1 2\npush 2 2 3\npop 1 4 5\n", "stack") == Verdict::not_linearizable);
    CHECK(verdict_of("# stack\npush 1 1 3\npush 2 2 4\npop 1 5 6\n", "stack") == Verdict::linearizable);
  }
}
