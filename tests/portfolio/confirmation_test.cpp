// Every refutation is confirmed before it is printed (portfolio/confirmation.hpp): a
// wrong refutation is contradicted with a certified order, a right one confirmed by
// its violation or by the whole partition.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "portfolio/confirmation.hpp"
#include "support/history_builder.hpp"

#include <doctest/doctest.h>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

// The refutation of a whole history (one partition), as decide() makes it.
portfolio::Refutation refutation_of(const History& h, Engine winner, std::vector<std::uint32_t> refuting_ops) {
  portfolio::Refutation r;
  for (const Operation& op : h.ops) r.sub.ops.push_back(&op);
  r.winner = winner;
  r.refuting_ops = std::move(refuting_ops);
  return r;
}

constexpr std::uint64_t kMemory = 1ULL << 30;

// corpus/regressions/queue-crashed-enqueue-puts-a-value-back.edn: linearizable, and the
// three ops the unique queue test once named as its violation.
EventScript put_back() {
  EventScript s;
  s.invoke(0, "enqueue", I(0)).ok(0, "enqueue", I(0));
  s.invoke(1, "dequeue").ok(1, "dequeue", I(0));
  s.invoke(1, "dequeue");
  s.invoke(2, "enqueue", I(0));
  s.ok(1, "dequeue", I(0));
  return s;
}

}  // namespace

TEST_SUITE("portfolio") {
  TEST_CASE("a wrong refutation is contradicted by an order the certificate checker accepts") {
    auto model = make_model_from_spec("fifo-queue");
    const History h = put_back().build(*model);
    REQUIRE(h.ops.size() == 4);
    // The violation the old unique test named: enqueue 0 and both dequeues.
    const portfolio::Refutation wrong = refutation_of(h, Engine::unique, {0, 1, 2});
    // Alone, the violation relaxed is not refuted: not confirmed yet.
    CHECK(portfolio::confirm_refutation(wrong, *model, kMemory, false).answer ==
          portfolio::Confirmation::Answer::undecided);
    const portfolio::Confirmation c = portfolio::confirm_refutation(wrong, *model, kMemory, true);
    REQUIRE(c.answer == portfolio::Confirmation::Answer::contradicted);
    CHECK_FALSE(verify_linearization(h, *model, c.linearization));
    CHECK(portfolio::contradicted_refutation(Engine::unique, "", c).find("unique: refuted") == 0);
  }

  TEST_CASE("a right refutation is confirmed by its violation, or else by the whole partition") {
    auto model = make_model_from_spec("fifo-queue");
    EventScript twice;  // one enqueue of 0, two dequeues of 0, a third op of no use
    twice.invoke(0, "enqueue", I(0)).ok(0, "enqueue", I(0));
    twice.invoke(1, "dequeue").ok(1, "dequeue", I(0));
    twice.invoke(0, "enqueue", I(5)).ok(0, "enqueue", I(5));
    twice.invoke(1, "dequeue").ok(1, "dequeue", I(0));
    const History h = twice.build(*model);
    const portfolio::Confirmation by_violation =
        portfolio::confirm_refutation(refutation_of(h, Engine::unique, {0, 1, 3}), *model, kMemory, false);
    REQUIRE(by_violation.answer == portfolio::Confirmation::Answer::confirmed);
    CHECK(by_violation.refuted == std::vector<std::uint32_t>{0, 1, 3});
    // A search's refutation names no ops: with `whole`, the model's seeds (here the
    // two dequeues of one value) confirm it before the whole partition is decided.
    CHECK(portfolio::confirm_refutation(refutation_of(h, Engine::wgl, {}), *model, kMemory, false).answer ==
          portfolio::Confirmation::Answer::undecided);
    const portfolio::Confirmation seeded =
        portfolio::confirm_refutation(refutation_of(h, Engine::wgl, {}), *model, kMemory, true);
    REQUIRE(seeded.answer == portfolio::Confirmation::Answer::confirmed);
    CHECK(seeded.refuted.size() < h.ops.size());
    CHECK(seeded.by.find("seeds") != std::string::npos);

    // A mutex acquired twice: no seed; the whole partition decides.
    auto mutex = make_model_from_spec("mutex");
    EventScript twice_held;
    twice_held.invoke(0, "acquire").ok(0, "acquire");
    twice_held.invoke(1, "acquire").ok(1, "acquire");
    const History m = twice_held.build(*mutex);
    const portfolio::Confirmation whole =
        portfolio::confirm_refutation(refutation_of(m, Engine::wgl, {}), *mutex, kMemory, true);
    REQUIRE(whole.answer == portfolio::Confirmation::Answer::confirmed);
    CHECK(whole.refuted.size() == m.ops.size());
    CHECK(whole.by.find("the partition") != std::string::npos);
  }

  TEST_CASE("under sequential consistency an engine of the other family confirms") {
    auto model = make_model_from_spec("register(0)");
    EventScript stale;  // one process writes 1 and then reads 0: no order explains it
    stale.invoke(0, "write", I(1)).ok(0, "write", I(1));
    stale.invoke(0, "read").ok(0, "read", I(0));
    const History h = stale.build(*model);
    portfolio::Refutation r = refutation_of(h, Engine::program_order, {});
    r.sub.consistency = Consistency::sequential;
    const portfolio::Confirmation c = portfolio::confirm_refutation(r, *model, kMemory, true);
    CHECK(c.answer == portfolio::Confirmation::Answer::confirmed);
    CHECK(c.by.find("sat") != std::string::npos);
  }

  TEST_CASE("every path of check() answers the regression right: with and without a core, every engine") {
    auto model = make_model_from_spec("fifo-queue");
    const History h = put_back().build(*model);
    for (const bool core : {false, true}) {
      for (const Engine e : {Engine::automatic, Engine::wgl, Engine::jit, Engine::sat, Engine::smt, Engine::brute}) {
        CAPTURE(core);
        CAPTURE(engine_name(e));
        const CheckResult r = check(h, *model, CheckOptions{.engine = e, .jobs = 1, .minimal_core = core});
        CHECK(r.verdict == Verdict::linearizable);
      }
    }
    auto independent = make_model_from_spec("independent(fifo-queue)");
    // The same ops on key 7, as jepsen.independent writes them: [key value].
    const auto at7 = [](Value v) { return Value::vector({I(7), std::move(v)}); };
    EventScript keyed;
    keyed.invoke(0, "enqueue", at7(I(0))).ok(0, "enqueue", at7(I(0)));
    keyed.invoke(1, "dequeue", at7({})).ok(1, "dequeue", at7(I(0)));
    keyed.invoke(1, "dequeue", at7({}));
    keyed.invoke(2, "enqueue", at7(I(0)));
    keyed.ok(1, "dequeue", at7(I(0)));
    for (const bool core : {false, true}) {
      const CheckResult r =
          check(keyed.build(*independent), *independent, CheckOptions{.jobs = 1, .minimal_core = core});
      CHECK(r.verdict == Verdict::linearizable);
    }
  }
}
