// Model specs as written in expected.tsv files, parsed with the EDN reader.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("model specs: the corpora's spellings parse to the intended models") {
    CHECK(make_model_from_spec("cas-register(0)")->spec() == "cas-register(0)");
    CHECK(make_model_from_spec("cas-register(nil)")->spec() == "cas-register(nil)");
    CHECK(make_model_from_spec("register()")->spec() == "register(nil)");
    CHECK(make_model_from_spec("register")->spec() == "register(nil)");
    CHECK(make_model_from_spec("multi-register({:x 0 :y 0})")->spec() == "multi-register({:x 0, :y 0})");
    CHECK(make_model_from_spec("mutex()")->spec() == "mutex()");
    CHECK(make_model_from_spec("kv")->spec() == "kv");
    CHECK(make_model_from_spec("etcd-register-cas")->name() == "etcd");
    CHECK(make_model_from_spec("  set( #{1 2} ) ")->spec() == "set(#{1 2})");
  }

  TEST_CASE("model specs: every model's spec reads back into a model with the same spec") {
    const std::vector<std::pair<std::string, Value>> models{
        {"register", i(0)},
        {"cas-register", Value()},
        {"multi-register", Value::map({{kw("x"), i(0)}, {str("y"), vec({i(1)})}})},
        {"mutex", Value()},
        {"set", Value::set({i(1), kw("a")})},
        {"unordered-queue", vec({i(1), i(1)})},
        {"fifo-queue", vec({i(2), i(1)})},
        {"stack", Value()},
        {"kv", Value::map({{str("0"), str("x 0 0 y")}})},
        {"kv", Value()},
        {"etcd", i(3)},
        {"etcd", Value()},
    };
    for (const auto& [name, init] : models) {
      const std::string spec = make_model(name, init)->spec();
      CAPTURE(spec);
      CHECK(make_model_from_spec(spec)->spec() == spec);
    }
  }

  TEST_CASE("model specs: malformed specs are usage errors") {
    CHECK_THROWS_AS(make_model_from_spec("cas-register(0"), UsageError);
    CHECK_THROWS_AS(make_model_from_spec("cas-register([0)"), UsageError);
    CHECK_THROWS_AS(make_model_from_spec("queue()"), UsageError);
    CHECK_THROWS_AS(make_model_from_spec("mutex(1)"), UsageError);
    CHECK_THROWS_AS(make_model_from_spec(""), UsageError);
  }

}  // TEST_SUITE
