// The closure look (relaxed_closure.hpp) against brute force on random relaxed
// histories of every model: when it answers, brute force answers the same, and every
// order it returns replays as a linearization of the relaxed history (checked by
// verify_linearization, which shares nothing with the look). It must also stay
// silent where the unlimited supply of relaxed ops is what would make an order
// exist.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "refute/relaxed_closure.hpp"
#include "refute/relaxed_history.hpp"
#include "support/history_builder.hpp"
#include "support/random_history.hpp"
#include "support/relaxed_replay.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace ariadne;
using testing::EventScript;
using testing::I;
using testing::replay_relaxed_witness;

namespace {

constexpr std::uint64_t kSteps = 1 << 20;
constexpr std::size_t kBytes = std::size_t{1} << 28;

Verdict brute(const History& relaxed, const Model& model) {
  const CheckOptions options{.engine = Engine::brute, .timeout_seconds = 20, .jobs = 1, .minimal_core = false};
  return check(relaxed, model, options).verdict;
}

struct Tally {
  int ordered = 0;
  int refuted = 0;
  int silent = 0;
};

Tally check_model(const std::string& spec, int histories, std::uint64_t seed) {
  auto model = make_model_from_spec(spec);
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int h = 0; h < histories; ++h) {
    testing::RandomHistoryShape shape;
    shape.operations = 4 + h % 6;
    shape.crash_probability = h % 3 == 0 ? 0.3 : 0.1;
    const History history = build_history(testing::random_history(spec, shape, rng), *model);
    const std::vector<const Operation*> ops = testing::first_partition(history, *model);
    if (ops.empty()) continue;
    std::vector<bool> keep(ops.size());
    const int percent = 30 + static_cast<int>(rng() % 60);
    for (std::size_t i = 0; i < ops.size(); ++i) keep[i] = static_cast<int>(rng() % 100) < percent;
    const refute::RelaxedHistory relaxed = refute::relax(ops, keep);
    const History as_history = relaxed.as_history("relaxed");
    const search::StopSignal no_stop;
    const refute::ClosureDecision look = refute::decide_by_closure(relaxed, *model, no_stop, kSteps, kBytes);
    INFO(spec, ", seed ", seed, ", history #", h);
    switch (look.decision.verdict) {
      case refute::RelaxedVerdict::linearizable: {
        ++tally.ordered;
        CHECK(replay_relaxed_witness(relaxed, as_history, *model, look.decision.linearization) == "");
        CHECK(brute(as_history, *model) == Verdict::linearizable);
        break;
      }
      case refute::RelaxedVerdict::not_linearizable:
        ++tally.refuted;
        CHECK(brute(as_history, *model) == Verdict::not_linearizable);
        break;
      case refute::RelaxedVerdict::undecided: ++tally.silent; break;
    }
  }
  return tally;
}

refute::ClosureDecision look_at(const History& history, const Model& model, const std::vector<bool>& keep) {
  std::vector<const Operation*> ops;
  for (const Operation& op : history.ops) ops.push_back(&op);
  const search::StopSignal no_stop;
  return refute::decide_by_closure(refute::relax(ops, keep), model, no_stop, kSteps, kBytes);
}

}  // namespace

TEST_SUITE("explain") {
  TEST_CASE("the closure look agrees with brute force: the register family, where it answers most questions") {
    for (const auto& [spec, seed] :
         {std::pair{"register(0)", 31}, {"cas-register(0)", 32}, {"etcd", 33}, {"multi-register({:x 0 :y 0})", 34}}) {
      const Tally tally = check_model(spec, 400, seed);
      INFO(spec, ": ", tally.ordered, " ordered, ", tally.refuted, " refuted, ", tally.silent, " silent");
      CHECK(tally.ordered > 100);
      CHECK(tally.refuted > 100);
    }
  }

  TEST_CASE("the closure look agrees with brute force, or stays silent: mutex, queues, stack, set, kv") {
    for (const auto& [spec, seed] : {std::pair{"mutex()", 35},
                                     {"fifo-queue()", 36},
                                     {"unordered-queue()", 37},
                                     {"stack()", 38},
                                     {"set()", 39},
                                     {"kv", 40}}) {
      const Tally tally = check_model(spec, 200, seed);
      INFO(spec, ": ", tally.ordered, " ordered, ", tally.refuted, " refuted, ", tally.silent, " silent");
      CHECK(tally.ordered + tally.refuted > 50);
    }
  }

  TEST_CASE("the closure look does not refute what only a limited supply of relaxed writes decides") {
    auto model = make_model_from_spec("register(0)");
    // 0 read 1, 1 write 2, 2 read 1 in real-time order, then a write 1 that is relaxed:
    // one write of 1 cannot serve both reads (the write of 2 comes between them), so
    // the relaxed history is not linearizable, but an unlimited supply of writes of 1
    // would make it so. The look must not claim an order.
    EventScript one;
    one.invoke(0, "read").ok(0, "read", I(1));
    one.invoke(0, "write", I(2)).ok(0, "write", I(2));
    one.invoke(0, "read").ok(0, "read", I(1));
    one.invoke(1, "write", I(1)).ok(1, "write", I(1));
    const History h1 = one.build(*model);
    const refute::ClosureDecision short_supply = look_at(h1, *model, {true, true, true, false});
    CHECK(short_supply.decision.verdict == refute::RelaxedVerdict::undecided);

    // With a second relaxed write of 1 there are enough: an order, which replays.
    EventScript two = one;
    two.invoke(2, "write", I(1)).ok(2, "write", I(1));
    const History h2 = two.build(*model);
    std::vector<const Operation*> ops;
    for (const Operation& op : h2.ops) ops.push_back(&op);
    const refute::RelaxedHistory relaxed = refute::relax(ops, {true, true, true, false, false});
    const search::StopSignal no_stop;
    const refute::ClosureDecision enough = refute::decide_by_closure(relaxed, *model, no_stop, kSteps, kBytes);
    REQUIRE(enough.decision.verdict == refute::RelaxedVerdict::linearizable);
    CHECK(replay_relaxed_witness(relaxed, relaxed.as_history("relaxed"), *model, enough.decision.linearization) == "");

    // Reading a value nobody writes is refuted outright.
    EventScript never;
    never.invoke(0, "read").ok(0, "read", I(7));
    never.invoke(1, "write", I(1)).ok(1, "write", I(1));
    const History h3 = never.build(*model);
    CHECK(look_at(h3, *model, {true, false}).decision.verdict == refute::RelaxedVerdict::not_linearizable);
  }

  TEST_CASE("the closure look gives up on a model whose relaxed ops reach ever more states") {
    auto model = make_model_from_spec("fifo-queue()");
    EventScript s;
    s.invoke(0, "dequeue").ok(0, "dequeue", I(1));
    for (int v = 1; v <= 8; ++v) s.invoke(v, "enqueue", I(v)).ok(v, "enqueue", I(v));
    const History h = s.build(*model);
    std::vector<bool> keep(h.ops.size(), false);
    keep[0] = true;
    const refute::ClosureDecision look = look_at(h, *model, keep);
    CHECK(look.decision.verdict == refute::RelaxedVerdict::undecided);
    CHECK(look.too_many_states);
  }

}  // TEST_SUITE
