// The etcd register of Porcupine: absent start, nil reads, failed cas as evidence.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("etcd: starts absent and a read of nil is legal only while absent") {
    auto model = make_model("etcd", Value());
    Harness h(*model, {op("read", Value()), op("write", i(1)), op("read", i(1))});
    CHECK(h.describe(h.initial()) == "absent");
    CHECK(h.run({0, 1, 2}).has_value());
    CHECK_FALSE(h.run({1, 0}).has_value());
    CHECK_FALSE(h.run({2}).has_value());
  }

  TEST_CASE("etcd: an ok cas needs its expected value") {
    auto model = make_model("etcd", Value());
    Harness h(*model, {op("write", i(1)), op("cas", vec({i(1), i(2)}))});
    CHECK_FALSE(h.run({1}).has_value());
    CHECK(h.describe(h.run({0, 1})) == "2");
  }

  TEST_CASE("etcd: a failed cas is legal only where the state differs from its expected value") {
    auto model = make_model("etcd", Value());
    Harness h(*model, {op("write", i(1)), failed("cas", vec({i(1), i(2)})), failed("cas", vec({i(3), i(2)}))});
    CHECK(h.run({1}) == h.initial());  // absent counts as different from 1
    CHECK_FALSE(h.run({0, 1}).has_value());
    CHECK(h.run({0, 2}) == h.run({0}));
  }

  TEST_CASE("etcd: only failed cas ops are observations and failed reads are dropped") {
    auto model = make_model("etcd-register-cas", Value());
    CHECK(model->failed_is_observation(failed("cas", vec({i(1), i(2)}))));
    CHECK_FALSE(model->failed_is_observation(failed("read", kw("timed-out"))));
    CHECK_FALSE(model->failed_is_observation(failed("write", i(1))));
  }

  TEST_CASE("etcd: a crashed cas sets its new value where it matches and changes nothing elsewhere") {
    auto model = make_model("etcd", i(1));
    Harness h(*model, {crashed("cas", vec({i(1), i(4)})), crashed("cas", vec({i(3), i(4)})), crashed("read", Value()),
                       crashed("write", i(2))});
    CHECK(h.describe(h.run({0})) == "4");
    CHECK(h.run({1}) == h.initial());
    CHECK(h.run({2}) == h.initial());
    CHECK(h.describe(h.run({3})) == "2");
  }

  TEST_CASE("etcd: check_operation and name and alias and spec") {
    auto model = make_model("etcd-register-cas", Value());
    CHECK(model->name() == "etcd");
    CHECK(model->spec() == "etcd");
    CHECK(make_model("etcd", i(3))->spec() == "etcd(3)");
    CHECK(model->check_operation(op("cas", i(3))) == "etcd: expected :cas value [old new], got 3");
    CHECK(model->check_operation(failed("cas", kw("timed-out"))) ==
          "etcd: expected :cas value [old new], got :timed-out");
    CHECK_FALSE(model->check_operation(failed("read", kw("timed-out"))).has_value());
    CHECK(model->check_operation(op("append", i(3))) ==
          "etcd: unknown operation :append (expected :read, :write or :cas)");
    CHECK_FALSE(model->is_partitioned());
  }

}  // TEST_SUITE
