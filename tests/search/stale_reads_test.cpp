// The stale-read test (search/stale_reads.hpp), which the unique engine runs on the
// register histories its unique-value tests decline, against brute force on small
// histories of repeated values with many crashed ops: every refutation it makes is
// brute force's too, and the ops it names are not linearizable by themselves, every
// other op relaxed (refute/relaxed_history.hpp).
#include "generators/atomic_history.hpp"
#include "search/unique_values.hpp"
#include "support/core_oracle.hpp"

#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ariadne;

namespace {

struct Tally {
  int histories = 0;
  int refuted = 0;             // by the stale-read test
  int not_linearizable = 0;    // by brute force
  int violations_refuted = 0;  // generated with --violation (a stale read) and refuted
  int violations = 0;
};

// Changes the value of one completed read (the (h/3)-th, cyclically) to another of
// the domain {0, 1, 2}, as a kv token when `tokens`.
void corrupt_one_read(History& history, int h, bool tokens) {
  std::vector<Operation*> reads;
  for (Operation& op : history.ops) {
    if ((op.f == "read" || op.f == "get") && op.status == OpStatus::ok && (op.value.is_integer() || tokens)) {
      reads.push_back(&op);
    }
  }
  if (reads.empty()) return;
  Operation& read = *reads[static_cast<std::size_t>(h / 3) % reads.size()];
  for (int k = 0; k < 3; ++k) {
    const int v = (h + k) % 3;
    Value other = tokens ? Value::string("v" + std::to_string(v) + " ") : Value::integer(v);
    if (other == read.value) continue;
    read.value = std::move(other);
    return;
  }
}

// Histories of `spec` as `generate atomic` makes them: 6 to 12 ops (brute force's
// reach), 2 to 4 processes, values from a domain of 2 or 3, and 30 to 60% of the ops
// crashed; half of them with the generator's stale read, and a sixth with a read
// changed to see another value.
Tally compare_with_brute_force(const std::string& spec, std::size_t keys, int per_rate) {
  const auto model = make_model_from_spec(spec);
  const CheckOptions brute{.engine = Engine::brute, .timeout_seconds = 30, .jobs = 1, .minimal_core = false};
  const CheckOptions jit{.engine = Engine::jit, .timeout_seconds = 30, .jobs = 1, .minimal_core = false};
  Tally tally;
  for (const double crash_rate : {0.3, 0.45, 0.6}) {
    for (int h = 0; h < per_rate; ++h) {
      generators::AtomicShape shape;
      shape.model_spec = spec;
      shape.keys = keys;
      shape.operations = 6 + static_cast<std::size_t>(h % 7);
      shape.processes = 2 + static_cast<std::size_t>(h % 3);
      shape.values = 2 + static_cast<std::uint64_t>(h % 2);
      shape.crash_rate = crash_rate;
      shape.violation = h % 2 == 1;
      shape.seed = static_cast<std::uint64_t>(h + 1);
      History history = build_history(generators::generate_atomic_history(shape).log, *model);
      // Every third linearizable one gets a read that saw another value of the domain
      // (a plain value or a kv token): violations of no one pattern, mostly.
      if (!shape.violation && h % 3 == 0) corrupt_one_read(history, h, spec == "kv");
      std::vector<const Operation*> ops;
      for (const Operation& op : history.ops) ops.push_back(&op);
      CAPTURE(spec);
      CAPTURE(crash_rate);
      CAPTURE(h);
      const Verdict oracle = check(history, *model, brute).verdict;
      REQUIRE(oracle != Verdict::unknown);
      const search::UniqueValueAnalysis analysis =
          search::analyse_as_unique_engine(ops, *model, search::UniqueTests::stale_reads);
      ++tally.histories;
      if (oracle == Verdict::not_linearizable) ++tally.not_linearizable;
      if (shape.violation) ++tally.violations;
      CHECK(analysis.answer != search::UniqueValueAnalysis::Answer::linearizable);
      if (analysis.answer != search::UniqueValueAnalysis::Answer::not_linearizable) continue;
      ++tally.refuted;
      if (shape.violation) ++tally.violations_refuted;
      CHECK(oracle == Verdict::not_linearizable);
      std::vector<bool> keep(ops.size(), false);
      for (const std::uint32_t i : analysis.violation) keep[i] = true;
      CHECK(testing::decide_relaxed(ops, keep, *model, jit) == Verdict::not_linearizable);
    }
  }
  MESSAGE(spec, ": ", tally.histories, " histories, ", tally.not_linearizable, " not linearizable, ", tally.refuted,
          " refuted by the stale-read test (", tally.violations_refuted, " of the ", tally.violations,
          " generated stale reads)");
  return tally;
}

}  // namespace

TEST_SUITE("search") {
  TEST_CASE("the stale-read test agrees with brute force on crash-heavy histories of repeated values") {
    // Each model's test must find most of the generated stale reads: a test that
    // refuted nothing would agree with brute force too.
    struct Family {
      std::string spec;
      std::size_t keys;
    };
    for (const Family& family : {Family{"register(0)", 0}, Family{"cas-register(0)", 0}, Family{"etcd(0)", 0},
                                 Family{"kv", 1}, Family{"multi-register({:x 0 :y 0})", 2}}) {
      const Tally tally = compare_with_brute_force(family.spec, family.keys, 200);
      CHECK(tally.refuted > 0);
      CHECK(tally.violations_refuted * 2 > tally.violations);
    }
  }
}
