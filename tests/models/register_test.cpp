// Register and cas-register: Knossos' semantics, crashed ops, and operation checks.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("register: a read must see the last write and a read of nil is a wildcard") {
    auto model = make_model("register", i(0));
    Harness h(*model, {op("read", i(0)), op("write", i(3)), op("read", i(3)), op("read", Value()), op("read", i(5))});
    CHECK(h.run({0, 1, 2}).has_value());
    CHECK_FALSE(h.run({2}).has_value());
    CHECK_FALSE(h.run({1, 0}).has_value());
    CHECK(h.run({3, 1, 3}).has_value());
    CHECK_FALSE(h.run({1, 4}).has_value());
    CHECK(h.describe(h.run({1})) == "3");
    CHECK(h.describe(h.initial()) == "0");
  }

  TEST_CASE("register: the default initial state is nil and reads of it need a nil read") {
    auto model = make_model("register", Value());
    Harness h(*model, {op("read", i(0)), op("read", Value())});
    CHECK(h.describe(h.initial()) == "nil");
    CHECK_FALSE(h.legal(h.initial(), 0));
    CHECK(h.legal(h.initial(), 1));
  }

  TEST_CASE("register: states are the values so equal values reached differently are equal ids") {
    auto model = make_model("register", Value());
    Harness h(*model, {op("write", i(1)), op("write", i(2)), op("write", i(1))});
    CHECK(h.run({0}) == h.run({1, 2}));
    CHECK(h.run({0}) != h.run({1}));
  }

  TEST_CASE("register: values compare with Clojure equality so a list read matches a vector write") {
    auto model = make_model("register", Value());
    Harness h(*model, {op("write", vec({i(1), i(2)})), op("read", Value::list({i(1), i(2)}))});
    CHECK(h.run({0, 1}).has_value());
  }

  TEST_CASE("register: a crashed read is always legal and a crashed write applies") {
    auto model = make_model("register", i(0));
    Harness h(*model, {crashed("read", i(7)), crashed("write", i(4)), op("read", i(4))});
    CHECK(h.successors(h.initial(), 0) == std::vector<StateId>{h.initial()});
    CHECK(h.run({1, 2}).has_value());
  }

  TEST_CASE("register: a failed op that reaches an engine changes nothing") {
    auto model = make_model("cas-register", i(0));
    Harness h(*model, {failed("write", i(4)), failed("cas", vec({i(1), i(2)}))});
    CHECK(h.successors(h.initial(), 0) == std::vector<StateId>{h.initial()});
    CHECK(h.successors(h.initial(), 1) == std::vector<StateId>{h.initial()});
  }

  TEST_CASE("cas-register: cas is legal only from its expected value") {
    auto model = make_model("cas-register", i(0));
    Harness h(*model,
              {op("cas", vec({i(0), i(1)})), op("cas", vec({i(0), i(2)})), op("read", i(1)), op("write", i(0))});
    CHECK(h.describe(h.run({0})) == "1");
    CHECK_FALSE(h.run({0, 1}).has_value());
    CHECK(h.run({0, 2, 3, 1}).has_value());
    CHECK(h.run({0, 3}) == h.initial());
  }

  TEST_CASE("cas-register: a crashed cas applies where it matches and has no successor elsewhere") {
    auto model = make_model("cas-register", i(0));
    Harness h(*model, {crashed("cas", vec({i(0), i(5)})), crashed("cas", vec({i(9), i(5)}))});
    CHECK(h.describe(h.run({0})) == "5");
    CHECK(h.successors(h.initial(), 1).empty());
  }

  TEST_CASE("register models: check_operation names the problem") {
    auto reg = make_model("register", Value());
    auto cas = make_model("cas-register", Value());
    CHECK_FALSE(reg->check_operation(op("read", Value())).has_value());
    CHECK_FALSE(reg->check_operation(op("write", kw("x"))).has_value());
    CHECK(reg->check_operation(op("cas", vec({i(1), i(2)}))) ==
          "register: unknown operation :cas (expected :read or :write)");
    CHECK(cas->check_operation(op("cas", i(3))) == "cas-register: expected :cas value [old new], got 3");
    CHECK(cas->check_operation(op("cas", vec({i(1), i(2), i(3)}))).has_value());
    CHECK_FALSE(cas->check_operation(op("cas", Value::list({i(1), i(2)}))).has_value());
    CHECK(cas->check_operation(op("add", i(1))) ==
          "cas-register: unknown operation :add (expected :read, :write or :cas)");
    // A dropped :fail pair only needs a sensible :f.
    CHECK_FALSE(cas->check_operation(failed("cas", kw("timed-out"))).has_value());
  }

  TEST_CASE("register models: names and specs and operation descriptions") {
    CHECK(make_model("register", Value())->spec() == "register(nil)");
    CHECK(make_model("cas-register", i(0))->spec() == "cas-register(0)");
    CHECK(make_model("cas-register", i(0))->name() == "cas-register");
    auto cas = make_model("cas-register", i(0));
    CHECK(cas->describe_operation(op("cas", vec({i(1), i(2)}))) == "cas 1->2");
    CHECK(cas->describe_operation(op("write", i(3))) == "write 3");
    CHECK(cas->describe_operation(op("read", Value())) == "read nil");
  }

}  // TEST_SUITE
