// Porcupine's key/value store: strings per key, get/put/append, partitioned by key.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

namespace {

Operation kv(std::string f, Value value, const char* key = "k", OpStatus status = OpStatus::ok) {
  return op(std::move(f), std::move(value), status, str(key));
}

}  // namespace

TEST_SUITE("models") {
  TEST_CASE("kv: get sees the concatenation of appends since the last put starting empty") {
    auto model = make_model("kv", Value());
    Harness h(*model, {kv("get", str("")), kv("append", str("x 1 0 y")), kv("append", str("x 2 0 y")),
                       kv("get", str("x 1 0 yx 2 0 y")), kv("put", str("z")), kv("get", str("z"))});
    CHECK(h.describe(h.initial()) == "\"\"");
    CHECK(h.run({0, 1, 2, 3, 4, 5}).has_value());
    CHECK_FALSE(h.run({2, 1, 3}).has_value());
    CHECK_FALSE(h.run({1, 0}).has_value());
    CHECK(h.describe(h.run({1, 2})) == "\"x 1 0 yx 2 0 y\"");
  }

  TEST_CASE("kv: equal strings reached by different steps are the same state") {
    auto model = make_model("kv", Value());
    Harness h(*model, {kv("append", str("ab")), kv("put", str("ab")), kv("append", str("a")), kv("append", str("b")),
                       kv("put", str(""))});
    CHECK(h.run({0}) == h.run({1}));
    CHECK(h.run({2, 3}) == h.run({0}));
    CHECK(h.run({0, 4}) == h.initial());
    // Again, now that the steps are memoised.
    CHECK(h.run({2, 3}) == h.run({1}));
  }

  TEST_CASE("kv: a completed get of nil reads a missing key") {
    auto model = make_model("kv", Value());
    Harness h(*model, {kv("get", Value()), kv("put", str("x"))});
    CHECK(h.legal(h.initial(), 0));
    CHECK_FALSE(h.run({1, 0}).has_value());
  }

  TEST_CASE("kv: a crashed get changes nothing and a crashed put or append applies") {
    auto model = make_model("kv", Value());
    Harness h(*model, {kv("get", Value(), "k", OpStatus::crashed), kv("append", str("a"), "k", OpStatus::crashed),
                       kv("put", str("b"), "k", OpStatus::crashed)});
    CHECK(h.run({0}) == h.initial());
    CHECK(h.describe(h.run({2, 1})) == "\"ba\"");
  }

  TEST_CASE("kv: is partitioned by key and the initial map gives each key its start") {
    auto model = make_model("kv", Value::map({{str("a"), str("x")}}));
    CHECK(model->is_partitioned());
    CHECK(model->partition_key(kv("get", Value(), "a")) == str("a"));
    Harness a(*model, {kv("get", str("x"), "a")});
    CHECK(a.legal(a.initial(), 0));
    Harness b(*model, {kv("get", str(""), "b")});
    CHECK(b.legal(b.initial(), 0));
  }

  TEST_CASE("kv: compiled for several keys the keys stay independent") {
    auto model = make_model("kv", Value());
    Harness h(*model,
              {kv("put", str("1"), "a"), kv("put", str("2"), "b"), kv("get", str("1"), "a"), kv("get", str(""), "b")});
    CHECK(h.run({0, 1}) == h.run({1, 0}));
    CHECK(h.run({0, 3, 2, 1}).has_value());
    CHECK_FALSE(h.run({1, 3}).has_value());
    CHECK(h.describe(h.run({0})) == "{\"a\" \"1\", \"b\" \"\"}");
  }

  TEST_CASE("kv: check_operation and init and spec") {
    auto model = make_model("kv", Value());
    CHECK(model->spec() == "kv");
    CHECK(make_model("kv", Value::map({{str("a"), str("x")}}))->spec() == "kv({\"a\" \"x\"})");
    CHECK(model->check_operation(op("get", Value())) == "kv: :get has no :key (every kv operation names its key)");
    CHECK(model->check_operation(kv("put", i(3))) == "kv: expected :put value a string, got 3");
    CHECK(model->check_operation(kv("get", i(3))).has_value());
    CHECK_FALSE(model->check_operation(kv("get", Value())).has_value());
    CHECK(model->check_operation(kv("read", Value())) ==
          "kv: unknown operation :read (expected :get, :put or :append)");
    CHECK_THROWS_AS(make_model("kv", Value::map({{str("a"), i(1)}})), UsageError);
    CHECK(model->describe_operation(kv("append", str("x"))) == "append \"k\" \"x\"");
  }

  TEST_CASE("kv: memory_bytes grows with the strings interned") {
    std::vector<Operation> ops;
    for (int n = 0; n < 100; ++n) ops.push_back(kv("append", str("x " + std::to_string(n) + " y")));
    auto model = make_model("kv", Value());
    Harness h(*model, ops);
    const std::size_t before = h.compiled().memory_bytes();
    StateId state = h.initial();
    for (std::uint32_t n = 0; n < 100; ++n) state = h.successors(state, n).at(0);
    CHECK(h.compiled().memory_bytes() > before);
  }

}  // TEST_SUITE
