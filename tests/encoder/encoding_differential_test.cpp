// The encodings against the brute-force engine on random small histories: each
// formula, decided by the enumeration oracle, must be satisfiable exactly when brute
// force finds the history linearizable, and every order a satisfying model allows
// must replay through the certificate checker. Models with initial contents reuse the
// generator of the empty model, so initial elements meet random removals and reads.
#include "encoder/encoding_harness.hpp"
#include "support/random_history.hpp"

#include <ariadne/check.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>

using namespace ariadne;

namespace {

struct Case {
  std::string model;      // the spec checked against
  std::string generator;  // the spec random_history draws ops for
};

struct Tally {
  int linearizable = 0;
  int not_linearizable = 0;
  int declined = 0;  // the encoding said EncodingUnsupported
};

struct Run {
  int histories = 300;
  int min_ops = 3;
  int max_ops = 6;  // at most testing::kOracleMaxOps
  int processes = 3;
  double crash_probability = 0.25;
  std::uint64_t seed = 0;
  double empty_probability = 0;  // RandomHistoryShape::empty_probability
};

Tally compare_with_brute_force(const Case& c, bool force_unrolling, const Run& run) {
  const auto model = make_model_from_spec(c.model);
  std::mt19937_64 rng(run.seed);
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 10, .jobs = 1};
  Tally tally;
  for (int i = 0; i < run.histories; ++i) {
    testing::RandomHistoryShape shape;
    shape.operations = run.min_ops + i % (run.max_ops - run.min_ops + 1);
    shape.processes = run.processes;
    shape.crash_probability = run.crash_probability;
    shape.empty_probability = run.empty_probability;
    const History history = build_history(testing::random_history(c.generator, shape, rng), *model);
    INFO("model ", c.model, (force_unrolling ? " unrolled" : ""), ", seed ", run.seed, ", history #", i);
    encoder::Formula formula;
    try {
      formula = encoder_tests::encode_history(history, *model, force_unrolling);
    } catch (const encoder::EncodingUnsupported&) {
      ++tally.declined;
      continue;
    }
    const CheckResult expected = check(history, *model, brute);
    REQUIRE(expected.verdict != Verdict::unknown);
    const bool linearizable = expected.verdict == Verdict::linearizable;
    REQUIRE(encoder_tests::satisfiable_and_sound(history, *model, formula) == linearizable);
    // A back-end that orders absent ops too (integer positions) must still find it.
    if (linearizable && !formula.positional()) {
      REQUIRE(encoder_tests::satisfiable_and_sound(history, *model, formula, testing::AbsentOps::ordered));
    }
    (linearizable ? tally.linearizable : tally.not_linearizable)++;
  }
  return tally;
}

const std::vector<Case> kDirectCases = {
    {"mutex()", "mutex()"},
    {"unordered-queue()", "unordered-queue()"},
    {"unordered-queue([0 1])", "unordered-queue()"},
    {"fifo-queue()", "fifo-queue()"},
    {"fifo-queue([1 0])", "fifo-queue()"},
    {"stack()", "stack()"},
    {"stack([0 2])", "stack()"},
    {"set()", "set()"},
    {"set(#{1})", "set()"},
    {"priority-queue()", "priority-queue()"},
    {"priority-queue([[1 0] [0 2] [1 1]])", "priority-queue()"},
    {"max-priority-queue()", "max-priority-queue()"},
    {"max-priority-queue([2 [0 1] [2 0]])", "max-priority-queue()"},
};

// The priority queues: three priorities and three elements, so equal priorities and
// elements inserted twice are common; peeks; initial entries of equal priority.
const std::vector<Case> kPriorityQueueCases = [] {
  std::vector<Case> queues;
  for (const Case& c : kDirectCases) {
    if (c.model.find("priority-queue") != std::string::npos) queues.push_back(c);
  }
  return queues;
}();

// The containers, whose removals may return :empty (issue 49): the direct cases but
// the mutex's and the set's.
const std::vector<Case> kContainerCases = [] {
  std::vector<Case> containers;
  for (const Case& c : kDirectCases) {
    if (!c.model.starts_with("mutex") && !c.model.starts_with("set")) containers.push_back(c);
  }
  return containers;
}();

const std::vector<Case> kUnrolledCases = {
    {"register(0)", "register(0)"},   {"cas-register(0)", "cas-register(0)"},   {"mutex()", "mutex()"},
    {"fifo-queue()", "fifo-queue()"}, {"priority-queue()", "priority-queue()"},
};

void run_all(const std::vector<Case>& cases, bool force_unrolling, const Run& run) {
  MESSAGE(std::string(force_unrolling ? "unrolling" : "direct encodings"), " against brute force, seed ", run.seed);
  for (const Case& c : cases) {
    const Tally t = compare_with_brute_force(c, force_unrolling, run);
    MESSAGE(c.model, ": ", t.linearizable, " linearizable, ", t.not_linearizable, " not, ", t.declined, " declined");
    // Both outcomes must be exercised, or the comparison proves little.
    CHECK(t.linearizable > 0);
    CHECK(t.not_linearizable > 0);
    // Only the unrolling may decline (when the states are too many).
    if (!force_unrolling) CHECK(t.declined == 0);
  }
}

}  // namespace

TEST_SUITE("encoder") {
  TEST_CASE("direct encodings agree with brute force on random histories") {
    run_all(kDirectCases, false, Run{.seed = 20260301});
  }

  TEST_CASE("the unrolling agrees with brute force on random histories") {
    run_all(kUnrolledCases, true, Run{.seed = 20260302});
  }

  TEST_CASE("the container encodings agree with brute force on histories with empty observations") {
    run_all(kContainerCases, false,
            Run{.histories = 1000, .crash_probability = 0.3, .seed = 20260303, .empty_probability = 0.35});
    run_all({{"stack()", "stack()"}, {"fifo-queue([1 0])", "fifo-queue()"}, {"unordered-queue()", "unordered-queue()"}},
            true, Run{.histories = 300, .crash_probability = 0.3, .seed = 20260304, .empty_probability = 0.35});
  }

  // Crashed polls (which take any top entry), crashed and completed peeks, :fail ops,
  // polls and peeks of :empty, at up to seven ops over four processes.
  TEST_CASE("the priority queue encoding agrees with brute force on random histories") {
    run_all(kPriorityQueueCases, false,
            Run{.histories = 1000,
                .max_ops = 7,
                .processes = 4,
                .crash_probability = 0.3,
                .seed = 20260305,
                .empty_probability = 0.2});
  }
}

// Longer and denser histories: seven ops (the oracle's limit) over four processes,
// a third of them crashed, where real-time pruning and crashed removals meet most.
TEST_SUITE("slow") {
  TEST_CASE("direct encodings agree with brute force on crash-heavy random histories") {
    run_all(
        kDirectCases, false,
        Run{.histories = 1000, .min_ops = 7, .max_ops = 7, .processes = 4, .crash_probability = 0.3, .seed = 77001});
  }

  TEST_CASE("the container encodings agree with brute force on crash-heavy histories with empty observations") {
    run_all(kContainerCases, false,
            Run{.histories = 1000,
                .min_ops = 7,
                .max_ops = 7,
                .processes = 4,
                .crash_probability = 0.35,
                .seed = 77003,
                .empty_probability = 0.3});
  }

  TEST_CASE("the priority queue encoding agrees with brute force on crash-heavy random histories") {
    run_all(kPriorityQueueCases, false,
            Run{.histories = 3000,
                .min_ops = 7,
                .max_ops = 7,
                .processes = 4,
                .crash_probability = 0.35,
                .seed = 77004,
                .empty_probability = 0.15});
  }

  TEST_CASE("the unrolling agrees with brute force on crash-heavy random histories") {
    run_all(
        kUnrolledCases, true,
        Run{.histories = 1000, .min_ops = 7, .max_ops = 7, .processes = 4, .crash_probability = 0.3, .seed = 77002});
  }
}
