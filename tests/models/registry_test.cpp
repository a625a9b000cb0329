// The registry: names, aliases, the catalogue, and errors for unknown names.
#include "tests/models/model_harness.hpp"

#include <doctest/doctest.h>
#include <ariadne/errors.hpp>

using namespace ariadne;
using namespace ariadne::model_tests;

TEST_SUITE("models") {
  TEST_CASE("registry: every catalogued model can be made with its default initial state") {
    const auto catalogue = model_catalogue();
    CHECK(catalogue.size() == 12);
    for (const auto& [name, description] : catalogue) {
      CAPTURE(name);
      CHECK_FALSE(description.empty());
      CHECK(make_model(name, Value())->name() == name);
    }
  }

  TEST_CASE("registry: an unknown model name is a usage error listing the known ones") {
    try {
      make_model("regsiter", Value());
      FAIL("expected UsageError");
    } catch (const UsageError& e) {
      const std::string message = e.what();
      CHECK(message.find("regsiter") != std::string::npos);
      CHECK(message.find("cas-register") != std::string::npos);
      CHECK(message.find("etcd-register-cas") != std::string::npos);
    }
  }

  TEST_CASE("registry: a bad initial state is a usage error naming the model") {
    try {
      make_model("multi-register", i(3));
      FAIL("expected UsageError");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()) ==
            "multi-register: the initial state must be a map of keys to values such as {:x 0 :y 0}, got 3");
    }
  }

}  // TEST_SUITE
