// The queues of Knossos (unordered and FIFO) and our stack.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("unordered-queue: a dequeue may take any pending element once per enqueue") {
    auto model = make_model("unordered-queue", Value());
    Harness h(*model, {op("enqueue", i(1)), op("enqueue", i(2)), op("dequeue", i(2)), op("dequeue", i(1)),
                       op("enqueue", i(1))});
    CHECK(h.run({0, 1, 2, 3}) == h.initial());
    CHECK(h.run({0, 1, 3, 2}) == h.initial());
    CHECK_FALSE(h.run({0, 2}).has_value());
    CHECK_FALSE(h.run({0, 3, 3}).has_value());
    CHECK(h.run({0, 4, 3, 3}) == h.initial());
    CHECK(h.describe(h.run({4, 1, 0})) == "[1 1 2]");
  }

  TEST_CASE("unordered-queue: equal multisets reached differently are the same state") {
    auto model = make_model("unordered-queue", Value());
    Harness h(*model, {op("enqueue", i(1)), op("enqueue", i(2)), op("dequeue", i(1)), op("enqueue", i(3)),
                       op("dequeue", i(3))});
    CHECK(h.run({0, 1, 2}) == h.run({1}));
    CHECK(h.run({1, 0, 2}) == h.run({1}));
    CHECK(h.run({3, 1, 4}) == h.run({1}));
  }

  TEST_CASE("unordered-queue: a crashed dequeue has one successor per distinct pending element") {
    auto model = make_model("unordered-queue", vec({i(1), i(1), i(2)}));
    Harness h(*model, {crashed("dequeue", Value()), op("enqueue", i(1)), op("enqueue", i(2))});
    const auto next = h.successors(h.initial(), 0);
    REQUIRE(next.size() == 2);
    std::vector<std::string> described{h.describe(next[0]), h.describe(next[1])};
    std::ranges::sort(described);
    CHECK(described == std::vector<std::string>{"[1 1]", "[1 2]"});
    CHECK(next[0] != next[1]);
    Harness empty(*make_model("unordered-queue", Value()), {crashed("dequeue", Value())});
    CHECK(empty.successors(empty.initial(), 0).empty());
  }

  TEST_CASE("fifo-queue: dequeues return elements in enqueue order") {
    auto model = make_model("fifo-queue", Value());
    Harness h(*model, {op("enqueue", i(1)), op("enqueue", i(2)), op("dequeue", i(1)), op("dequeue", i(2))});
    CHECK(h.run({0, 1, 2, 3}) == h.initial());
    CHECK_FALSE(h.run({0, 1, 3}).has_value());
    CHECK_FALSE(h.run({2}).has_value());
    CHECK(h.describe(h.run({0, 1})) == "[1 2]");
    CHECK(h.describe(h.initial()) == "[]");
  }

  TEST_CASE("fifo-queue: a dequeue of nil is not a wildcard as in Knossos") {
    auto model = make_model("fifo-queue", vec({i(1)}));
    Harness h(*model, {op("dequeue", Value())});
    CHECK_FALSE(h.legal(h.initial(), 0));
  }

  TEST_CASE("fifo-queue: equal contents reached differently are the same state") {
    auto model = make_model("fifo-queue", Value());
    Harness h(*model, {op("enqueue", i(1)), op("enqueue", i(2)), op("dequeue", i(1)), op("enqueue", i(3)),
                       op("dequeue", i(2))});
    CHECK(h.run({0, 1, 2}) == h.run({1}));
    CHECK(h.run({0, 1, 2, 4, 3}) == h.run({3}));
    CHECK(h.run({0, 1}) != h.run({1, 0}));
  }

  TEST_CASE("fifo-queue: a crashed dequeue removes the head and has no successor when empty") {
    auto model = make_model("fifo-queue", vec({i(5), i(6)}));
    Harness h(*model, {crashed("dequeue", Value()), crashed("enqueue", i(7))});
    CHECK(h.describe(h.run({0})) == "[6]");
    CHECK_FALSE(h.run({0, 0, 0}).has_value());
    CHECK(h.describe(h.run({1})) == "[5 6 7]");
  }

  TEST_CASE("stack: pops return the most recent push") {
    auto model = make_model("stack", Value());
    Harness h(*model, {op("push", i(1)), op("push", i(2)), op("pop", i(2)), op("pop", i(1)), crashed("pop", Value())});
    CHECK(h.run({0, 1, 2, 3}) == h.initial());
    CHECK_FALSE(h.run({0, 1, 3}).has_value());
    CHECK(h.describe(h.run({0, 1, 4})) == "[1]");
    CHECK(h.run({0, 1, 2}) == h.run({0}));
    CHECK(h.successors(h.initial(), 4).empty());
    CHECK(h.describe(h.run({0, 1})) == "[1 2]");
  }

  TEST_CASE("stack: the initial vector is bottom first") {
    auto model = make_model("stack", vec({i(1), i(2)}));
    Harness h(*model, {op("pop", i(2)), op("pop", i(1))});
    CHECK(h.run({0, 1}).has_value());
    CHECK_FALSE(h.run({1}).has_value());
  }

  TEST_CASE("queues and stack: check_operation and init and spec") {
    CHECK(make_model("fifo-queue", Value())->spec() == "fifo-queue([])");
    CHECK(make_model("unordered-queue", vec({i(1)}))->spec() == "unordered-queue([1])");
    CHECK(make_model("stack", Value())->spec() == "stack([])");
    CHECK(make_model("stack", Value())->check_operation(op("dequeue", i(1))) ==
          "stack: unknown operation :dequeue (expected :push or :pop)");
    CHECK(make_model("fifo-queue", Value())->check_operation(op("pop", i(1))) ==
          "fifo-queue: unknown operation :pop (expected :enqueue or :dequeue)");
    CHECK_FALSE(make_model("unordered-queue", Value())->check_operation(crashed("dequeue", Value())).has_value());
    CHECK_THROWS_AS(make_model("fifo-queue", i(1)), UsageError);
    CHECK_THROWS_AS(make_model("unordered-queue", Value::map({})), UsageError);
  }

  TEST_CASE("queues: interning keeps growing states cheap to revisit and reports memory") {
    std::vector<Operation> ops;
    for (int n = 0; n < 200; ++n) ops.push_back(op("enqueue", i(n)));
    auto model = make_model("fifo-queue", Value());
    Harness h(*model, ops);
    StateId state = h.initial();
    for (std::uint32_t n = 0; n < 200; ++n) state = h.successors(state, n).at(0);
    StateId again = h.initial();
    for (std::uint32_t n = 0; n < 200; ++n) again = h.successors(again, n).at(0);
    CHECK(state == again);
    CHECK(h.compiled().memory_bytes() > 200 * 200 / 2 * sizeof(std::uint32_t));
  }

}  // TEST_SUITE
