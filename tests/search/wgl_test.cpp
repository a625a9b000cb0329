#include <ariadne/check.hpp>

#include "support/history_builder.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using testing::EventScript;
using testing::I;
using testing::pair;

namespace {

CheckResult run(const EventScript& script, const std::string& spec, Engine engine = Engine::wgl) {
  auto model = make_model_from_spec(spec);
  History h = script.build(*model);
  return check(h, *model, CheckOptions{.engine = engine, .jobs = 1});
}

}  // namespace

TEST_CASE("an empty history is linearizable with an empty witness") {
  auto r = run(EventScript{}, "register(0)");
  CHECK(r.verdict == Verdict::linearizable);
  CHECK(r.linearization.empty());
}

TEST_CASE("the classic A-D table is not linearizable") {
  // A: write 1 [0,5], B: write 2 [3,8], C: read 2 [6,10], D: read 1 [9,12], from 0.
  EventScript s;
  s.invoke(0, "write", I(1)).invoke(1, "write", I(2)).ok(0, "write", I(1)).invoke(2, "read");
  s.ok(1, "write", I(2)).invoke(3, "read").ok(2, "read", I(2)).ok(3, "read", I(1));
  CHECK(run(s, "register(0)").verdict == Verdict::not_linearizable);
  CHECK(run(s, "register(0)", Engine::brute).verdict == Verdict::not_linearizable);
}

TEST_CASE("a read concurrent with a write may see either value") {
  for (int seen : {0, 1}) {
    EventScript s;
    s.invoke(0, "write", I(1)).invoke(1, "read").ok(1, "read", I(seen)).ok(0, "write", I(1));
    auto r = run(s, "register(0)");
    CHECK(r.verdict == Verdict::linearizable);
    CHECK(r.linearization.size() == 2);
  }
}

TEST_CASE("a crashed write may take effect late, or never") {
  EventScript late;
  late.invoke(0, "write", I(3)).info(0, "write", I(3)).invoke(1, "read").ok(1, "read", I(0));
  late.invoke(1, "read").ok(1, "read", I(3));
  auto r = run(late, "register(0)");
  REQUIRE(r.verdict == Verdict::linearizable);
  CHECK(r.linearization == std::vector<std::uint32_t>{2, 0, 4});

  EventScript never;
  never.invoke(0, "write", I(3)).invoke(1, "read").ok(1, "read", I(0));
  r = run(never, "register(0)");
  REQUIRE(r.verdict == Verdict::linearizable);
  CHECK(r.linearization == std::vector<std::uint32_t>{1});
}

TEST_CASE("a failed operation is dropped, so it cannot explain a read") {
  EventScript s;
  s.invoke(0, "write", I(3)).fail(0, "write", I(3)).invoke(1, "read").ok(1, "read", I(3));
  CHECK(run(s, "register(0)").verdict == Verdict::not_linearizable);
}

TEST_CASE("op ids count ignored nemesis events") {
  EventScript s;
  s.nemesis("start").invoke(0, "write", I(1)).nemesis("stop").ok(0, "write", I(1));
  auto r = run(s, "register(0)");
  REQUIRE(r.verdict == Verdict::linearizable);
  CHECK(r.linearization == std::vector<std::uint32_t>{1});
}

TEST_CASE("identical crashed writes are interchangeable without losing witnesses") {
  // Three crashed writes of 1 and one of 2; reads force 1, 2, 1: two of the identical
  // writes must be used, in an order the symmetry reduction still finds.
  EventScript s;
  s.invoke(0, "write", I(1)).invoke(1, "write", I(1)).invoke(2, "write", I(1)).invoke(3, "write", I(2));
  s.invoke(4, "read").ok(4, "read", I(1)).invoke(4, "read").ok(4, "read", I(2));
  s.invoke(4, "read").ok(4, "read", I(1)).invoke(4, "read").ok(4, "read", I(0));
  CHECK(run(s, "register(0)").verdict == Verdict::not_linearizable);
  EventScript t;
  t.invoke(0, "write", I(1)).invoke(1, "write", I(1)).invoke(2, "write", I(1)).invoke(3, "write", I(2));
  t.invoke(4, "read").ok(4, "read", I(1)).invoke(4, "read").ok(4, "read", I(2));
  t.invoke(4, "read").ok(4, "read", I(1));
  auto r = run(t, "register(0)");
  REQUIRE(r.verdict == Verdict::linearizable);
  CHECK(r.linearization.size() >= 6);  // three reads, W1, W2, W1; spare crashed writes may join
}

TEST_CASE("cas succeeds only from its expected value") {
  EventScript s;
  s.invoke(0, "cas", pair(0, 1)).ok(0, "cas", pair(0, 1)).invoke(0, "cas", pair(0, 2)).ok(0, "cas", pair(0, 2));
  CHECK(run(s, "cas-register(0)").verdict == Verdict::not_linearizable);
}
