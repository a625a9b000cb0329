// The failing-op search (refute/first_failure.cpp) started from the refuting
// engine's own ops gives the same op as the plain binary search, and that op is
// the first failure: the prefix before its completion is linearizable, the one
// ending with it is not (both decided by SAT here, independently of the search).
#include <ariadne/check.hpp>
#include <ariadne/model.hpp>

#include "generators/atomic_history.hpp"
#include "models/semantics.hpp"
#include "refute/first_failure.hpp"
#include "search/unique_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ariadne;

namespace {

constexpr std::uint64_t kSteps = 1ULL << 40;  // no step limit, in practice

// SAT's verdict, through check() (so a witness is replayed), on the ops invoked by
// event `cut`, those still open then as crashed. Not WGL: on queue prefixes it runs
// out of memory.
Verdict sat_on_prefix(const search::SubHistory& sub, std::uint64_t cut, const Model& model) {
  History prefix;
  for (const Operation* op : sub.ops) {
    if (op->call > cut) break;
    Operation copy = *op;
    if (copy.ret > cut) {
      copy.status = OpStatus::crashed;
      copy.ret = kNever;
      copy.value = copy.invoke_value;
    }
    prefix.ops.push_back(std::move(copy));
  }
  const CheckOptions sat{.engine = Engine::sat, .timeout_seconds = 30, .jobs = 1, .minimal_core = false};
  return check(prefix, model, sat).verdict;
}

}  // namespace

TEST_SUITE("portfolio") {
  TEST_CASE("the failing-op search from the refuting ops finds the first failure, as the plain search does") {
    int checked = 0;
    for (const char* spec : {"register(0)", "cas-register(0)", "fifo-queue", "stack", "set"}) {
      for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        generators::AtomicShape shape;
        shape.model_spec = spec;
        shape.operations = 200;
        shape.processes = 6;
        shape.crash_rate = 0.02;
        shape.violation = true;
        shape.seed = seed;
        auto model = make_model_from_spec(spec);
        const History history = build_history(generators::generate_atomic_history(shape).log, *model);
        search::SubHistory sub;
        for (const Operation& op : history.ops) sub.ops.push_back(&op);
        const auto semantics = models::semantics_of(*model, sub.ops);
        REQUIRE(semantics);
        const search::UniqueValueAnalysis analysis = search::analyse_unique_values(sub.ops, *semantics);
        INFO(spec, " seed ", seed, ": ", analysis.why);
        if (analysis.answer != search::UniqueValueAnalysis::Answer::not_linearizable) continue;
        search::MemoryBudget memory(1ULL << 30);
        const search::StopSignal stop;
        const auto plain = refute::find_first_failure(sub, *model, memory, stop, kSteps);
        const auto hinted = refute::find_first_failure(sub, *model, memory, stop, kSteps, analysis.violation);
        REQUIRE(plain);
        REQUIRE(hinted);
        CHECK(hinted->op == plain->op);
        CHECK(sat_on_prefix(sub, hinted->op->ret, *model) == Verdict::not_linearizable);
        CHECK(sat_on_prefix(sub, hinted->op->ret - 1, *model) == Verdict::linearizable);
        ++checked;
      }
    }
    MESSAGE(checked, " refuted histories, the same first failure both ways");
    CHECK(checked >= 40);
  }

}  // TEST_SUITE
