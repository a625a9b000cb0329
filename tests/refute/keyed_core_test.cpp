// Minimal cores of register partitions of thousands of ops over a few repeated values,
// the shape of a key of a Jepsen independent cas-register test, found without a
// failing op (the failing-op search often runs out of its budget on them): the core
// search must start from a stale read found by real time (core_seeds.hpp) rather than
// the solver's refutation of the whole partition. Each core is re-checked from the
// outside: refuted once relaxed, and every op necessary (relaxing it too leaves a
// linearizable history, whose witness the certificate checker replays).
// Timings are in scripts/bench_cores.py (family `independent-register`), not here.
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "certify/witness_checker.hpp"
#include "generators/atomic_history.hpp"
#include "refute/core_seeds.hpp"
#include "refute/minimal_core.hpp"
#include "refute/relaxed_check.hpp"
#include "refute/relevant_relaxed.hpp"
#include "support/core_oracle.hpp"
#include "support/history_builder.hpp"
#include "support/random_history.hpp"

#include <doctest/doctest.h>

#include <random>
#include <unordered_map>
#include <vector>

using namespace ariadne;
using testing::EventScript;
using testing::I;

namespace {

// Partitions up to this size are re-checked by check() on the whole relaxed history.
constexpr std::size_t kOutsideRecheckOps = 500;

// Shrinks `ops` (known refuted) with no failing op and re-checks the core: its relaxed
// history refuted, and each op necessary, the order that relaxing it allows replayed
// by the certificate checker against the relaxed history itself. The refutation is
// the relaxed checker's (with the relaxed ops that cannot matter left out,
// relevant_relaxed.hpp): an engine deciding all 3,000 relaxed ops at once takes
// minutes. Small partitions are re-checked from the outside as well (core_oracle.hpp).
void expect_minimal_core_without_failing_op(std::span<const Operation* const> ops, const Model& model,
                                            std::size_t expected_at_least) {
  search::StopSignal stop;
  const refute::CoreSearch search = refute::find_minimal_core(ops, model, std::nullopt, stop, 1ULL << 31);
  INFO("core of ", search.core.size(), " ops of ", ops.size(), ", ", search.decisions, " decisions");
  REQUIRE(search.minimal);
  CHECK(search.core.size() >= expected_at_least);
  refute::RelaxedChecker checker(ops, model, stop, 1ULL << 31);
  std::vector<bool> keep(ops.size(), false);
  for (const std::uint32_t i : search.core) keep[i] = true;
  CHECK(checker.decide(keep).verdict == refute::RelaxedVerdict::not_linearizable);
  for (const std::uint32_t i : search.core) {
    std::vector<bool> candidate = keep;
    candidate[i] = false;
    const refute::RelaxedDecision decision = checker.decide_quickly(candidate);
    CAPTURE(i);
    REQUIRE(decision.verdict == refute::RelaxedVerdict::linearizable);
    // The witness names the partition's ids; the relaxed history numbers its ops anew.
    const refute::RelaxedHistory relaxed = refute::relax(ops, candidate);
    std::unordered_map<std::uint32_t, std::uint32_t> relaxed_id;
    for (std::size_t k = 0; k < relaxed.ops.size(); ++k) relaxed_id[relaxed.original_id[k]] = relaxed.ops[k].id;
    std::vector<std::uint32_t> order;
    for (const std::uint32_t id : decision.linearization) order.push_back(relaxed_id.at(id));
    const auto problem = certify::check_linearization(relaxed.as_history("relaxed"), model, order);
    CHECK_MESSAGE(!problem, problem.value_or(""));
  }
  if (ops.size() > kOutsideRecheckOps) return;
  std::vector<std::uint32_t> ids;
  for (const std::uint32_t i : search.core) ids.push_back(ops[i]->id);
  const CheckOptions recheck{.engine = Engine::sat, .timeout_seconds = 60, .jobs = 1};
  const testing::MinimalityCheck minimal = testing::check_minimality(ops, ids, model, recheck);
  CHECK(minimal.refuted);
  CHECK(minimal.undecided == 0);
  CHECK(minimal.necessary == static_cast<int>(ids.size()));
}

std::vector<const Operation*> pointers(const History& history) {
  std::vector<const Operation*> ops;
  for (const Operation& op : history.ops) ops.push_back(&op);
  return ops;
}

// A register of 5 values written in turn by sequential writes, every write read back
// once, `rounds` times round; then a read of 2, long after the last write of 2 was
// overwritten. Its minimal core is the stale read, every write of 2 (relaxed, any of
// them could write 2 just before the read) and one write between the last of them and
// the read.
History repeated_values_stale_read(const Model& model, int rounds) {
  EventScript s;
  for (int round = 0; round < rounds; ++round) {
    for (std::int64_t v = 0; v < 5; ++v) {
      s.invoke(0, "write", I(v)).invoke(1, "read").ok(0, "write", I(v)).ok(1, "read", I(v));
    }
  }
  s.invoke(1, "read").ok(1, "read", I(2));
  return s.build(model);
}

}  // namespace

TEST_CASE("stale-read seeds: a stale read of a repeated value, without a failing op") {
  auto model = make_model_from_spec("cas-register(0)");
  const History h = repeated_values_stale_read(*model, 40);
  const std::vector<const Operation*> ops = pointers(h);
  const refute::RelaxedRelevance relevance(ops, *model);
  const auto seeds = refute::stale_read_seeds(ops, relevance.semantics(), 4);
  REQUIRE(seeds.size() == 1);  // the one stale read; every other read is of the last write
  const std::uint32_t stale = static_cast<std::uint32_t>(ops.size() - 1);
  CHECK(std::binary_search(seeds[0].begin(), seeds[0].end(), stale));
  // The read, the 40 writes of 2 and an overwrite.
  CHECK(seeds[0].size() == 42);
  expect_minimal_core_without_failing_op(ops, *model, 42);
}

TEST_CASE("stale-read seeds: none where a write of the value is concurrent with the read, or crashed before it") {
  auto model = make_model_from_spec("cas-register(0)");
  for (const bool crashed : {false, true}) {
    EventScript s;
    s.invoke(0, "write", I(2)).ok(0, "write", I(2));
    s.invoke(0, "write", I(3)).ok(0, "write", I(3));
    s.invoke(2, "write", I(2));
    s.invoke(1, "read");
    if (!crashed) s.ok(2, "write", I(2));
    s.ok(1, "read", I(2));
    const History h = s.build(*model);
    const std::vector<const Operation*> ops = pointers(h);
    const refute::RelaxedRelevance relevance(ops, *model);
    CAPTURE(crashed);
    CHECK(refute::stale_read_seeds(ops, relevance.semantics(), 4).empty());
  }
}

TEST_CASE("stale-read seeds: none in linearizable histories of repeated values") {
  // Each seed is a core by construction (core_seeds.cpp), so a linearizable history
  // must never yield one.
  for (const char* spec : {"cas-register", "register(0)", "etcd"}) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const generators::AtomicShape shape{
          .model_spec = spec, .operations = 1500, .processes = 8, .values = 3, .crash_rate = 0.05, .seed = seed};
      const auto generated = generators::generate_atomic_history(shape);
      auto model = make_model_from_spec(generated.model_spec);
      const History h = build_history(generated.log, *model);
      const std::vector<const Operation*> ops = pointers(h);
      const refute::RelaxedRelevance relevance(ops, *model);
      CAPTURE(spec);
      CAPTURE(seed);
      CHECK(refute::stale_read_seeds(ops, relevance.semantics(), 4).empty());
    }
  }
}

TEST_CASE("a 3,000-op cas-register key over 5 values gets a minimal core without a failing op") {
  // One key of `generate atomic --model 'independent(cas-register)' --values 5
  // --crash-rate 0.01 --violation`: the key's object is this one.
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const generators::AtomicShape shape{.model_spec = "cas-register",
                                        .operations = 3600,
                                        .processes = 4,
                                        .values = 5,
                                        .crash_rate = 0.01,
                                        .violation = true,
                                        .seed = seed};
    const auto generated = generators::generate_atomic_history(shape);
    auto model = make_model_from_spec(generated.model_spec);
    const History h = build_history(generated.log, *model);
    const std::vector<const Operation*> ops = pointers(h);
    CAPTURE(seed);
    REQUIRE(ops.size() >= 2500);
    expect_minimal_core_without_failing_op(ops, *model, 2);
  }
}

TEST_CASE("stale-read seeds are cores by brute force on random register histories") {
  // The argument in core_seeds.cpp, checked: every seed, relaxed as the core contract
  // says, is refuted by exhaustive enumeration, which shares nothing with the seeds.
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1};
  int seeded = 0;
  for (const char* spec : {"register(0)", "cas-register(0)", "etcd", "multi-register({:x 0 :y 0})"}) {
    auto model = make_model_from_spec(spec);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 300; ++i) {
      testing::RandomHistoryShape shape;
      shape.operations = 4 + i % 6;
      shape.processes = 3;
      shape.crash_probability = i % 3 == 0 ? 0.3 : 0.1;
      const History h = build_history(testing::random_history(spec, shape, rng), *model);
      const std::vector<const Operation*> ops = pointers(h);
      const refute::RelaxedRelevance relevance(ops, *model);
      for (const std::vector<std::uint32_t>& seed : refute::stale_read_seeds(ops, relevance.semantics(), 4)) {
        INFO("model ", spec, ", history #", i);
        std::vector<std::uint32_t> ids;
        for (const std::uint32_t k : seed) ids.push_back(ops[k]->id);
        CHECK(testing::check_minimality(ops, ids, *model, brute).refuted);
        ++seeded;
      }
    }
  }
  CHECK(seeded > 50);
}
