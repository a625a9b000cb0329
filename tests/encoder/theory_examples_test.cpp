// Hand-made histories for each direct encoding and for the unrolling, each showing
// one rule of the model: the formula must be satisfiable exactly when the history is
// linearizable, and every order it allows must replay.
#include "encoder/encoding_harness.hpp"
#include "encoder/theories.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using encoder_tests::encode_history;
using encoder_tests::satisfiable_and_sound;
using testing::EventScript;
using testing::I;

namespace {

Value set_of(std::initializer_list<std::int64_t> elements) {
  std::vector<Value> values;
  for (const std::int64_t e : elements) values.push_back(I(e));
  return Value::set(values);
}

// Satisfiability of the direct encoding and of the unrolling, which must agree.
bool linearizable_by_encoding(const EventScript& script, const std::string& spec) {
  const auto model = make_model_from_spec(spec);
  const History history = script.build(*model);
  const bool direct = satisfiable_and_sound(history, *model, encode_history(history, *model));
  const bool unrolled = satisfiable_and_sound(history, *model, encode_history(history, *model, true));
  CHECK(direct == unrolled);
  return direct;
}

// A priority queue's entry [priority element].
Value entry(std::int64_t priority, std::int64_t element) { return Value::vector({I(priority), I(element)}); }

const Value kEmpty = Value::keyword("empty");

EventScript sequential(const std::vector<std::pair<std::string, Value>>& ops) {
  EventScript s;
  for (const auto& [f, v] : ops) s.invoke(0, f, v).ok(0, f, v);
  return s;
}

}  // namespace

TEST_SUITE("encoder") {
  TEST_CASE("mutex: acquires and releases must alternate from an unlocked start") {
    CHECK(linearizable_by_encoding(sequential({{"acquire", {}}, {"release", {}}, {"acquire", {}}}), "mutex()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"acquire", {}}, {"acquire", {}}}), "mutex()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"release", {}}}), "mutex()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"acquire", {}}, {"release", {}}, {"release", {}}}), "mutex()"));
  }

  TEST_CASE("mutex: a crashed release may free the lock for the next acquire") {
    EventScript s;
    s.invoke(0, "acquire").ok(0, "acquire").invoke(0, "release").info(0, "release");
    s.invoke(1, "acquire").ok(1, "acquire");
    CHECK(linearizable_by_encoding(s, "mutex()"));
  }

  TEST_CASE("mutex: concurrent acquires are ordered by the release between them") {
    EventScript s;
    s.invoke(0, "acquire").invoke(1, "acquire").invoke(2, "release");
    s.ok(0, "acquire").ok(1, "acquire").ok(2, "release");
    CHECK(linearizable_by_encoding(s, "mutex()"));
    EventScript too_many;
    too_many.invoke(0, "acquire").invoke(1, "acquire").invoke(2, "acquire").invoke(3, "release");
    too_many.ok(0, "acquire").ok(1, "acquire").ok(2, "acquire").ok(3, "release");
    CHECK_FALSE(linearizable_by_encoding(too_many, "mutex()"));
  }

  TEST_CASE("fifo queue: elements leave in the order they came") {
    CHECK(linearizable_by_encoding(sequential({{"enqueue", I(1)}, {"enqueue", I(2)}, {"dequeue", I(1)}}),
                                   "fifo-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"enqueue", I(1)}, {"enqueue", I(2)}, {"dequeue", I(2)}}),
                                         "fifo-queue()"));
    CHECK(linearizable_by_encoding(sequential({{"enqueue", I(1)}, {"enqueue", I(2)}, {"dequeue", I(2)}}),
                                   "unordered-queue()"));
  }

  TEST_CASE("fifo queue: the initial elements come first, front first") {
    CHECK(linearizable_by_encoding(sequential({{"enqueue", I(3)}, {"dequeue", I(1)}, {"dequeue", I(2)}}),
                                   "fifo-queue([1 2])"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"dequeue", I(2)}}), "fifo-queue([1 2])"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"enqueue", I(3)}, {"dequeue", I(3)}}), "fifo-queue([1 2])"));
  }

  TEST_CASE("fifo queue: a crashed dequeue takes whatever is at the front") {
    EventScript s;
    s.invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1)).invoke(0, "enqueue", I(2)).ok(0, "enqueue", I(2));
    s.invoke(1, "dequeue").info(1, "dequeue").invoke(0, "dequeue").ok(0, "dequeue", I(2));
    CHECK(linearizable_by_encoding(s, "fifo-queue()"));
    EventScript empty;
    empty.invoke(1, "dequeue").info(1, "dequeue").invoke(0, "enqueue", I(1)).ok(0, "enqueue", I(1));
    empty.invoke(0, "dequeue").ok(0, "dequeue", I(1));
    CHECK(linearizable_by_encoding(empty, "fifo-queue()"));
  }

  TEST_CASE("stack: the last element pushed is the first popped") {
    CHECK(linearizable_by_encoding(sequential({{"push", I(1)}, {"push", I(2)}, {"pop", I(2)}, {"pop", I(1)}}),
                                   "stack()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"push", I(1)}, {"push", I(2)}, {"pop", I(1)}}), "stack()"));
    CHECK(linearizable_by_encoding(sequential({{"pop", I(2)}, {"push", I(3)}, {"pop", I(3)}, {"pop", I(1)}}),
                                   "stack([1 2])"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"pop", I(1)}}), "stack([1 2])"));
  }

  TEST_CASE("queues: an element is removed at most once and never before it was inserted") {
    for (const char* spec : {"unordered-queue()", "fifo-queue()"}) {
      CHECK_FALSE(
          linearizable_by_encoding(sequential({{"enqueue", I(1)}, {"dequeue", I(1)}, {"dequeue", I(1)}}), spec));
      CHECK_FALSE(linearizable_by_encoding(sequential({{"dequeue", I(1)}, {"enqueue", I(1)}}), spec));
    }
    EventScript concurrent;
    concurrent.invoke(0, "dequeue").invoke(1, "enqueue", I(1)).ok(1, "enqueue", I(1)).ok(0, "dequeue", I(1));
    CHECK(linearizable_by_encoding(concurrent, "unordered-queue()"));
  }

  TEST_CASE("priority queue: the most urgent entry leaves first, whichever end that is") {
    const auto ins = [](std::int64_t p, std::int64_t x) {
      return std::pair<std::string, Value>{"insert", entry(p, x)};
    };
    CHECK(linearizable_by_encoding(sequential({ins(2, 0), ins(1, 1), {"poll", I(1)}, {"poll", I(0)}}),
                                   "priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(2, 0), ins(1, 1), {"poll", I(0)}}), "priority-queue()"));
    CHECK(linearizable_by_encoding(sequential({ins(2, 0), ins(1, 1), {"poll", I(0)}}), "max-priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(2, 0), ins(1, 1), {"poll", I(1)}}), "max-priority-queue()"));
    // Not the order of insertion: a later, more urgent entry overtakes.
    CHECK(linearizable_by_encoding(sequential({ins(1, 0), {"poll", I(0)}, ins(3, 1), ins(2, 2), {"poll", I(2)}}),
                                   "priority-queue()"));
  }

  TEST_CASE("priority queue: among entries of equal priority any may leave first") {
    const auto ins = [](std::int64_t p, std::int64_t x) {
      return std::pair<std::string, Value>{"insert", entry(p, x)};
    };
    for (const char* spec : {"priority-queue()", "max-priority-queue()"}) {
      CHECK(linearizable_by_encoding(sequential({ins(1, 0), ins(1, 1), {"poll", I(1)}, {"poll", I(0)}}), spec));
      CHECK(linearizable_by_encoding(sequential({ins(1, 0), ins(1, 1), {"peek", I(1)}, {"peek", I(0)}}), spec));
    }
  }

  TEST_CASE("priority queue: an element inserted twice is polled twice, each time by its own priority") {
    const auto ins = [](std::int64_t p, std::int64_t x) {
      return std::pair<std::string, Value>{"insert", entry(p, x)};
    };
    CHECK(linearizable_by_encoding(sequential({ins(1, 0), ins(3, 0), {"poll", I(0)}, {"poll", I(0)}}),
                                   "priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(1, 0), {"poll", I(0)}, {"poll", I(0)}}), "priority-queue()"));
    // [1 0] is polled first, so [2 1] must go before [3 0].
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(1, 0), ins(3, 0), ins(2, 1), {"poll", I(0)}, {"poll", I(0)}}),
                                         "priority-queue()"));
  }

  TEST_CASE("priority queue: a peek sees the most urgent element and leaves it") {
    const auto ins = [](std::int64_t p, std::int64_t x) {
      return std::pair<std::string, Value>{"insert", entry(p, x)};
    };
    CHECK(linearizable_by_encoding(sequential({ins(2, 0), ins(1, 1), {"peek", I(1)}, {"poll", I(1)}, {"peek", I(0)}}),
                                   "priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(2, 0), ins(1, 1), {"peek", I(0)}}), "priority-queue()"));
    // Polled, so no longer there; and a peek is no removal, so a poll still finds it.
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(1, 0), {"poll", I(0)}, {"peek", I(0)}}), "priority-queue()"));
    CHECK(linearizable_by_encoding(sequential({ins(1, 0), {"peek", I(0)}, {"poll", I(0)}}), "priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({ins(1, 0), {"peek", I(0)}, {"poll", I(0)}, {"poll", I(0)}}),
                                         "priority-queue()"));
    // The second insert of 0 is there for the peek, though the first was polled.
    CHECK(linearizable_by_encoding(sequential({ins(1, 0), ins(2, 0), {"poll", I(0)}, {"peek", I(0)}}),
                                   "priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"peek", I(0)}, ins(1, 0)}), "priority-queue()"));
  }

  TEST_CASE("priority queue: polls and peeks of :empty find nothing there") {
    const auto ins = [](std::int64_t p, std::int64_t x) {
      return std::pair<std::string, Value>{"insert", entry(p, x)};
    };
    CHECK(linearizable_by_encoding(sequential({ins(1, 0), {"poll", I(0)}, {"poll", kEmpty}, {"peek", kEmpty}}),
                                   "priority-queue()"));
    CHECK_FALSE(
        linearizable_by_encoding(sequential({ins(1, 0), {"peek", I(0)}, {"peek", kEmpty}}), "priority-queue()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"poll", kEmpty}}), "priority-queue([[1 0]])"));
  }

  TEST_CASE("priority queue: the initial entries take part by their priorities") {
    CHECK(linearizable_by_encoding(sequential({{"poll", I(8)}, {"poll", I(7)}}), "priority-queue([[3 7] [1 8]])"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"poll", I(7)}}), "priority-queue([[3 7] [1 8]])"));
    CHECK(linearizable_by_encoding(sequential({{"peek", I(7)}, {"insert", entry(5, 9)}, {"poll", I(9)}}),
                                   "max-priority-queue([[3 7] [1 8]])"));
    CHECK(linearizable_by_encoding(sequential({{"poll", I(8)}, {"poll", I(7)}}), "max-priority-queue([[3 7] [3 8]])"));
  }

  TEST_CASE("priority queue: a crashed poll takes one of the most urgent entries, or nothing") {
    // 1 is the most urgent: the crashed poll may take it, and 0 follows.
    EventScript s;
    s.invoke(0, "insert", entry(1, 0)).ok(0, "insert", entry(1, 0));
    s.invoke(0, "insert", entry(0, 1)).ok(0, "insert", entry(0, 1));
    s.invoke(1, "poll").info(1, "poll").invoke(0, "poll").ok(0, "poll", I(0));
    CHECK(linearizable_by_encoding(s, "priority-queue()"));
    // It takes one entry, not two; two crashed polls may take both.
    EventScript one;
    one.invoke(0, "insert", entry(1, 0)).ok(0, "insert", entry(1, 0));
    one.invoke(0, "insert", entry(0, 1)).ok(0, "insert", entry(0, 1));
    one.invoke(1, "poll").info(1, "poll").invoke(0, "poll").ok(0, "poll", kEmpty);
    CHECK_FALSE(linearizable_by_encoding(one, "priority-queue()"));
    EventScript two = one;
    two.invoke(2, "poll").info(2, "poll").invoke(0, "peek").ok(0, "peek", kEmpty);
    CHECK_FALSE(linearizable_by_encoding(two, "priority-queue()"));  // the first empty poll still came too early
    EventScript two_first;
    two_first.invoke(0, "insert", entry(1, 0)).ok(0, "insert", entry(1, 0));
    two_first.invoke(0, "insert", entry(0, 1)).ok(0, "insert", entry(0, 1));
    two_first.invoke(1, "poll").info(1, "poll").invoke(2, "poll").info(2, "poll");
    two_first.invoke(0, "poll").ok(0, "poll", kEmpty);
    CHECK(linearizable_by_encoding(two_first, "priority-queue()"));
  }

  TEST_CASE("priority queue: a concurrent poll may take an entry inserted during it") {
    EventScript s;
    s.invoke(0, "insert", entry(2, 0)).ok(0, "insert", entry(2, 0));
    s.invoke(1, "poll").invoke(2, "insert", entry(1, 1)).ok(2, "insert", entry(1, 1)).ok(1, "poll", I(1));
    s.invoke(0, "poll").ok(0, "poll", I(0));
    CHECK(linearizable_by_encoding(s, "priority-queue()"));
    EventScript late;  // the insert of 1 began after the poll of 1 returned
    late.invoke(0, "insert", entry(2, 0)).ok(0, "insert", entry(2, 0));
    late.invoke(1, "poll").ok(1, "poll", I(1)).invoke(2, "insert", entry(1, 1)).ok(2, "insert", entry(1, 1));
    CHECK_FALSE(linearizable_by_encoding(late, "priority-queue()"));
  }

  TEST_CASE("set: a read sees exactly the initial elements and those added before it") {
    CHECK(linearizable_by_encoding(sequential({{"add", I(1)}, {"read", set_of({1})}}), "set()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"read", set_of({1})}, {"add", I(1)}}), "set()"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"add", I(1)}, {"read", set_of({})}}), "set()"));
    CHECK(linearizable_by_encoding(sequential({{"add", I(2)}, {"read", set_of({1, 2})}}), "set(#{1})"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"read", set_of({})}}), "set(#{1})"));
    EventScript concurrent;
    concurrent.invoke(0, "add", I(1)).invoke(1, "read").ok(1, "read", set_of({1})).ok(0, "add", I(1));
    concurrent.invoke(1, "read").ok(1, "read", set_of({1}));
    CHECK(linearizable_by_encoding(concurrent, "set()"));
  }

  TEST_CASE("set: a crashed add may or may not show") {
    EventScript s;
    s.invoke(0, "add", I(1)).info(0, "add", I(1)).invoke(1, "read").ok(1, "read", set_of({}));
    s.invoke(1, "read").ok(1, "read", set_of({1}));
    CHECK(linearizable_by_encoding(s, "set()"));
    EventScript flicker = s;
    flicker.invoke(1, "read").ok(1, "read", set_of({}));
    CHECK_FALSE(linearizable_by_encoding(flicker, "set()"));
  }

  TEST_CASE("unrolling: a register's reads see the latest write") {
    CHECK(linearizable_by_encoding(sequential({{"write", I(1)}, {"read", I(1)}}), "register(0)"));
    CHECK_FALSE(linearizable_by_encoding(sequential({{"write", I(1)}, {"read", I(0)}}), "register(0)"));
  }

  TEST_CASE("unrolling: a history with too many reachable states is declined with a reason") {
    const auto model = make_model_from_spec("register(0)");
    EventScript s;
    for (int v = 0; v < 70; ++v) s.invoke(0, "write", I(v)).ok(0, "write", I(v));
    const History history = s.build(*model);
    const auto ops = encoder_tests::op_pointers(history);
    std::string why_not;
    CHECK_FALSE(encoder::unrolling_supported(*model, ops, &why_not).has_value());
    CHECK(why_not == "more than 64 reachable states");
    encoder::EncodeOptions unrolled;
    unrolled.force_unrolling = true;
    CHECK_THROWS_AS(encoder::encode(*model, ops, unrolled), encoder::EncodingUnsupported);
  }

  TEST_CASE("unrolling: supports names the number of states it unrolls") {
    const auto model = make_model_from_spec("register(0)");
    const History history = sequential({{"write", I(1)}, {"write", I(2)}, {"read", I(2)}}).build(*model);
    const auto ops = encoder_tests::op_pointers(history);
    CHECK(encoder::unrolling_supported(*model, ops, nullptr) == "bounded unrolling over 3 states");
  }

  TEST_CASE("the direct encodings name themselves") {
    const auto model = make_model_from_spec("stack()");
    const History history = sequential({{"push", I(1)}}).build(*model);
    CHECK(encode_history(history, *model).encoding == "matching with the LIFO axiom (stack)");
    const auto queue = make_model_from_spec("priority-queue()");
    const History inserted = sequential({{"insert", entry(1, 0)}}).build(*queue);
    CHECK(encode_history(inserted, *queue).encoding == "matching with the priority axiom (priority queue)");
  }
}
