// The set of Knossos: adds, and reads of the whole set.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/check.hpp>
#include <ariadne/errors.hpp>
#include <ariadne/history.hpp>

#include <filesystem>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("set: a read must equal the set of everything added so far") {
    auto model = make_model("set", Value());
    Harness h(*model, {op("add", i(1)), op("add", i(2)), op("read", Value::set({i(1), i(2)})),
                       op("read", Value::set({i(1)})), op("read", Value::set({}))});
    CHECK(h.describe(h.initial()) == "#{}");
    CHECK(h.run({4, 0, 3, 1, 2}).has_value());
    CHECK_FALSE(h.run({0, 2}).has_value());
    CHECK_FALSE(h.run({0, 1, 3}).has_value());
    CHECK(h.describe(h.run({1, 0})) == "#{1 2}");
  }

  TEST_CASE("set: equal sets reached in different orders are the same state") {
    auto model = make_model("set", Value());
    Harness h(*model, {op("add", i(1)), op("add", i(2)), op("add", i(1))});
    CHECK(h.run({0, 1}) == h.run({1, 0}));
    CHECK(h.run({0, 1, 2}) == h.run({1, 0}));
    CHECK(h.run({0}) == h.run({2}));
  }

  TEST_CASE("set: a vector read is taken as the set of its elements (JSON has no sets), listing each once") {
    auto model = make_model("set", Value());
    Harness h(*model, {op("add", i(1)), op("add", i(2)), op("read", vec({i(2), i(1)})), op("read", vec({i(1), i(1)}))});
    CHECK(h.run({0, 1, 2}).has_value());
    // No set lists an element twice (corpus/regressions/set-read-lists-an-element-twice.edn).
    CHECK_FALSE(h.run({0, 3}).has_value());
    CHECK_FALSE(h.run({0, 1, 3}).has_value());
  }

  TEST_CASE("set: every engine refutes a read that lists an element twice") {
    const std::filesystem::path file =
        std::filesystem::path(ARIADNE_SOURCE_DIR) / "corpus/regressions/set-read-lists-an-element-twice.edn";
    auto model = make_model_from_spec("set");
    const History history = read_history(file.string(), *model);
    for (const Engine engine :
         {Engine::wgl, Engine::jit, Engine::sat, Engine::smt, Engine::brute, Engine::unique, Engine::automatic}) {
      CAPTURE(engine_name(engine));
      const CheckResult r = check(history, *model, CheckOptions{.engine = engine, .jobs = 1});
      CHECK(r.verdict == Verdict::not_linearizable);
      if (engine == Engine::automatic) CHECK(r.core == std::vector<std::uint32_t>{4});
    }
  }

  TEST_CASE("set: a crashed add applies and a crashed read changes nothing") {
    auto model = make_model("set", Value::set({i(7)}));
    Harness h(*model, {crashed("add", i(1)), crashed("read", Value())});
    CHECK(h.describe(h.run({0})) == "#{1 7}");
    CHECK(h.run({1}) == h.initial());
  }

  TEST_CASE("set: check_operation and init and spec") {
    auto model = make_model("set", Value());
    CHECK(model->spec() == "set(#{})");
    CHECK(make_model("set", vec({i(2), i(1)}))->spec() == "set(#{1 2})");
    CHECK(model->check_operation(op("read", i(3))) ==
          "set: expected :read value a set such as #{1 2} (or a vector of its elements), got 3");
    CHECK(model->check_operation(op("read", Value())).has_value());
    CHECK_FALSE(model->check_operation(crashed("read", Value())).has_value());
    CHECK(model->check_operation(op("remove", i(3))) == "set: unknown operation :remove (expected :add or :read)");
    CHECK_THROWS_AS(make_model("set", i(3)), UsageError);
  }

}  // TEST_SUITE
