#include <ariadne/check.hpp>

#include "support/history_builder.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

CheckResult run_jit(const EventScript& script, const std::string& spec, double timeout = 0) {
  auto model = make_model_from_spec(spec);
  History h = script.build(*model);
  return check(h, *model, CheckOptions{.engine = Engine::jit, .timeout_seconds = timeout, .jobs = 1});
}

}  // namespace

TEST_CASE("jit: the A-D table is not linearizable and the engine says it answered") {
  EventScript s;
  s.invoke(0, "write", I(1)).invoke(1, "write", I(2)).ok(0, "write", I(1)).invoke(2, "read");
  s.ok(1, "write", I(2)).invoke(3, "read").ok(2, "read", I(2)).ok(3, "read", I(1));
  auto r = run_jit(s, "register(0)");
  CHECK(r.verdict == Verdict::not_linearizable);
  CHECK(r.engine == "jit");
}

TEST_CASE("jit: a crashed write is linearized just in time for the read that needs it") {
  EventScript s;
  s.invoke(0, "write", I(3)).info(0, "write", I(3)).invoke(1, "read").ok(1, "read", I(0));
  s.invoke(1, "read").ok(1, "read", I(3));
  auto r = run_jit(s, "register(0)");
  REQUIRE(r.verdict == Verdict::linearizable);
  CHECK(r.linearization == std::vector<std::uint32_t>{2, 0, 4});
}

TEST_CASE("jit: the timeout holds while one return's search is still running") {
  // 40 concurrent writes and a read of a value never written: resolving the read's
  // return means trying every subset of the writes.
  EventScript s;
  const int n = 40;
  for (int p = 0; p < n; ++p) s.invoke(p, "write", I(p + 1));
  s.invoke(n, "read");
  for (int p = 0; p < n; ++p) s.ok(p, "write", I(p + 1));
  s.ok(n, "read", I(999));
  const auto started = std::chrono::steady_clock::now();
  auto r = run_jit(s, "register(0)", 0.2);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(r.verdict == Verdict::unknown);
  CHECK(r.reason.find("timeout") != std::string::npos);
  CHECK(seconds < 1.5);  // the contract is 100 ms past the deadline; CI is noisy
}
