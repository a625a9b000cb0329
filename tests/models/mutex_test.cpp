// The mutex of Knossos: acquire when free, release when held.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("mutex: acquire and release must alternate starting unlocked") {
    auto model = make_model("mutex", Value());
    Harness h(*model, {op("acquire", Value()), op("release", kw("ignored")), op("acquire", i(3))});
    CHECK(h.describe(h.initial()) == "unlocked");
    CHECK(h.describe(h.run({0})) == "locked");
    CHECK(h.run({0, 1, 2}).has_value());
    CHECK_FALSE(h.run({0, 2}).has_value());
    CHECK_FALSE(h.run({1}).has_value());
    CHECK(h.run({0, 1}) == h.initial());
  }

  TEST_CASE("mutex: crashed ops change the lock like completed ones and failed ones change nothing") {
    auto model = make_model("mutex", Value());
    Harness h(*model, {crashed("acquire", Value()), crashed("release", Value()), failed("release", kw("not-held"))});
    CHECK(h.describe(h.run({0})) == "locked");
    CHECK_FALSE(h.run({1}).has_value());
    CHECK(h.run({2}) == h.initial());
  }

  TEST_CASE("mutex: check_operation and init and spec") {
    auto model = make_model("mutex", Value());
    CHECK(model->spec() == "mutex()");
    CHECK(model->check_operation(op("lock", Value())) ==
          "mutex: unknown operation :lock (expected :acquire or :release)");
    CHECK_THROWS_AS(make_model("mutex", i(1)), UsageError);
  }

}  // TEST_SUITE
