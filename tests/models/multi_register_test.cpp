// The multi-register of Knossos: atomic transactions of keyed reads and writes.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

namespace {

Value micro(const char* f, const char* key, Value v) { return vec({kw(f), kw(key), std::move(v)}); }
Value txn(std::vector<Value> micro_ops) { return vec(std::move(micro_ops)); }
Value xy00() { return Value::map({{kw("x"), i(0)}, {kw("y"), i(0)}}); }

}  // namespace

TEST_SUITE("models") {
  TEST_CASE("multi-register: reads must match the current values and nil reads match anything") {
    auto model = make_model("multi-register", xy00());
    Harness h(*model, {op("txn", txn({micro("read", "x", i(0)), micro("read", "y", Value())})),
                       op("txn", txn({micro("write", "x", i(2))})), op("txn", txn({micro("read", "x", i(2))})),
                       op("txn", txn({micro("read", "z", Value()), micro("read", "z", i(1))}))});
    CHECK(h.run({0, 1, 2}).has_value());
    CHECK_FALSE(h.run({2}).has_value());
    CHECK_FALSE(h.run({1, 0}).has_value());
    CHECK_FALSE(h.run({3}).has_value());  // a key never written reads as nil
    CHECK(h.describe(h.initial()) == "{:x 0, :y 0}");
    CHECK(h.describe(h.run({1})) == "{:x 2, :y 0}");
  }

  TEST_CASE("multi-register: micro-ops apply in order so a read sees the txn's own earlier write") {
    auto model = make_model("multi-register", xy00());
    Harness h(*model, {op("txn", txn({micro("write", "x", i(1)), micro("read", "x", i(1))})),
                       op("txn", txn({micro("read", "x", i(1)), micro("write", "x", i(2))})),
                       op("txn", txn({micro("write", "x", i(5)), micro("read", "x", i(0))}))});
    CHECK(h.run({0}).has_value());
    CHECK_FALSE(h.run({1}).has_value());
    CHECK(h.run({0, 1}).has_value());
    CHECK_FALSE(h.run({2}).has_value());  // atomic: the failing read undoes nothing visible
  }

  TEST_CASE("multi-register: micro-op names may be JSON strings") {
    auto model = make_model("multi-register", Value::map({{str("x"), i(0)}}));
    Harness h(*model, {op("txn", vec({vec({str("write"), str("x"), i(3)}), vec({str("read"), str("x"), i(3)})}))});
    CHECK(model->check_operation(op("txn", vec({vec({str("read"), str("x"), i(0)})}))) == std::nullopt);
    CHECK(h.run({0}).has_value());
  }

  TEST_CASE("multi-register: equal register contents reached differently are the same state") {
    auto model = make_model("multi-register", xy00());
    Harness h(*model, {op("txn", txn({micro("write", "x", i(1))})), op("txn", txn({micro("write", "y", i(1))})),
                       op("txn", txn({micro("write", "y", i(1)), micro("write", "x", i(1))})),
                       op("txn", txn({micro("write", "x", i(0))}))});
    CHECK(h.run({0, 1}) == h.run({1, 0}));
    CHECK(h.run({0, 1}) == h.run({2}));
    CHECK(h.run({0, 3}) == h.initial());
  }

  TEST_CASE("multi-register: a crashed txn's reads are wildcards and its writes apply") {
    auto model = make_model("multi-register", xy00());
    Harness h(*model, {crashed("txn", txn({micro("read", "x", i(9)), micro("write", "y", i(4))})),
                       crashed("txn", txn({micro("read", "x", Value())}))});
    CHECK(h.describe(h.run({0})) == "{:x 0, :y 4}");
    CHECK(h.run({1}) == h.initial());
  }

  TEST_CASE("multi-register: check_operation and init and spec") {
    auto model = make_model("multi-register", xy00());
    CHECK(model->spec() == "multi-register({:x 0, :y 0})");
    CHECK(make_model("multi-register", Value())->spec() == "multi-register({})");
    CHECK(model->check_operation(op("read", Value())) == "multi-register: unknown operation :read (expected :txn)");
    CHECK(model->check_operation(op("txn", i(1))) ==
          "multi-register: expected :txn value a vector of micro-ops [f k v] with f :read or :write, got 1");
    CHECK(model->check_operation(op("txn", txn({micro("cas", "x", i(1))}))).has_value());
    CHECK(model->check_operation(op("txn", txn({vec({kw("read"), kw("x")})}))).has_value());
    CHECK_FALSE(model->check_operation(op("txn", txn({}))).has_value());
    CHECK_THROWS_AS(make_model("multi-register", vec({i(1)})), UsageError);
  }

}  // TEST_SUITE
