// An engine that throws is a bug, not a limit: check() reports it as an InternalError
// (never as a verdict, never as unknown for lack of memory), and the caller's Limits
// are left as they were, so that the phases after it, and the caller, do not read
// the failure as memory running out.
#include <ariadne/check.hpp>

#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace ariadne;

namespace {

// A counter whose step() throws on every read: a model with a bug, which the
// engines meet as an exception from inside their search.
struct ThrowingCounter : StepModel {
  ThrowingCounter() : StepModel("throwing-counter", Value::integer(0), {"increment", "read"}) {}
  std::optional<Value> step(const Value& count, const Operation& op) const override {
    if (op.f == "read") throw std::runtime_error("the model's read has a bug");
    return Value::integer(count.as_integer() + 1);
  }
};

History concurrent_increments_and_a_read(const Model& model) {
  testing::EventScript s;
  s.invoke(0, "increment").invoke(1, "increment").ok(0, "increment").ok(1, "increment");
  s.invoke(2, "read").ok(2, "read", testing::I(2));
  return s.build(model);
}

}  // namespace

TEST_CASE("an engine that throws is an internal error, and the caller's limits are not marked out of memory") {
  const ThrowingCounter model;
  const History history = concurrent_increments_and_a_read(model);
  for (const Engine engine : {Engine::wgl, Engine::jit, Engine::automatic}) {
    for (const unsigned jobs : {1u, 2u}) {
      CAPTURE(engine_name(engine));
      CAPTURE(jobs);
      const Limits limits(LimitSettings{.timeout_seconds = 60, .memory_limit = std::uint64_t{1} << 30, .jobs = jobs});
      CHECK_THROWS_AS((void)check(history, model, CheckOptions{.engine = engine, .limits = &limits}), InternalError);
      CHECK(limits.first_reached() == Limit::none);
      CHECK(limits.reached() == Limit::none);
    }
  }
}
