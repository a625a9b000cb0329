// A jepsen.independent history checked under a plain model reads every [key value]
// tuple as one value of one object: a confident refutation of a history that is fine
// key by key. The result then carries a hint (CheckResult::hint), and a refutation's
// explanation opens with it (portfolio/check.cpp).
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "support/history_builder.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using testing::EventScript;
using testing::I;
using testing::pair;

TEST_SUITE("portfolio") {
  TEST_CASE("a history of [key value] tuples under a plain model gets the --independent hint") {
    // corpus/regressions/independent-tuples-read-as-one-register.edn
    const std::string file =
        std::string(ARIADNE_SOURCE_DIR) + "/corpus/regressions/independent-tuples-read-as-one-register.edn";
    auto plain = make_model_from_spec("cas-register");
    const CheckResult refuted = check(build_history(read_events(file), *plain), *plain, CheckOptions{.jobs = 1});
    REQUIRE(refuted.verdict == Verdict::not_linearizable);
    CHECK(refuted.hint.find("--independent") != std::string::npos);
    CHECK(refuted.explanation.rfind(refuted.hint, 0) == 0);

    auto keyed = make_model_from_spec("independent(cas-register)");
    const CheckResult right = check(build_history(read_events(file), *keyed), *keyed, CheckOptions{.jobs = 1});
    CHECK(right.verdict == Verdict::linearizable);
    CHECK(right.hint.empty());

    // Linearizable read as one register, the hint is there all the same.
    EventScript fine;
    fine.invoke(0, "write", pair(1, 5)).ok(0, "write", pair(1, 5));
    fine.invoke(1, "read", Value::vector({I(1), Value()})).ok(1, "read", pair(1, 5));
    const CheckResult linearizable = check(fine.build(*plain), *plain, CheckOptions{.jobs = 1});
    CHECK(linearizable.verdict == Verdict::linearizable);
    CHECK_FALSE(linearizable.hint.empty());
  }

  TEST_CASE("plain histories get no --independent hint, pairs of cas values included") {
    auto cas = make_model_from_spec("cas-register(0)");
    EventScript swaps;  // every value a pair, but of old and new
    swaps.invoke(0, "cas", pair(0, 1)).ok(0, "cas", pair(0, 1));
    swaps.invoke(1, "cas", pair(1, 2)).ok(1, "cas", pair(1, 2));
    CHECK(check(swaps.build(*cas), *cas, CheckOptions{.jobs = 1}).hint.empty());
    EventScript mixed;
    mixed.invoke(0, "write", I(3)).ok(0, "write", I(3));
    mixed.invoke(1, "read").ok(1, "read", I(3));
    CHECK(check(mixed.build(*cas), *cas, CheckOptions{.jobs = 1}).hint.empty());
  }
}
